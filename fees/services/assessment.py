"""Fees of a hand (docs/rules.md §9): the schedule frozen when it starts, assessed by the
fee engine at "no more bets" and posted to the drop, returned with a void.

Called by the round lifecycle inside its transaction, under the table lock. The cost is
fixed whatever the number of bettors: one read of the wagers (which also answers the
round's own checks and brings the frozen schedule), then one batch of postings and one
insert of the fee lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.errors import Rule, RuleError, State, StateError
from cardroom.money import dollar_range, dollars
from fees.models import FeeLine, PayerKind, RoundFeeSchedule
from fees.rules.assessment import Wagered, assess, largest_bank, shortfalls
from fees.rules.schedule import ALL_SQUARES
from fees.selectors import engine_schedule, least_player_dealer_owes, snapshot_in_force
from fees.sql import FEE_READS
from tables.models import Player, Round
from wagers.models import Account, TransactionKind
from wagers.rules.postings import Role, fee_legs, reversed_legs
from wagers.services.ledger import Posting, drop_account, legs_of, post_all
from wagers.services.round_lock import RoundState
from wagers.services.wagering import BankCheck


def fix_schedule(table, moment) -> dict | None:
    """The version in force for a hand starting now, with its rates (one query).

    A table's own schedule filed for other limits than the table's present ones cannot
    apply: the hand does not start until a version for the new limits is filed.
    """
    snapshot = snapshot_in_force(table, moment)
    if snapshot is None:
        return None
    limits = (snapshot["table_minimum_cents"], snapshot["table_maximum_cents"])
    if limits != (table.minimum_cents, table.maximum_cents):
        raise StateError(
            f"the collection schedule in force (version {snapshot['number']}) was filed for "
            f"limits {dollar_range(*limits)}; the table's limits are now "
            f"{dollar_range(table.minimum_cents, table.maximum_cents)}: file a new version "
            "before the next hand",
            state=State.FEE_SCHEDULE_MISMATCH,
            rule=Rule.FEE_SCHEDULE_LIMITS,
        )
    return snapshot


def freeze_schedule(round_: Round, snapshot: dict | None) -> None:
    """Keep the schedule ``fix_schedule`` found with the hand; a hand without one pays none."""
    if snapshot is not None:
        RoundFeeSchedule.objects.create(
            round=round_, version_id=snapshot["version_id"], schedule=snapshot
        )


@dataclass(frozen=True)
class WagersAtClose:
    """What "no more bets" reads with the table's lock: the bets, the bank, the drop, the
    schedule."""

    bets: list[dict]
    bank_account_id: int | None
    bank_balance: int | None
    drop_account_id: int | None
    schedule: dict | None = None  # the round's frozen fee schedule; None: no fees


# What "no more bets" reads for the fees besides the round's money, in the lock's statement
# (``wagers.services.round_lock.lock_round_state(also=AT_CLOSE)``; the SQL: ``fees.sql``):
# the frozen schedule (written when the hand starts) and the table's drop account (opened by
# the first fee), both written under the table's lock.
AT_CLOSE = {name: FEE_READS[name] for name in ("fee_schedule", "drop_account_id")}


def wagers_at_close(state: RoundState) -> WagersAtClose:
    """Every bet of the round with its bettor's chips, plus the bank, the drop account and
    the frozen fee schedule, as read with the table's lock (``lock_round_state(bets=True,
    bank=True, also=AT_CLOSE)``): no query of its own."""
    bank = state.bank
    rows = [
        {
            "hand__seat": bet.hand.seat,
            "bettor": bet.bettor,
            "player_id": bet.player_id,
            "account_id": bet.account_id,
            "account__balance_cents": bet.account.balance_cents,
            **{f"{square}_cents": getattr(bet, f"{square}_cents") for square in ALL_SQUARES},
        }
        for bet in state.bets  # by seat and bettor
    ]
    return WagersAtClose(
        rows,
        bank.account_id if bank else None,
        bank.account.balance_cents if bank else None,
        state.also["drop_account_id"] if rows else None,
        state.also["fee_schedule"] if rows else None,
    )


def _require_fees_kept(state: RoundState, amount: int) -> None:
    """A bank that leaves the player-dealer fewer chips than the least collection fee they
    will owe at "no more bets" is refused (docs/rules.md §9.4): the fee is paid from the
    chips beside the bank, never from it, and "no more bets" would stop on it."""
    round_ = state.round
    owed = least_player_dealer_owes(round_, state.also["fee_schedule"], state.bets)
    if not owed:
        return
    account = state.chips.get(round_.player_dealer_id)
    held = account.balance_cents if account else 0
    if held - amount >= owed:
        return
    most = largest_bank(held, owed, round_.options["chip_unit_cents"])
    more = "fill the bankroll" if round_.player_dealer_is_tppp else "buy in"
    name = Player.objects.values_list("name", flat=True).get(pk=round_.player_dealer_id)
    then = f"post a bank of at most {dollars(most)}, or {more} first" if most else f"{more} first"
    raise RuleError(
        f"a bank of {dollars(amount)} leaves {name} {dollars(held - amount)} in chips at the "
        f'table; the player-dealer owes at least {dollars(owed)} in collection fees at "no '
        f'more bets", paid from the chips beside the bank, not from it: {then}',
        rule=Rule.FEE_COLLECTION,
        field="amount",
    )


# What posting the bank checks for the fees, with the table's lock (``wagers.services.
# wagering.post_bank``, called by ``rounds.services.post_bank``): the frozen schedule, read in
# the lock's statement, and the chips the player-dealer keeps beside the bank.
FEES_KEPT = BankCheck(reads={"fee_schedule": AT_CLOSE["fee_schedule"]}, check=_require_fees_kept)


def collect(round_: Round, wagers: WagersAtClose, *, by) -> list[FeeLine]:
    """Assess the hand's fees with the schedule frozen at its start and post them to the drop.

    A payer whose chips do not cover their fees stops "no more bets" (nothing is written):
    the fee is collected before the deal, so the dealer cannot go on without it.
    """
    if wagers.schedule is None or not wagers.bets:
        return []
    schedule = engine_schedule(wagers.schedule)
    assessment = assess(
        schedule,
        [
            Wagered(
                seat=row["hand__seat"],
                bettor=row["bettor"],
                payer_id=row["player_id"],
                squares={square: row[f"{square}_cents"] for square in ALL_SQUARES},
            )
            for row in wagers.bets
        ],
        player_dealer_id=round_.player_dealer_id,
        player_dealer_seat=round_.player_dealer_seat,
    )
    if not assessment.lines:
        return []
    accounts = {row["player_id"]: row["account_id"] for row in wagers.bets}
    balances = {row["player_id"]: row["account__balance_cents"] for row in wagers.bets}
    accounts[round_.player_dealer_id] = wagers.bank_account_id
    balances[round_.player_dealer_id] = wagers.bank_balance or 0
    short = shortfalls(assessment, balances)
    if short:
        seats = {row["player_id"]: row["hand__seat"] for row in wagers.bets}
        seats[round_.player_dealer_id] = round_.player_dealer_seat
        payer, owed, held = short[0]
        who = "the player-dealer" if payer == round_.player_dealer_id else "the bettor"
        raise RuleError(
            f"seat {seats[payer]}: {who} owes {dollars(owed)} in collection fees and has "
            f"{dollars(held)} in chips at the table; fees are collected before the deal: buy in "
            "or fill, or void the hand",
            rule=Rule.FEE_COLLECTION,
            field="fees",
        )
    drop_id = wagers.drop_account_id or drop_account(round_.table).pk  # once per table
    drop = Account(pk=drop_id)
    postings = [
        Posting(
            TransactionKind.FEE,
            legs_of(
                fee_legs(line.amount, line.square),
                {Role.PAYER: Account(pk=accounts[line.payer_id]), Role.DROP: drop},
            ),
            round_id=round_.pk,
            memo=f"seat {line.seat} {line.payer.value} {line.square} rate {line.rate_position}",
        )
        for line in assessment.lines
    ]
    post_all(postings, by=by)
    return FeeLine.objects.bulk_create(
        [
            FeeLine(
                round_id=round_.pk,
                order=order,
                version_id=wagers.schedule["version_id"],
                payer_kind=PayerKind(line.payer.value),
                player_id=line.payer_id,
                account_id=accounts[line.payer_id],
                seat=line.seat,
                bettor=line.bettor,
                square=line.square,
                wager_cents=line.wager,
                rate_position=line.rate_position,
                amount_cents=line.amount,
                transaction=posting.transaction,
            )
            for order, (line, posting) in enumerate(
                zip(assessment.lines, postings, strict=True), start=1
            )
        ]
    )


# What a void reads for the fees, in the lock's statement (``lock_round_state(also=AT_VOID)``;
# the SQL: ``fees.sql``): the fee lines not waived (written at "no more bets", waived by a
# supervisor, both under the table's lock), in their order, and the drop they were posted to.
AT_VOID = {name: FEE_READS[name] for name in ("fee_lines", "drop_account_id")}


def return_fees(state: RoundState, *, by) -> None:
    """A voided hand: each fee not already waived goes back to its payer by a reversal (the
    lines and the drop as read with the table's lock, ``lock_round_state(also=AT_VOID)``)."""
    round_, lines = state.round, state.also["fee_lines"]
    if not lines:
        return
    drop = Account(pk=state.also["drop_account_id"] or drop_account(round_.table).pk)
    post_all(
        [
            Posting(
                TransactionKind.REVERSAL,
                legs_of(
                    reversed_legs(fee_legs(line["amount_cents"], line["square"])),
                    {Role.PAYER: Account(pk=line["account_id"]), Role.DROP: drop},
                ),
                round_id=round_.pk,
                memo=f"fee returned: round voided (seat {line['seat']} {line['square']})",
                reverses_id=line["transaction_id"],
            )
            for line in lines
        ],
        by=by,
    )
