"""``manage.py verify_ledger`` finds every entry that contradicts the record of a round.

An attacker with SQL access bypasses the database's guard triggers and rewrites the
ledger so that every transaction still balances and every cached balance still matches
its entries: a payout credited to someone else, a payout larger than its line paid for by
a smaller bank return, a leg missing or added, a fee taken from another patron or put in
another table's drop, a voided round's return or fee refund kept back. Then the attacks
that kept the books balanced against their records too (issue 24): a buy-in raised on both
legs or credited to another patron, a cash-out's currency flag cleared (caught against the
cage slips), a hand's result flipped, a settled round's board replaced, a payout raised
with its line, entries, bank return and bank net all moved to match (caught by playing the
hand again). Each attack (``tests.builders.tampering.ATTACKS``) is run on a simulated
floor that verifies clean first, and must leave exactly the differences it predicts, each
named in the command's output (round, line, account, expected and found, in dollars or in
the floor's words), with a non-zero exit.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.errors import State
from cardroom.money import dollars
from fees.models import FeeLine, PayerKind
from rounds import simulation
from tables.models import Hand, HandResultChoice, Player, Round
from tests.builders.tampering import ATTACKS, Tampering, raw
from wagers import recomputation
from wagers.models import Account, Bet, CageSlip, LedgerTransaction, SettlementLine
from wagers.rules.wagers import bettor_label
from wagers.services import chips as chip_services
from wagers.verification import Recomputation, differences

pytestmark = pytest.mark.django_db


def verify() -> str:
    out, err = StringIO(), StringIO()
    call_command("verify_ledger", stdout=out, stderr=err)
    assert err.getvalue() == ""
    return out.getvalue()


def verify_fails() -> list[str]:
    """The lines ``verify_ledger`` writes when it finds differences (it exits non-zero)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_ledger", stdout=out, stderr=err)
    except CommandError as error:
        assert "difference(s) in the ledger" in str(error)
        return err.getvalue().splitlines()
    pytest.fail(f"verify_ledger missed the attack: {out.getvalue().strip()}")


def checks() -> dict:
    """Every check ``verify_ledger`` runs."""
    from rounds.management.commands.verify_ledger import CHECKS

    return CHECKS


def unit_of(check: str) -> str:
    """The unit of a check's figures: an SQL check's own, or the recomputation's."""
    for name, run in checks().items():
        if isinstance(run, Recomputation) and check in run.checks:
            return run.checks[check]
        if name == check:
            return run.unit
    raise KeyError(check)


def shown(unit: str, value) -> str:
    """A figure as the command writes it (ids are followed by their names)."""
    if unit == "cents":
        return dollars(value)
    if unit == "words":
        return value
    if unit == "currency":
        return "currency changed hands" if value else "no currency"
    return f"{unit} {value} ("


def reported() -> set[tuple]:
    """(check, row id, account id, expected, found) of every difference found."""
    return {(d.check, d.row_id, d.account_id, d.expected, d.found) for d in differences(checks())}


@pytest.fixture
def floor(monkeypatch):
    """Two simulated tables with fees, one round in three voided (its wagers and fees given
    back), then each backline bettor cashing out $200 in currency and one seated patron $100
    in chips; verifying clean."""
    monkeypatch.setattr(simulation, "VOID_CHANCE", 0.3)
    call_command("simulate", tables=2, rounds=12, seed=5, stdout=StringIO())
    assert Round.objects.filter(state=State.VOIDED).exists()
    assert Round.objects.filter(state=State.SETTLED).exists()
    by = User.objects.get(username="simulated-dealer")
    backliners = Account.objects.filter(
        kind="patron_chips", player__name__startswith="Backline bettor"
    ).order_by("id")
    for account in backliners:
        chip_services.cash_out(
            table_id=account.table_id, player_id=account.player_id, amount=20_000,
            currency=True, by=by,
        )  # fmt: skip
    seated = Account.objects.filter(kind="patron_chips", player__name__contains="seat 1").first()
    chip_services.cash_out(
        table_id=seated.table_id, player_id=seated.player_id, amount=10_000, currency=False, by=by
    )
    assert CageSlip.objects.filter(kind="cash_out", currency=True).count() == 2
    assert "no differences" in verify()


