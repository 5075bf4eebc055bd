"""Tampering with the books as an attacker with SQL access would, and what ``verify_ledger``
must then report (``tests/rounds/commands/test_verify_ledger.py``).

- ``raw``: one statement with the database's guard triggers bypassed (PostgreSQL:
  ``session_replication_role = replica``), changing exactly one row; the ``tamper`` fixture
  of ``tests/conftest.py`` runs it and undoes it.
- ``Edit``: a statement and the one undoing it. The attacks keep every transaction
  balanced and move the cached balances with the entries, so the only traces are the ones
  the records (bets, bank, settlement and fee lines) contradict.
- ``ATTACKS``: each kind of attack, building its edits on a simulated floor and the exact
  differences it leaves, as (check, row id, account id, expected, found).

The last six go past the leg checks: a buy-in raised on both legs or credited to another
patron, a cash-out's currency flag cleared (each against its cage slip); a hand's result
flipped, a settled round's board replaced, a payout raised with its line, entries, bank
return and bank net all moved to match (each against the hand played again). The floor
must hold cash-outs in currency for the third (``tests/rounds/commands/test_verify_ledger.py``
makes some).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Max

from cardroom.errors import State
from fees.models import FeeLine
from tables.models import DealMode, Hand, HandResultChoice, Round
from tables.rules.cards import parse_cards
from tables.rules.deck import deal
from wagers import recomputation
from wagers.models import (
    Account,
    AccountKind,
    Bet,
    CageSlip,
    LedgerEntry,
    LedgerTransaction,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)

Found = tuple[str, int, int | None, int | None, int | None]

SETTLEMENT = "settlement entry differs from its line"
BANK_RETURN = "bank return differs from W + net"
FEE = "fee line disagrees with its transaction"
DROP = "drop differs from the fees kept"
VOID = "void returns differ from the bets and the bank"
REVERSAL = "reversal does not undo its original"
CHIPS_LEFT = "finished round left chips in play"
SLIP = "chip movement differs from its cage slip"
SLIP_CURRENCY = "chip movement's currency differs from its cage slip"


def raw(sql: str, params: Sequence) -> None:
    """Raw SQL as an attacker with database access runs it (PostgreSQL: triggers off)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        assert cursor.rowcount == 1
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = origin")


@dataclass(frozen=True)
class Edit:
    sql: str
    params: list
    undo_sql: str
    undo_params: list


@dataclass
class Tampering:
    edits: list[Edit] = field(default_factory=list)
    finds: set[Found] = field(default_factory=set)

    def apply(self, run: Callable[..., None]) -> None:
        """``run``: the ``tamper`` fixture (undone at teardown) or anything taking its
        arguments."""
        for edit in self.edits:
            run(edit.sql, edit.params, edit.undo_sql, edit.undo_params)


# --- Edits ----------------------------------------------------------------------------------


def balance(account_id: int, delta: int) -> Edit:
    sql = "UPDATE wagers_account SET balance_cents = balance_cents + %s WHERE id = %s"
    return Edit(sql, [delta, account_id], sql, [-delta, account_id])


def shift(entry: LedgerEntry, delta: int, *, cached: bool = True) -> list[Edit]:
    """The entry's amount moved by ``delta`` (and its account's cached balance with it)."""
    sql = "UPDATE wagers_ledgerentry SET amount_cents = amount_cents + %s WHERE id = %s"
    edits = [Edit(sql, [delta, entry.pk], sql, [-delta, entry.pk])]
    return edits + ([balance(entry.account_id, delta)] if cached else [])


def move(entry: LedgerEntry, account_id: int) -> list[Edit]:
    """The entry posted to another account (the cached balances follow it)."""
    sql = "UPDATE wagers_ledgerentry SET account_id = %s WHERE id = %s"
    return [
        balance(entry.account_id, -entry.amount_cents),
        Edit(sql, [account_id, entry.pk], sql, [entry.account_id, entry.pk]),
        balance(account_id, entry.amount_cents),
    ]


