"""The fees' hand-written SQL (PostgreSQL), its one SQL home: what a round-locking call
reads for the fees in the lock's statement (``wagers.services.round_lock.lock_round_state``,
``also=``), each read beside its ORM twin and registered with the test proving them equal
(``cardroom.sql``); identifiers from the models' metadata, the order of rows written out.
"""

from __future__ import annotations

from cardroom.sql import literals, reads, table
from fees.models import FeeLine, FeeWaiver, RoundFeeSchedule
from tables.sql import Read
from wagers.models import Account, AccountKind

# What a void gives back of each fee line not waived.
RETURNED = ("account_id", "amount_cents", "transaction_id", "seat", "square")

FEE_READS = reads(
    "fees.sql.FEE_READS",
    {
        # The round's frozen fee schedule (written when the hand starts).
        "fee_schedule": Read(
            f'(SELECT to_json("schedule") FROM {table(RoundFeeSchedule)} '
            'WHERE "round_id" = "r"."id")',
            lambda round_: (
                RoundFeeSchedule.objects.filter(round_id=round_.pk)
                .values_list("schedule", flat=True)
                .first()
            ),
        ),
        # The table's drop account (opened by the first fee).
        "drop_account_id": Read(
            f'(SELECT "id" FROM {table(Account)} '
            f'WHERE "kind" = {literals([AccountKind.DROP])} AND "table_id" = "r"."table_id")',
            lambda round_: (
                Account.objects.filter(kind=AccountKind.DROP, table_id=round_.table_id)
                .values_list("pk", flat=True)
                .first()
            ),
        ),
        # The fee lines not waived (written at "no more bets", waived by a supervisor), in
        # their order.
        "fee_lines": Read(
            "(SELECT json_agg(json_build_object("
            + ", ".join(f'\'{name}\', "l"."{name}"' for name in RETURNED)
            + f') ORDER BY "l"."order") FROM {table(FeeLine)} AS "l" '
            'WHERE "l"."round_id" = "r"."id" AND NOT EXISTS (SELECT 1 FROM '
            f'{table(FeeWaiver)} AS "w" WHERE "w"."fee_line_id" = "l"."id"))',
            lambda round_: list(
                FeeLine.objects.filter(round_id=round_.pk, waiver__isnull=True)
                .order_by("order")
                .values(*RETURNED)
            ),
            lambda lines: lines or [],
        ),
    },
    proved_by="tests/rounds/services/test_round_state.py",
)