# --- How the command names things ----------------------------------------------------------


def round_(round_id: int) -> str:
    return f"round {round_id} ({Round.objects.select_related('table').get(pk=round_id)})"


def chips(account_id: int) -> str:
    account = Account.objects.select_related("player", "table").get(pk=account_id)
    what = "bankroll" if account.kind == "bankroll" else "chips"
    return f"account {account.pk} ({account.player}'s {what} at {account.table})"


def drop(account_id: int) -> str:
    return f"account {account_id} (the drop of {Account.objects.get(pk=account_id).table})"


def in_play(account_id: int) -> str:
    account = Account.objects.get(pk=account_id)
    what = "wagers" if account.kind == "round_wagers" else "bank"
    return f"account {account.pk} (the {what} in play in {account.round})"


def settlement_line(line: SettlementLine) -> str:
    label = bettor_label(line.bettor)
    return f"settlement line {line.pk} #{line.order} (seat {line.seat} {label} {line.wager})"


def fee_line(line: FeeLine) -> str:
    payer = PayerKind(line.payer_kind).label.lower()
    return (
        f"fee line {line.pk} #{line.order} "
        f"(seat {line.seat} {bettor_label(line.bettor)} {line.square}, {payer})"
    )


def player(player_id: int) -> str:
    return f"player {player_id} ({Player.objects.get(pk=player_id)})"


def attacked(attack: str, tamper, index: int = 0) -> Tampering:
    tampering = ATTACKS[attack](index)
    tampering.apply(tamper)
    return tampering


# --- Every attack leaves exactly the differences it predicts ---------------------------------


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_each_attack_is_reported_and_exits_non_zero(floor, tamper, attack):
    assert reported() == set()
    tampering = attacked(attack, tamper)

    assert reported() == tampering.finds
    said = verify_fails()
    assert len(said) == len(tampering.finds)
    for check, _, account_id, expected, found in tampering.finds:
        unit = unit_of(check)
        amounts = (
            f": expected {shown(unit, expected)}, found {shown(unit, found)}"
            if unit in ("cents", "words", "currency")
            else f": expected {shown(unit, expected)}"
        )
        assert [
            line
            for line in said
            if line.startswith(f"DIFFERENCE {check}: ")
            and amounts in line
            and (account_id is None or f"account {account_id} (" in line)
        ], (check, said)


# --- The two attacks that went unseen, word for word -------------------------------------------


def test_a_payout_credited_to_another_patron(floor, tamper):
    tampering = attacked("payout to another patron", tamper)
    (txn, bettor, other) = _settlement_accounts(tampering)
    line = SettlementLine.objects.get(transaction_id=txn)
    back = line.stake_cents - line.collected_cents + line.paid_cents
    where = f"transaction {txn}, {round_(line.round_id)}, {settlement_line(line)}"

    assert sorted(verify_fails()) == sorted(
        [
            "DIFFERENCE settlement entry differs from its line: "
            f"{where}, {chips(bettor)}: expected {dollars(back)}, found $0.00",
            "DIFFERENCE settlement entry differs from its line: "
            f"{where}, {chips(other)}: expected $0.00, found {dollars(back)}",
        ]
    )


def _settlement_accounts(tampering: Tampering) -> tuple[int, int, int]:
    """The transaction, the account the line pays and the one that was paid instead."""
    (txn,) = {f[1] for f in tampering.finds}
    paid = next(f[2] for f in tampering.finds if f[4] == 0)
    instead = next(f[2] for f in tampering.finds if f[3] == 0)
    return txn, paid, instead