def delete_entry(entry: LedgerEntry, *, cached: bool = True) -> list[Edit]:
    edits = [
        Edit(
            "DELETE FROM wagers_ledgerentry WHERE id = %s",
            [entry.pk],
            "INSERT INTO wagers_ledgerentry (id, transaction_id, account_id, amount_cents, label)"
            " VALUES (%s, %s, %s, %s, %s)",
            [entry.pk, entry.transaction_id, entry.account_id, entry.amount_cents, entry.label],
        )
    ]
    return edits + ([balance(entry.account_id, -entry.amount_cents)] if cached else [])


def add_entry(transaction_id: int, account_id: int, amount: int) -> list[Edit]:
    pk = (LedgerEntry.objects.aggregate(last=Max("pk"))["last"] or 0) + 1
    return [
        Edit(
            "INSERT INTO wagers_ledgerentry (id, transaction_id, account_id, amount_cents, label)"
            " VALUES (%s, %s, %s, %s, '')",
            [pk, transaction_id, account_id, amount],
            "DELETE FROM wagers_ledgerentry WHERE id = %s",
            [pk],
        ),
        balance(account_id, amount),
    ]


def delete_transaction(transaction: LedgerTransaction) -> list[Edit]:
    """The transaction gone with its entries (the cached balances follow)."""
    edits = [e for entry in transaction.entries.all() for e in delete_entry(entry)]
    return [
        *edits,
        Edit(
            "DELETE FROM wagers_ledgertransaction WHERE id = %s",
            [transaction.pk],
            "INSERT INTO wagers_ledgertransaction"
            " (id, kind, at, by_id, round_id, currency, memo, reverses_id)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            [
                transaction.pk,
                transaction.kind,
                transaction.at,
                transaction.by_id,
                transaction.round_id,
                transaction.currency,
                transaction.memo,
                transaction.reverses_id,
            ],
        ),
    ]


def set_column(table: str, column: str, pk: int, value, was) -> Edit:
    sql = f"UPDATE {table} SET {column} = %s WHERE id = %s"
    return Edit(sql, [value, pk], sql, [was, pk])


def set_json(table: str, column: str, pk: int, value, was) -> Edit:
    sql = f"UPDATE {table} SET {column} = %s::jsonb WHERE id = %s"
    return Edit(sql, [json.dumps(value), pk], sql, [json.dumps(was), pk])


# --- Reading the floor ------------------------------------------------------------------------


def entry(transaction_id: int, account_id: int) -> LedgerEntry:
    return LedgerEntry.objects.get(transaction_id=transaction_id, account_id=account_id)


def round_account(round_id: int, kind: AccountKind) -> Account:
    return Account.objects.get(round_id=round_id, kind=kind)


def returned(line: SettlementLine) -> int:
    return line.stake_cents - line.collected_cents + line.paid_cents


def bank_return(round_id: int) -> tuple[PlayerDealerBank, LedgerEntry, LedgerEntry]:
    """The bank, and its return's two entries: out of the round's bank, to the player-dealer."""
    bank = PlayerDealerBank.objects.get(round_id=round_id)
    posted = LedgerTransaction.objects.get(round_id=round_id, kind=TransactionKind.BANK_RETURNED)
    in_play = round_account(round_id, AccountKind.ROUND_BANK)
    return bank, entry(posted.pk, in_play.pk), entry(posted.pk, bank.account_id)


def returns_at_least(round_id: int, amount: int) -> bool:
    """The round's bank came back with more than ``amount`` to a player-dealer who still
    holds ``amount``."""
    bank = PlayerDealerBank.objects.select_related("account").get(round_id=round_id)
    return (
        bank.net_cents is not None
        and bank.amount_cents + bank.net_cents > amount
        and bank.account.balance_cents >= amount
    )


def other_patron(*, besides: set[int], holding: int = 0) -> Account:
    """A patron's chips that are none of ``besides`` players', with at least ``holding``."""
    return (
        Account.objects.filter(kind=AccountKind.PATRON_CHIPS, balance_cents__gte=holding)
        .exclude(player_id__in=besides)
        .order_by("id")
        .first()
    )


def in_round(round_id: int) -> set[int]:
    """Every player with money in the round: its bettors and its player-dealer."""
    players = set(Bet.objects.filter(hand__round_id=round_id).values_list("player_id", flat=True))
    return players | {PlayerDealerBank.objects.get(round_id=round_id).player_id}


