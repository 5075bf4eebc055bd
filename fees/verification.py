"""The fees' part of ``verify_ledger``: the drop holds exactly the fees kept (docs/rules.md §9).

Fees leave their payers for the table's drop, and nothing else goes there; a waiver or a
void gives a fee back by a reversal of its own transaction (checked, as every reversal,
by ``wagers.verification``). Each check is one SQL query, as the money checks are, and
answers the same columns (``wagers.verification.Check``).

Every fee transaction is compared leg by leg with its fee line: the legs are
``wagers.rules.postings.fee_legs``, the function the assessment posts with, on the
payer's chips as the round records them (the bet's account of the seat and bettor the
line names, or the bank's account for the player-dealer) and the round's table's drop.
"""

from __future__ import annotations

from django.db.models import BigIntegerField, Case, F, OuterRef, Subquery, When

from cardroom.sql import Alias, literals
from fees.models import FeeLine, FeeWaiver, PayerKind
from tables.models import Round
from wagers.models import (
    Account,
    AccountKind,
    Bet,
    LedgerTransaction,
    PlayerDealerBank,
    TransactionKind,
)
from wagers.rules.postings import Role, fee_legs
from wagers.rules.wagers import bettor_label
from wagers.verification import VOIDED_SQL, Check, Source, leg_check

# The tables the checks' SQL reads, each by its alias there (``cardroom.sql.Alias``): no
# table, column or value of an enum is written out.
A, R = Alias(Account, "a"), Alias(Round, "r")
FL, W = Alias(FeeLine, "f"), Alias(FeeWaiver, "w")
V = Alias(LedgerTransaction, "v")  # a reversal


def _payer(column: str) -> Case:
    """The payer's ``column`` as the round records it: the bet's (seat and bettor of the
    line) for a bettor, the bank's for the player-dealer."""
    bet = Bet.objects.order_by().filter(
        hand__round_id=OuterRef("round_id"), hand__seat=OuterRef("seat"), bettor=OuterRef("bettor")
    )
    bank = PlayerDealerBank.objects.order_by().filter(round_id=OuterRef("round_id"))
    return Case(
        When(
            payer_kind=PayerKind.PLAYER_DEALER,
            then=Subquery(bank.values(column)[:1], output_field=BigIntegerField()),
        ),
        default=Subquery(bet.values(column)[:1], output_field=BigIntegerField()),
        output_field=BigIntegerField(),
    )


def _table_drop() -> Subquery:
    return Subquery(
        Account.objects.order_by()
        .filter(kind=AccountKind.DROP, table_id=OuterRef("round__table_id"))
        .values("pk")[:1],
        output_field=BigIntegerField(),
    )


def _payer_check(field: str, unit: str) -> Check:
    """A fee line naming someone else than the bettor or player-dealer it charges."""

    def build() -> tuple[str, list]:
        queryset = FeeLine.objects.order_by().values(
            x_row=F("pk"),
            x_round=F("round_id"),
            x_line=F("pk"),
            x_account=F("account_id"),
            x_expected=_payer(field),
            x_found=F(field),
        )
        sql, params = queryset.query.sql_with_params()
        return (
            "SELECT x_row, x_round, x_line, x_account, x_expected, x_found"
            f" FROM ({sql}) payer WHERE x_expected IS NULL OR x_expected <> x_found",
            params,
        )

    return Check(row="fee line", line="fee line", unit=unit, sql=build)


def fee_line_names(ids: set[int]) -> dict[int, str]:
    return {
        line.pk: (
            f"#{line.order} (seat {line.seat} {bettor_label(line.bettor)} {line.square}, "
            f"{PayerKind(line.payer_kind).label.lower()})"
        )
        for line in FeeLine.objects.filter(pk__in=ids)
    }


CHECKS = {
    "fee line disagrees with its transaction": leg_check(
        row="transaction",
        kinds=[TransactionKind.FEE],
        line="fee line",
        sources=[
            Source(
                rows=FeeLine.objects.all(),
                key=F("transaction_id"),
                round=F("round_id"),
                line=F("pk"),
                legs=fee_legs(F("amount_cents")),
                accounts={Role.PAYER: _payer("account_id"), Role.DROP: _table_drop()},
            )
        ],
    ),
    "fee line names another payer": _payer_check("player_id", "player"),
    "fee line names another payer's chips": _payer_check("account_id", "account"),
    "drop differs from the fees kept": Check(
        row="account",
        sql=f"""
        SELECT {A.id}, NULL, NULL, {A.id}, COALESCE(k.kept, 0), {A.balance_cents}
          FROM {A}
          LEFT JOIN (SELECT {R.table_id}, SUM({FL.amount_cents}) AS kept
                       FROM {FL}
                       JOIN {R} ON {R.id} = {FL.round_id}
                      WHERE NOT EXISTS (SELECT 1 FROM {V}
                                         WHERE {V.reverses_id} = {FL.transaction_id})
                      GROUP BY {R.table_id}) k ON k.table_id = {A.table_id}
         WHERE {A.kind} = {literals([AccountKind.DROP])}
           AND {A.balance_cents} <> COALESCE(k.kept, 0)
        """,
    ),
    "voided round kept a fee": Check(
        row="fee line",
        line="fee line",
        sql=f"""
        SELECT {FL.id}, {FL.round_id}, {FL.id}, {FL.account_id}, 0, {FL.amount_cents}
          FROM {FL}
          JOIN {R} ON {R.id} = {FL.round_id} AND {R.state} = {VOIDED_SQL}
         WHERE NOT EXISTS (SELECT 1 FROM {V} WHERE {V.reverses_id} = {FL.transaction_id})
        """,
    ),
    "fee waiver does not reverse its fee": Check(
        row="fee waiver",
        line="fee line",
        unit="transaction",
        sql=f"""
        SELECT {W.id}, {FL.round_id}, {FL.id}, {FL.account_id}, {FL.transaction_id},
               {V.reverses_id}
          FROM {W}
          JOIN {FL} ON {FL.id} = {W.fee_line_id}
          JOIN {V} ON {V.id} = {W.reversal_id}
         WHERE {V.reverses_id} IS NULL OR {V.reverses_id} <> {FL.transaction_id}
        """,
    ),
}