def test_a_payout_larger_than_its_line_with_the_bank_return_adjusted(floor, tamper):
    tampering = attacked("payout larger than its line", tamper)
    txn = next(f[1] for f in tampering.finds if f[0] == "settlement entry differs from its line")
    line = SettlementLine.objects.select_related("bet").get(transaction_id=txn)
    back = line.stake_cents - line.collected_cents + line.paid_cents
    bank = line.round.bank
    w_plus_net = bank.amount_cents + bank.net_cents
    wagers_bank = Account.objects.get(round=line.round, kind="round_bank").pk
    where = f"transaction {line.transaction_id}, {round_(line.round_id)}, {settlement_line(line)}"

    assert sorted(verify_fails()) == sorted(
        [
            "DIFFERENCE settlement entry differs from its line: "
            f"{where}, {chips(line.bet.account_id)}: "
            f"expected {dollars(back)}, found {dollars(back + 10_000)}",
            "DIFFERENCE settlement entry differs from its line: "
            f"{where}, {in_play(wagers_bank)}: "
            f"expected {dollars(-line.paid_cents)}, found {dollars(-line.paid_cents - 10_000)}",
            "DIFFERENCE bank return differs from W + net: "
            f"{round_(line.round_id)}, {in_play(wagers_bank)}: "
            f"expected {dollars(-w_plus_net)}, found {dollars(-w_plus_net + 10_000)}",
            "DIFFERENCE bank return differs from W + net: "
            f"{round_(line.round_id)}, {chips(bank.account_id)}: "
            f"expected {dollars(w_plus_net)}, found {dollars(w_plus_net - 10_000)}",
        ]
    )


# --- The other attacks, one message each, word for word --------------------------------------


def test_a_bank_return_that_is_not_w_plus_net(floor, tamper):
    tampering = attacked("bank return not W + net", tamper)
    _, round_id, account_id, expected, found = next(
        f for f in tampering.finds if f[0] == "bank return differs from W + net" and f[3] > 0
    )
    assert (
        f"DIFFERENCE bank return differs from W + net: {round_(round_id)}, {chips(account_id)}: "
        f"expected {dollars(expected)}, found {dollars(expected - 100)}"
    ) in verify_fails()
    assert found == expected - 100


def test_a_line_rewritten_to_name_another_seats_bet(floor, tamper):
    tampering = attacked("line on another seat's bet", tamper)
    _, line_id, _, mine, other = next(
        f for f in tampering.finds if f[0] == "settlement line is not its bet's"
    )
    line = SettlementLine.objects.get(pk=line_id)
    bets = {b.pk: b for b in Bet.objects.filter(pk__in=[mine, other]).select_related("hand")}
    named = {
        pk: f"bet {pk} (seat {b.hand.seat} {bettor_label(b.bettor)} of {b.hand.round})"
        for pk, b in bets.items()
    }
    assert (
        f"DIFFERENCE settlement line is not its bet's: {round_(line.round_id)}, "
        f"{settlement_line(line)}: expected {named[mine]}, found {named[other]}"
    ) in verify_fails()


def test_a_fee_charged_to_another_patron(floor, tamper):
    tampering = attacked("fee payer differs", tamper)
    _, line_id, account_id, payer, instead = next(
        f for f in tampering.finds if f[0] == "fee line names another payer"
    )
    line = FeeLine.objects.get(pk=line_id)
    said = verify_fails()
    assert (
        f"DIFFERENCE fee line names another payer: {round_(line.round_id)}, {fee_line(line)}, "
        f"{chips(account_id)}: expected {player(payer)}, found {player(instead)}"
    ) in said
    assert (
        f"DIFFERENCE fee line disagrees with its transaction: transaction {line.transaction_id}, "
        f"{round_(line.round_id)}, {fee_line(line)}, {chips(account_id)}: "
        f"expected $0.00, found {dollars(-line.amount_cents)}"
    ) in said


def test_a_fee_put_in_another_tables_drop(floor, tamper):
    tampering = attacked("fee to another table's drop", tamper)
    _, txn, other, _, amount = next(
        f
        for f in tampering.finds
        if f[0] == "fee line disagrees with its transaction" and f[3] == 0
    )
    line = FeeLine.objects.get(transaction_id=txn)
    assert (
        f"DIFFERENCE fee line disagrees with its transaction: transaction {txn}, "
        f"{round_(line.round_id)}, {fee_line(line)}, {drop(other)}: "
        f"expected $0.00, found {dollars(amount)}"
    ) in verify_fails()