def pick(candidates: list, index: int):
    assert candidates, "the floor has nothing to tamper with for this attack"
    return candidates[index % len(candidates)]


# --- The attacks ------------------------------------------------------------------------------


def _lines(**filters) -> list[SettlementLine]:
    return list(
        SettlementLine.objects.filter(**filters).select_related("bet__account").order_by("id")
    )


def payout_to_another_patron(index: int) -> Tampering:
    """A winning bettor's payout credited to a patron who had no part in the round."""
    line = pick(
        [
            line
            for line in _lines(outcome="win", paid_cents__gt=0)
            if line.bet.account.balance_cents >= returned(line)
        ],
        index,
    )
    paid = entry(line.transaction_id, line.bet.account_id)
    other = other_patron(besides=in_round(line.round_id))
    return Tampering(
        move(paid, other.pk),
        {
            (SETTLEMENT, line.transaction_id, line.bet.account_id, returned(line), 0),
            (SETTLEMENT, line.transaction_id, other.pk, 0, returned(line)),
        },
    )


def _paid_line(index: int, extra: int):
    """A winning line whose bank came back with more than ``extra``: the line, its bank,
    the bank return's two entries and the round's bank in play."""
    line = pick(
        [
            line
            for line in _lines(outcome="win", paid_cents__gt=0)
            if returns_at_least(line.round_id, extra)
        ],
        index,
    )
    bank, from_bank, to_dealer = bank_return(line.round_id)
    return line, bank, from_bank, to_dealer, round_account(line.round_id, AccountKind.ROUND_BANK)


def payout_larger_than_its_line(index: int, extra: int = 10_000) -> Tampering:
    """A payout ``extra`` larger than its line, the bank paying it and returning that less."""
    line, bank, from_bank, to_dealer, in_play = _paid_line(index, extra)
    back = bank.amount_cents + bank.net_cents
    return Tampering(
        shift(entry(line.transaction_id, line.bet.account_id), extra)
        + shift(entry(line.transaction_id, in_play.pk), -extra, cached=False)
        + shift(from_bank, extra, cached=False)
        + shift(to_dealer, -extra),
        {
            (
                SETTLEMENT,
                line.transaction_id,
                line.bet.account_id,
                returned(line),
                returned(line) + extra,
            ),
            (
                SETTLEMENT,
                line.transaction_id,
                in_play.pk,
                -line.paid_cents,
                -line.paid_cents - extra,
            ),
            (BANK_RETURN, line.round_id, in_play.pk, -back, -back + extra),
            (BANK_RETURN, line.round_id, bank.account_id, back, back - extra),
        },
    )


def bank_return_not_w_plus_net(index: int, short: int = 100) -> Tampering:
    """The player-dealer gets back ``short`` less than W + net; it stays in the round's bank."""
    banks = [
        bank
        for bank in PlayerDealerBank.objects.filter(round__state=State.SETTLED).order_by("id")
        if returns_at_least(bank.round_id, short)
    ]
    bank, from_bank, to_dealer = bank_return(pick(banks, index).round_id)
    back = bank.amount_cents + bank.net_cents
    return Tampering(
        shift(from_bank, short) + shift(to_dealer, -short),
        {
            (BANK_RETURN, bank.round_id, from_bank.account_id, -back, -back + short),
            (BANK_RETURN, bank.round_id, bank.account_id, back, back - short),
            (CHIPS_LEFT, bank.round_id, from_bank.account_id, 0, short),
        },
    )


def payout_to_another_seat(index: int) -> Tampering:
    """A bettor's chips back from a line credited to another bettor of the same round."""
    candidates = []
    for line in _lines():
        if not returned(line) or line.bet.account.balance_cents < returned(line):
            continue
        others = (
            Bet.objects.filter(hand__round_id=line.round_id)
            .exclude(account_id=line.bet.account_id)
            .order_by("id")
        )
        if others:
            candidates.append((line, others[0]))
    line, other = pick(candidates, index)
    return Tampering(
        move(entry(line.transaction_id, line.bet.account_id), other.account_id),
        {
            (SETTLEMENT, line.transaction_id, line.bet.account_id, returned(line), 0),
            (SETTLEMENT, line.transaction_id, other.account_id, 0, returned(line)),
        },
    )


def line_on_another_seats_bet(index: int) -> Tampering:
    """A settlement line rewritten to name another seat's bet (its chips went to its own)."""
    candidates = []
    for line in _lines():
        others = (
            Bet.objects.filter(hand__round_id=line.round_id)
            .exclude(account_id=line.bet.account_id)
            .order_by("id")
        )
        if others and returned(line):
            candidates.append((line, others[0]))
    line, other = pick(candidates, index)
    mine = line.bet
    stakes = {
        bet.pk: sum(SettlementLine.objects.filter(bet=bet).values_list("stake_cents", flat=True))
        for bet in (mine, other)
    }
    finds = {
        ("settlement line is not its bet's", line.pk, None, mine.pk, other.pk),
        (SETTLEMENT, line.transaction_id, mine.account_id, 0, returned(line)),
        (SETTLEMENT, line.transaction_id, other.account_id, returned(line), 0),
        (
            "bets disagree with their settlement lines",
            mine.pk,
            mine.account_id,
            mine.total,
            stakes[mine.pk] - line.stake_cents,
        ),
        (
            "bets disagree with their settlement lines",
            other.pk,
            other.account_id,
            other.total,
            stakes[other.pk] + line.stake_cents,
        ),
    }
    wager = getattr(other, f"{line.wager}_cents")
    if wager != line.stake_cents:
        finds.add(
            (
                "settlement line's stake is not its bet's wager",
                line.pk,
                other.account_id,
                wager,
                line.stake_cents,
            )
        )
    return Tampering(
        [set_column("wagers_settlementline", "bet_id", line.pk, other.pk, mine.pk)], finds
    )


def missing_leg(index: int) -> Tampering:
    """A winning line's payment by the bank left out: the bettor gets the stake back only,
    the bank keeps the payment and returns it to the player-dealer."""
    line = pick(
        [
            line
            for line in _lines(outcome="win", paid_cents__gt=0)
            if line.bet.account.balance_cents >= line.paid_cents
            and returns_at_least(line.round_id, 0)
        ],
        index,
    )
    bank, from_bank, to_dealer = bank_return(line.round_id)
    in_play = round_account(line.round_id, AccountKind.ROUND_BANK)
    back, paid = bank.amount_cents + bank.net_cents, line.paid_cents
    return Tampering(
        delete_entry(entry(line.transaction_id, in_play.pk), cached=False)
        + shift(entry(line.transaction_id, line.bet.account_id), -paid)
        + shift(from_bank, -paid, cached=False)
        + shift(to_dealer, paid),
        {
            (SETTLEMENT, line.transaction_id, in_play.pk, -paid, 0),
            (
                SETTLEMENT,
                line.transaction_id,
                line.bet.account_id,
                returned(line),
                returned(line) - paid,
            ),
            (BANK_RETURN, line.round_id, in_play.pk, -back, -back - paid),
            (BANK_RETURN, line.round_id, bank.account_id, back, back + paid),
        },
    )


def extra_leg(index: int, amount: int = 100) -> Tampering:
    """A leg no line has: part of a collected stake paid to an outsider, the bank
    returning that less."""
    line = pick(
        [
            line
            for line in _lines(outcome="lose", collected_cents__gt=amount)
            if returns_at_least(line.round_id, amount)
        ],
        index,
    )
    bank, from_bank, to_dealer = bank_return(line.round_id)
    in_play = round_account(line.round_id, AccountKind.ROUND_BANK)
    other = other_patron(besides=in_round(line.round_id))
    back, collected = bank.amount_cents + bank.net_cents, line.collected_cents
    return Tampering(
        shift(entry(line.transaction_id, in_play.pk), -amount, cached=False)
        + add_entry(line.transaction_id, other.pk, amount)
        + shift(from_bank, amount, cached=False)
        + shift(to_dealer, -amount),
        {
            (SETTLEMENT, line.transaction_id, in_play.pk, collected, collected - amount),
            (SETTLEMENT, line.transaction_id, other.pk, 0, amount),
            (BANK_RETURN, line.round_id, in_play.pk, -back, -back + amount),
            (BANK_RETURN, line.round_id, bank.account_id, back, back - amount),
        },
    )