def test_a_fee_larger_than_its_line(floor, tamper):
    tampering = attacked("fee amount differs", tamper)
    _, txn, payer, expected, found = next(
        f for f in tampering.finds if f[0] == "fee line disagrees with its transaction" and f[3] < 0
    )
    line = FeeLine.objects.get(transaction_id=txn)
    assert (
        f"DIFFERENCE fee line disagrees with its transaction: transaction {txn}, "
        f"{round_(line.round_id)}, {fee_line(line)}, {chips(payer)}: "
        f"expected {dollars(expected)}, found {dollars(found)}"
    ) in verify_fails()


def test_a_voided_rounds_return_never_posted(floor, tamper):
    tampering = attacked("void return missing", tamper)
    _, round_id, account_id, expected, found = next(
        f
        for f in tampering.finds
        if f[0] == "void returns differ from the bets and the bank" and f[3] > 0
    )
    assert (
        f"DIFFERENCE void returns differ from the bets and the bank: {round_(round_id)}, "
        f"{chips(account_id)}: expected {dollars(expected)}, found {dollars(found)}"
    ) in verify_fails()


def test_a_voided_rounds_fee_given_back_short(floor, tamper):
    tampering = attacked("fee reversal partial", tamper)
    _, txn, account_id, expected, found = next(
        f for f in tampering.finds if f[0] == "reversal does not undo its original" and f[3] > 0
    )
    round_id = LedgerTransaction.objects.get(pk=txn).round_id
    assert (
        f"DIFFERENCE reversal does not undo its original: transaction {txn}, {round_(round_id)}, "
        f"{chips(account_id)}: expected {dollars(expected)}, found {dollars(found)}"
    ) in verify_fails()


def test_a_voided_rounds_fee_never_given_back(floor, tamper):
    tampering = attacked("fee reversal missing", tamper)
    ((_, line_id, account_id, _, amount),) = tampering.finds
    line = FeeLine.objects.get(pk=line_id)
    assert verify_fails() == [
        f"DIFFERENCE voided round kept a fee: {round_(line.round_id)}, {fee_line(line)}, "
        f"{chips(account_id)}: expected $0.00, found {dollars(amount)}"
    ]


# --- Past the legs: the six of issue 24, word for word ------------------------------------------


def cage_slip(slip: CageSlip) -> str:
    kind = {"buy_in": "buy-in", "cash_out": "cash-out"}[slip.kind]
    return (
        f"cage slip {slip.pk} ({kind} of {dollars(slip.amount_cents)}, {slip.player} at "
        f"{slip.table})"
    )


def test_a_buy_in_raised_on_both_legs(floor, tamper):
    tampering = attacked("buy-in raised on both legs", tamper)
    txn = next(iter(tampering.finds))[1]
    slip = CageSlip.objects.select_related("player", "table").get(transaction_id=txn)
    cage = Account.objects.get(kind="cage").pk
    amount = slip.amount_cents
    where = f"transaction {txn}, {cage_slip(slip)}"
    assert sorted(verify_fails()) == sorted(
        [
            f"DIFFERENCE chip movement differs from its cage slip: {where}, "
            f"account {cage} (the cage): "
            f"expected {dollars(-amount)}, found {dollars(-amount - 50_000)}",
            f"DIFFERENCE chip movement differs from its cage slip: {where}, "
            f"{chips(slip.account_id)}: "
            f"expected {dollars(amount)}, found {dollars(amount + 50_000)}",
        ]
    )