def _fee_lines(state: State) -> list[FeeLine]:
    return list(FeeLine.objects.filter(round__state=state).select_related("account").order_by("id"))


def _drop(line: FeeLine) -> Account:
    return Account.objects.get(kind=AccountKind.DROP, table_id=line.round.table_id)


def fee_amount_differs(index: int, more: int = 100) -> Tampering:
    """A fee transaction taking ``more`` than its line from the payer, into the drop."""
    line = pick(
        [line for line in _fee_lines(State.SETTLED) if line.account.balance_cents >= more], index
    )
    drop = _drop(line)
    return Tampering(
        shift(entry(line.transaction_id, line.account_id), -more)
        + shift(entry(line.transaction_id, drop.pk), more),
        {
            (
                FEE,
                line.transaction_id,
                line.account_id,
                -line.amount_cents,
                -line.amount_cents - more,
            ),
            (FEE, line.transaction_id, drop.pk, line.amount_cents, line.amount_cents + more),
            (DROP, drop.pk, drop.pk, drop.balance_cents, drop.balance_cents + more),
        },
    )


def fee_payer_differs(index: int) -> Tampering:
    """A fee charged to another patron, its line rewritten to name them."""
    line = pick(_fee_lines(State.SETTLED), index)
    other = other_patron(besides=in_round(line.round_id), holding=line.amount_cents)
    return Tampering(
        [
            *move(entry(line.transaction_id, line.account_id), other.pk),
            set_column("fees_feeline", "account_id", line.pk, other.pk, line.account_id),
            set_column("fees_feeline", "player_id", line.pk, other.player_id, line.player_id),
        ],
        {
            (FEE, line.transaction_id, line.account_id, -line.amount_cents, 0),
            (FEE, line.transaction_id, other.pk, 0, -line.amount_cents),
            ("fee line names another payer", line.pk, other.pk, line.player_id, other.player_id),
            ("fee line names another payer's chips", line.pk, other.pk, line.account_id, other.pk),
        },
    )


def fee_to_another_drop(index: int) -> Tampering:
    """A fee posted to another table's drop."""
    line = pick(_fee_lines(State.SETTLED), index)
    drop = _drop(line)
    other = Account.objects.filter(kind=AccountKind.DROP).exclude(pk=drop.pk).order_by("id").first()
    amount = line.amount_cents
    return Tampering(
        move(entry(line.transaction_id, drop.pk), other.pk),
        {
            (FEE, line.transaction_id, drop.pk, amount, 0),
            (FEE, line.transaction_id, other.pk, 0, amount),
            (DROP, drop.pk, drop.pk, drop.balance_cents, drop.balance_cents - amount),
            (DROP, other.pk, other.pk, other.balance_cents, other.balance_cents + amount),
        },
    )


def _void_returns() -> list[LedgerEntry]:
    """The entries giving patrons their chips back in voided rounds (wagers, or the bank)."""
    return list(
        LedgerEntry.objects.filter(
            transaction__kind=TransactionKind.VOID_RETURN,
            account__kind=AccountKind.PATRON_CHIPS,
            amount_cents__gt=0,
        )
        .select_related("account", "transaction")
        .order_by("id")
    )


def _returned_to(round_id: int, account_id: int) -> int:
    return sum(
        LedgerEntry.objects.filter(
            transaction__round_id=round_id,
            transaction__kind=TransactionKind.VOID_RETURN,
            account_id=account_id,
        ).values_list("amount_cents", flat=True)
    )


def void_return_to_another_patron(index: int) -> Tampering:
    """A voided round's wagers given back to someone else than their bettor."""
    back = pick([e for e in _void_returns() if e.account.balance_cents >= e.amount_cents], index)
    round_id = back.transaction.round_id
    other = other_patron(besides=in_round(round_id))
    total = _returned_to(round_id, back.account_id)
    return Tampering(
        move(back, other.pk),
        {
            (VOID, round_id, back.account_id, total, total - back.amount_cents),
            (VOID, round_id, other.pk, 0, back.amount_cents),
        },
    )


def void_return_missing(index: int) -> Tampering:
    """A voided round's return of a bettor's wagers (or of the player-dealer's bank) never
    posted: the chips stay in play."""
    back = pick([e for e in _void_returns() if e.account.balance_cents >= e.amount_cents], index)
    round_id, amount = back.transaction.round_id, back.amount_cents
    in_play = back.transaction.entries.exclude(pk=back.pk).get().account_id
    total = _returned_to(round_id, back.account_id)
    all_back = -_returned_to(round_id, in_play)
    return Tampering(
        delete_transaction(back.transaction),
        {
            (VOID, round_id, back.account_id, total, total - amount),
            (VOID, round_id, in_play, -all_back, -all_back + amount),
            (CHIPS_LEFT, round_id, in_play, 0, amount),
        },
    )


def _fee_reversals(at_least: int) -> list[tuple[FeeLine, LedgerTransaction]]:
    pairs = []
    for line in _fee_lines(State.VOIDED):
        reversal = LedgerTransaction.objects.filter(reverses_id=line.transaction_id).first()
        if reversal and line.account.balance_cents >= at_least:
            pairs.append((line, reversal))
    return pairs


def fee_reversal_partial(index: int, kept: int = 100) -> Tampering:
    """A voided round's fee given back ``kept`` short: the drop keeps it."""
    line, reversal = pick(
        [(line, r) for line, r in _fee_reversals(kept) if line.amount_cents > kept], index
    )
    drop = _drop(line)
    amount = line.amount_cents
    return Tampering(
        shift(entry(reversal.pk, drop.pk), kept)
        + shift(entry(reversal.pk, line.account_id), -kept),
        {
            (REVERSAL, reversal.pk, drop.pk, -amount, -amount + kept),
            (REVERSAL, reversal.pk, line.account_id, amount, amount - kept),
            (DROP, drop.pk, drop.pk, drop.balance_cents, drop.balance_cents + kept),
        },
    )


def fee_reversal_missing(index: int) -> Tampering:
    """A voided round's fee never given back."""
    line, reversal = pick(
        [
            (line, r)
            for line, r in _fee_reversals(0)
            if line.account.balance_cents >= line.amount_cents
        ],
        index,
    )
    # The drop holds the fee again, as the fee lines not reversed say it should.
    return Tampering(
        delete_transaction(reversal),
        {("voided round kept a fee", line.pk, line.account_id, 0, line.amount_cents)},
    )


# --- Past the legs: the records against the cage slips and the hands played again --------------


def _slips(kind: TransactionKind, **filters) -> list[CageSlip]:
    return list(
        CageSlip.objects.filter(kind=kind, **filters).select_related("account").order_by("id")
    )


def buy_in_raised_on_both_legs(index: int, extra: int = 50_000) -> Tampering:
    """A buy-in $500 larger on both legs: the cage gave out more, the patron holds more (the
    cached balances follow); the transaction still balances."""
    slip = pick(_slips(TransactionKind.BUY_IN), index)
    cage = entry(slip.transaction_id, Account.objects.get(kind=AccountKind.CAGE).pk)
    chips = entry(slip.transaction_id, slip.account_id)
    amount = slip.amount_cents
    return Tampering(
        shift(cage, -extra) + shift(chips, extra),
        {
            (SLIP, slip.transaction_id, cage.account_id, -amount, -amount - extra),
            (SLIP, slip.transaction_id, slip.account_id, amount, amount + extra),
        },
    )


def buy_in_to_another_patron(index: int) -> Tampering:
    """A buy-in credited to another patron's chips (who had no part in it)."""
    slip = pick(
        [s for s in _slips(TransactionKind.BUY_IN) if s.account.balance_cents >= s.amount_cents],
        index,
    )
    other = other_patron(besides={slip.player_id})
    amount = slip.amount_cents
    return Tampering(
        move(entry(slip.transaction_id, slip.account_id), other.pk),
        {
            (SLIP, slip.transaction_id, slip.account_id, amount, 0),
            (SLIP, slip.transaction_id, other.pk, 0, amount),
        },
    )