def test_a_buy_in_credited_to_another_patrons_chips(floor, tamper):
    tampering = attacked("buy-in to another patron", tamper)
    txn = next(iter(tampering.finds))[1]
    slip = CageSlip.objects.select_related("player", "table").get(transaction_id=txn)
    other = next(f[2] for f in tampering.finds if f[3] == 0)
    where = f"transaction {txn}, {cage_slip(slip)}"
    assert sorted(verify_fails()) == sorted(
        [
            f"DIFFERENCE chip movement differs from its cage slip: {where}, "
            f"{chips(slip.account_id)}: expected {dollars(slip.amount_cents)}, found $0.00",
            f"DIFFERENCE chip movement differs from its cage slip: {where}, "
            f"{chips(other)}: expected $0.00, found {dollars(slip.amount_cents)}",
        ]
    )


def test_a_cash_outs_currency_flag_cleared(floor, tamper):
    tampering = attacked("cash-out currency cleared", tamper)
    ((_, txn, account_id, _, _),) = tampering.finds
    slip = CageSlip.objects.select_related("player", "table").get(transaction_id=txn)
    assert verify_fails() == [
        "DIFFERENCE chip movement's currency differs from its cage slip: "
        f"transaction {txn}, {cage_slip(slip)}, {chips(account_id)}: "
        "expected currency changed hands, found no currency"
    ]


def test_a_hands_result_flipped_from_win_to_lose(floor, tamper):
    won = Hand.objects.filter(round__state=State.SETTLED, result=HandResultChoice.WIN)
    hand = won.order_by("id").first()  # the attack's first pick
    attacked("result flipped", tamper)
    assert Hand.objects.get(pk=hand.pk).result == HandResultChoice.LOSE
    assert verify_fails() == [
        f"DIFFERENCE hand differs from the cards: {round_(hand.round_id)}, "
        f"seat {hand.seat}'s result: expected beats the player-dealer, "
        "found loses to the player-dealer"
    ]


def test_a_settled_rounds_board_replaced(floor, tamper):
    tampering = attacked("board replaced", tamper)
    ((_, round_id, _, board, replaced),) = tampering.finds
    assert Round.objects.get(pk=round_id).board == replaced.split()
    assert verify_fails() == [
        f"DIFFERENCE settled round's cards are not its deck's: {round_(round_id)}, the board: "
        f"expected {board}, found {replaced}"
    ]


def test_a_payout_raised_with_its_line_entries_bank_return_and_net_moved(floor, tamper):
    tampering = attacked("payout raised with everything moved", tamper)
    line_id = next(f[1] for f in tampering.finds if f[0] == recomputation.LINE_AMOUNT)
    line = SettlementLine.objects.select_related("bet", "round__bank").get(pk=line_id)
    net = line.round.bank.net_cents
    assert sorted(verify_fails()) == sorted(
        [
            "DIFFERENCE settlement line's amount differs from the hand played again: "
            f"{round_(line.round_id)}, {settlement_line(line)}, {chips(line.bet.account_id)}, "
            f"paid: expected {dollars(line.paid_cents - 5_000)}, "
            f"found {dollars(line.paid_cents)}",
            "DIFFERENCE bank's result differs from the hand played again: "
            f"{round_(line.round_id)}, the bank's net: expected {dollars(net + 5_000)}, "
            f"found {dollars(net)}",
        ]
    )
    # Every leg check passes: only playing the hand again finds it.
    assert {d.check for d in differences(checks())} == {
        recomputation.LINE_AMOUNT,
        recomputation.BANK,
    }


# --- Any single attack, anywhere on the floor ------------------------------------------------


class _Undo(Exception):
    pass


# 40: each example tampers with one row of the floor and runs every check of verify_ledger
# over it (a second or more an example); enough for every attack at several rows.
@pytest.mark.slow
@settings(
    max_examples=40,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(attack=st.sampled_from(sorted(ATTACKS)), index=st.integers(min_value=0, max_value=60))
def test_any_single_attack_anywhere_is_found(floor, attack, index):
    tampering = ATTACKS[attack](index)
    with pytest.raises(_Undo), transaction.atomic():  # the attack is rolled back after
        tampering.apply(lambda sql, params, *undo: raw(sql, params))
        assert tampering.finds
        assert reported() == tampering.finds
        raise _Undo
    assert reported() == set()