def cash_out_currency_cleared(index: int) -> Tampering:
    """A cash-out paid in currency recorded as if none changed hands (off the Title 31 log)."""
    slip = pick(_slips(TransactionKind.CASH_OUT, currency=True), index)
    return Tampering(
        [set_column("wagers_ledgertransaction", "currency", slip.transaction_id, False, True)],
        {(SLIP_CURRENCY, slip.transaction_id, slip.account_id, 1, 0)},
    )


def result_flipped(index: int) -> Tampering:
    """A settled hand that beat the player-dealer recorded as losing to them."""
    hand = pick(
        list(
            Hand.objects.filter(round__state=State.SETTLED, result=HandResultChoice.WIN).order_by(
                "id"
            )
        ),
        index,
    )
    return Tampering(
        [set_column("tables_hand", "result", hand.pk, HandResultChoice.LOSE, hand.result)],
        {
            (
                recomputation.HAND,
                hand.round_id,
                None,
                HandResultChoice.WIN.label,
                HandResultChoice.LOSE.label,
            )
        },
    )


def board_replaced(index: int) -> Tampering:
    """A settled RNG round's board replaced by five cards its deck did not deal."""
    round_ = pick(
        list(Round.objects.filter(state=State.SETTLED, deal_mode=DealMode.RNG).order_by("id")),
        index,
    )
    seats = list(round_.hands.values_list("seat", flat=True))
    deck = parse_cards(round_.shuffled_deck, count=52)
    dealt = 2 * len(seats) + 7
    replaced = [str(card) for card in deck[dealt : dealt + 5]]
    board = [str(card) for card in deal(deck, round_.player_dealer_seat, seats).board]
    assert board == round_.board
    return Tampering(
        [set_json("tables_round", "board", round_.pk, replaced, round_.board)],
        {(recomputation.NOT_THE_DECKS, round_.pk, None, " ".join(board), " ".join(replaced))},
    )


def payout_raised_with_everything_moved(index: int, extra: int = 5_000) -> Tampering:
    """A winning line paid $50 more, with everything the leg checks compare moved to match:
    the line, its settlement entries, the bank return and the bank's net."""
    line, bank, from_bank, to_dealer, in_play = _paid_line(index, extra)
    return Tampering(
        [
            set_column(
                "wagers_settlementline", "paid_cents", line.pk, line.paid_cents + extra,
                line.paid_cents,
            ),
            set_column(
                "wagers_playerdealerbank", "net_cents", bank.pk, bank.net_cents - extra,
                bank.net_cents,
            ),
            *shift(entry(line.transaction_id, line.bet.account_id), extra),
            *shift(entry(line.transaction_id, in_play.pk), -extra, cached=False),
            *shift(from_bank, extra, cached=False),
            *shift(to_dealer, -extra),
        ],
        {
            (
                recomputation.LINE_AMOUNT, line.pk, line.bet.account_id, line.paid_cents,
                line.paid_cents + extra,
            ),
            (recomputation.BANK, line.round_id, None, bank.net_cents, bank.net_cents - extra),
        },
    )  # fmt: skip


ATTACKS: dict[str, Callable[[int], Tampering]] = {
    "payout to another patron": payout_to_another_patron,
    "payout larger than its line": payout_larger_than_its_line,
    "bank return not W + net": bank_return_not_w_plus_net,
    "payout to another seat": payout_to_another_seat,
    "line on another seat's bet": line_on_another_seats_bet,
    "missing leg": missing_leg,
    "extra leg": extra_leg,
    "fee amount differs": fee_amount_differs,
    "fee payer differs": fee_payer_differs,
    "fee to another table's drop": fee_to_another_drop,
    "void return to another patron": void_return_to_another_patron,
    "void return missing": void_return_missing,
    "fee reversal partial": fee_reversal_partial,
    "fee reversal missing": fee_reversal_missing,
    "buy-in raised on both legs": buy_in_raised_on_both_legs,
    "buy-in to another patron": buy_in_to_another_patron,
    "cash-out currency cleared": cash_out_currency_cleared,
    "result flipped": result_flipped,
    "board replaced": board_replaced,
    "payout raised with everything moved": payout_raised_with_everything_moved,
}
