"""A round's money, table-driven: hands played through the services with entered cards.

Every expected line and chip change below is worked out by hand from docs/rules.md §6-§7
(comments give the player-dealer's running net N). Each case asserts the stored
settlement lines, the bank's result, every bettor's chips, the ledger transactions of each
line, that the ledger verifies, and that the stored lines are, line for line, what the
settlement calculator answers for the same hand in the appendix format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pytest

from cardroom.errors import RuleError, State, StateError
from rounds import services as rounds
from tests.builders.floor import (
    FOLD,
    PLAY_3X,
    PLAY_4X,
    PLAY_FLOP,
    PLAY_RIVER,
    Cards,
    advance,
    give_button,
)
from tests.builders.money import (
    MoneyTable,
    Wager,
    all_balances,
    calculator_lines,
    money_table,
    place,
    play_round,
    replay_coverage,
    stored_lines,
    verified,
)
from wagers.models import (
    AccountKind,
    Bet,
    LedgerTransaction,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)
from wagers.services.chips import chip_account
from wagers.services.ledger import round_accounts

BOARD = ["2c", "7d", "9h", "Jc", "Ks"]  # no flush possible; T-Q makes a straight
HEARTS_BOARD = ["2h", "7h", "9h", "Jc", "Ks"]
CHIPS = 100_000


def line(pass_, seat, bettor, wager, stake, outcome, paid=0, collected=0, returned=0, unpaid=0,
         rounded_off="0"):  # fmt: skip
    return (
        pass_,
        seat,
        bettor,
        wager,
        stake,
        outcome,
        paid,
        collected,
        returned,
        unpaid,
        Decimal(rounded_off),
    )


def show(*args, **kwargs):
    return line("showdown", *args, **kwargs)


def fold(*args, **kwargs):
    return line("fold", *args, **kwargs)


@dataclass(frozen=True)
class Case:
    id: str
    pd_seat: int
    bank: int
    seats: tuple[int, ...]
    wagers: tuple[Wager, ...]
    decisions: dict[int, int]
    cards: Cards
    lines: list[tuple]
    net: int
    exhausted: bool
    changes: dict[str, int]  # "seat N" / "backline I" -> chips won (+) or lost (-)
    backliners: int = 0
    options: dict[str, Any] = field(default_factory=dict)


CASES = [
    Case(
        id="losing-seat-collected-up-to-W-rest-returned",
        pd_seat=1,
        bank=2_000,
        seats=(1, 2, 3),
        wagers=(Wager(2, 500), Wager(3, 500)),
        decisions={2: PLAY_4X, 3: PLAY_4X},
        cards=Cards(["As", "Ad"], {2: ["3d", "4h"], 3: ["3s", "5c"]}, BOARD),
        lines=[
            show(2, "seat", "ante", 500, "lose", collected=500),  # N 500
            show(2, "seat", "play", 2_000, "lose", collected=1_500, returned=500),  # N 2000 = W
            show(2, "seat", "blind", 500, "lose", returned=500),
            show(3, "seat", "ante", 500, "lose", returned=500),
            show(3, "seat", "play", 2_000, "lose", returned=2_000),
            show(3, "seat", "blind", 500, "lose", returned=500),
        ],
        net=2_000,
        exhausted=False,  # only a payment exhausts the bank
        changes={"seat 1": 2_000, "seat 2": -2_000, "seat 3": 0},
    ),
    Case(
        id="payouts-exhaust-the-bank-later-wagers-get-no-action",
        pd_seat=1,
        bank=1_000,
        seats=(1, 2, 3),
        wagers=(Wager(2, 500, trips=500), Wager(3, 500, bad_beat=500)),
        decisions={2: PLAY_4X, 3: PLAY_RIVER},
        cards=Cards(["As", "Ad"], {2: ["Kd", "Kh"], 3: ["3d", "4h"]}, BOARD),
        lines=[
            show(2, "seat", "ante", 500, "win", paid=500),  # N -500
            show(2, "seat", "play", 2_000, "win", paid=500, unpaid=1_500),  # N -1000: exhausted
            show(2, "seat", "blind", 500, "push"),  # three of a kind: below a straight
            show(2, "seat", "trips", 500, "win", unpaid=1_500),  # 3:1
            show(3, "seat", "ante", 500, "lose", returned=500),
            show(3, "seat", "play", 500, "lose", returned=500),
            show(3, "seat", "blind", 500, "lose", returned=500),
            show(3, "seat", "bad_beat", 500, "lose", returned=500),
        ],
        net=-1_000,
        exhausted=True,
        changes={"seat 1": -1_000, "seat 2": 1_000, "seat 3": 0},
    ),
    Case(
        id="push-returns-the-stake",
        pd_seat=3,
        bank=10_000,
        seats=(3, 4, 5),
        wagers=(Wager(4, 500), Wager(5, 500, trips=500)),
        decisions={4: PLAY_4X, 5: PLAY_3X},
        cards=Cards(["As", "Ad"], {4: ["Ah", "Ac"], 5: ["Kd", "Kh"]}, BOARD),
        lines=[
            show(4, "seat", "ante", 500, "push"),  # A-A-K-J-9 both: a tie
            show(4, "seat", "play", 2_000, "push"),
            show(4, "seat", "blind", 500, "push"),
            show(5, "seat", "ante", 500, "win", paid=500),
            show(5, "seat", "play", 1_500, "win", paid=1_500),
            show(5, "seat", "blind", 500, "push"),
            show(5, "seat", "trips", 500, "win", paid=1_500),
        ],
        net=-3_500,
        exhausted=False,
        changes={"seat 3": -3_500, "seat 4": 0, "seat 5": 3_500},
    ),
    Case(
        id="dealer-does-not-qualify-only-the-ante-pushes",
        pd_seat=2,
        bank=10_000,
        seats=(2, 3, 4),
        wagers=(Wager(3, 1_000), Wager(4, 500)),
        decisions={3: PLAY_4X, 4: PLAY_FLOP},
        cards=Cards(["3c", "4c"], {3: ["Qh", "Qs"], 4: ["Tc", "Qd"]}, BOARD),
        lines=[
            show(3, "seat", "ante", 1_000, "push"),
            show(3, "seat", "play", 4_000, "win", paid=4_000),
            show(3, "seat", "blind", 1_000, "push"),
            show(4, "seat", "ante", 500, "push"),
            show(4, "seat", "play", 1_000, "win", paid=1_000),
            show(4, "seat", "blind", 500, "win", paid=500),  # straight 1:1
        ],
        net=-5_500,
        exhausted=False,
        changes={"seat 2": -5_500, "seat 3": 4_000, "seat 4": 1_500},
    ),
    Case(
        id="rulebook-worked-example",
        pd_seat=6,
        bank=10_000,
        seats=(1, 2, 6),
        wagers=(Wager(1, 2_500), Wager(2, 2_500, trips=1_000)),
        decisions={1: FOLD, 2: PLAY_4X},
        cards=Cards(["Kd", "Qc"], {1: ["3c", "3d"], 2: ["Ah", "4h"]}, HEARTS_BOARD),
        lines=[
            fold(1, "seat", "ante", 2_500, "lose", collected=2_500),  # N 2500
            fold(1, "seat", "blind", 2_500, "lose", collected=2_500),  # N 5000
            show(2, "seat", "ante", 2_500, "win", paid=2_500),  # N 2500
            show(2, "seat", "play", 10_000, "win", paid=10_000),  # N -7500
            show(2, "seat", "blind", 2_500, "win", paid=2_500, unpaid=1_250),  # 3:2, N -10000
            show(2, "seat", "trips", 1_000, "win", unpaid=7_000),  # flush 7:1
        ],
        net=-10_000,
        exhausted=True,
        changes={"seat 6": -10_000, "seat 1": -5_000, "seat 2": 15_000},
        options={"chip_unit_cents": 1, "minimum_cents": 100},
    ),
    Case(
        id="fold-pass-first-and-capped-folded-trips-paid-at-showdown",
        pd_seat=5,
        bank=1_000,
        seats=(1, 2, 5, 6),
        wagers=(
            Wager(6, 500),
            Wager(1, 500, trips=500, bad_beat=500),
            Wager(2, 500, trips=500),
        ),
        decisions={6: PLAY_4X, 1: FOLD, 2: FOLD},
        cards=Cards(["As", "Ad"], {6: ["Kd", "Kh"], 1: ["7h", "7s"], 2: ["3d", "4h"]}, BOARD),
        lines=[
            fold(1, "seat", "ante", 500, "lose", collected=500),  # N 500
            fold(1, "seat", "blind", 500, "lose", collected=500),  # N 1000 = W
            fold(1, "seat", "bad_beat", 500, "lose", returned=500),  # folded: Bad Beat loses
            fold(2, "seat", "ante", 500, "lose", returned=500),
            fold(2, "seat", "blind", 500, "lose", returned=500),
            fold(2, "seat", "trips", 500, "lose", returned=500),  # high card: Trips loses
            show(6, "seat", "ante", 500, "win", paid=500),  # N 500
            show(6, "seat", "play", 2_000, "win", paid=1_500, unpaid=500),  # N -1000: exhausted
            show(6, "seat", "blind", 500, "push"),
            show(1, "seat", "trips", 500, "win", unpaid=1_500),  # folded three 7s still win
        ],
        net=-1_000,
        exhausted=True,
        changes={"seat 5": -1_000, "seat 6": 2_000, "seat 1": -1_000, "seat 2": 0},
    ),
    Case(
        id="bad-beat-pays-on-the-losing-players-hand",
        pd_seat=1,
        bank=10_000,
        seats=(1, 2),
        wagers=(Wager(2, 500, trips=500, bad_beat=500),),
        decisions={2: PLAY_4X},
        cards=Cards(["Kd", "Kh"], {2: ["9d", "9s"]}, BOARD),
        lines=[
            show(2, "seat", "ante", 500, "lose", collected=500),
            show(2, "seat", "play", 2_000, "lose", collected=2_000),
            show(2, "seat", "blind", 500, "lose", collected=500),  # N 3000
            show(2, "seat", "trips", 500, "win", paid=1_500),  # 3:1, N 1500
            show(2, "seat", "bad_beat", 500, "win", paid=4_500),  # option-1 3K 9:1, N -3000
        ],
        net=-3_000,
        exhausted=False,
        changes={"seat 1": -3_000, "seat 2": 3_000},
    ),
    Case(
        id="blind-3-to-2-rounded-down-to-the-chip",
        pd_seat=1,
        bank=100_000,
        seats=(1, 2),
        wagers=(Wager(2, 500),),
        decisions={2: PLAY_4X},
        cards=Cards(["Kd", "Qc"], {2: ["Ah", "4h"]}, HEARTS_BOARD),
        lines=[
            show(2, "seat", "ante", 500, "win", paid=500),
            show(2, "seat", "play", 2_000, "win", paid=2_000),
            show(2, "seat", "blind", 500, "win", paid=700, rounded_off="50"),  # 750 -> 700
        ],
        net=-3_200,
        exhausted=False,
        changes={"seat 1": -3_200, "seat 2": 3_200},
    ),
    Case(
        id="backline-bettors-settled-after-their-seat",
        pd_seat=1,
        bank=50_000,
        seats=(1, 2, 3),
        backliners=3,
        wagers=(
            Wager(2, 500, trips=500),
            Wager(2, 1_000, behind=0),
            Wager(2, 0, trips=500, behind=1),  # Trips only behind seat 2
            Wager(3, 500),
            Wager(3, 500, behind=2),
        ),
        decisions={2: PLAY_4X, 3: PLAY_RIVER},
        cards=Cards(["As", "Ad"], {2: ["Kd", "Kh"], 3: ["3d", "4h"]}, BOARD),
        lines=[
            show(2, "seat", "ante", 500, "win", paid=500),
            show(2, "seat", "play", 2_000, "win", paid=2_000),
            show(2, "seat", "blind", 500, "push"),
            show(2, "seat", "trips", 500, "win", paid=1_500),
            show(2, "backline-1", "ante", 1_000, "win", paid=1_000),
            show(2, "backline-1", "play", 4_000, "win", paid=4_000),  # 4x its own Ante
            show(2, "backline-1", "blind", 1_000, "push"),
            show(2, "backline-2", "trips", 500, "win", paid=1_500),
            show(3, "seat", "ante", 500, "lose", collected=500),
            show(3, "seat", "play", 500, "lose", collected=500),
            show(3, "seat", "blind", 500, "lose", collected=500),
            show(3, "backline-1", "ante", 500, "lose", collected=500),
            show(3, "backline-1", "play", 500, "lose", collected=500),  # 1x its own Ante
            show(3, "backline-1", "blind", 500, "lose", collected=500),
        ],
        net=-7_500,
        exhausted=False,
        changes={
            "seat 1": -7_500,
            "seat 2": 4_000,
            "backline 0": 5_000,
            "backline 1": 1_500,
            "seat 3": -1_500,
            "backline 2": -1_500,
        },
    ),
]


def _table_for(case: Case, staff) -> MoneyTable:
    return money_table(
        staff,
        dict.fromkeys(case.seats, CHIPS),
        backliners=[CHIPS] * case.backliners,
        **case.options,
    )


def _chips_by_key(mt: MoneyTable) -> dict[str, int]:
    found = {f"seat {seat}": mt.chips(player) for seat, player in mt.seated.items()}
    found.update({f"backline {i}": mt.chips(p) for i, p in enumerate(mt.backliners)})
    return found


def _play(case: Case, mt: MoneyTable, until=State.SETTLED):
    return play_round(
        mt,
        pd_seat=case.pd_seat,
        bank=case.bank,
        wagers=case.wagers,
        decisions=case.decisions,
        cards=case.cards,
        until=until,
    )


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_settled_round_money(staff, case: Case):
    mt = _table_for(case, staff)
    before = _chips_by_key(mt)

    round_ = _play(case, mt)

    assert round_.state == State.SETTLED
    stored = stored_lines(round_)
    # Lines in settlement order 1..n, the fold pass entirely before the showdown pass.
    assert [entry[0] for entry in stored] == list(range(1, len(stored) + 1))
    passes = [entry[1] for entry in stored]
    assert passes == sorted(passes, key=lambda p: p != "fold")
    assert [entry[1:] for entry in stored] == case.lines

    bank = PlayerDealerBank.objects.get(round=round_)
    assert (bank.amount_cents, bank.net_cents, bank.exhausted) == (
        case.bank,
        case.net,
        case.exhausted,
    )
    lines = list(SettlementLine.objects.filter(round=round_).order_by("order"))
    assert replay_coverage(lines, case.bank) == (case.net, case.exhausted)

    after = _chips_by_key(mt)
    assert {key: after[key] - before[key] for key in case.changes} == case.changes
    assert sum(after.values()) == sum(before.values())  # no fees yet: chips only change hands

    # Each line is one balanced ledger transaction paying the bettor's own account.
    wagers_account, bank_account = round_accounts(round_)
    for stored_line in SettlementLine.objects.filter(round=round_).select_related("bet"):
        entries = {e.account_id: e.amount_cents for e in stored_line.transaction.entries.all()}
        assert stored_line.transaction.kind == TransactionKind.SETTLEMENT
        assert stored_line.transaction.round_id == round_.pk
        assert sum(entries.values()) == 0
        assert entries.get(wagers_account.pk) == -stored_line.stake_cents
        back = stored_line.stake_cents - stored_line.collected_cents + stored_line.paid_cents
        assert entries.get(stored_line.bet.account_id, 0) == back
        assert entries.get(bank_account.pk, 0) == (
            stored_line.collected_cents - stored_line.paid_cents
        )
    # The bank comes back with its result; an exhausted bank has nothing to return.
    returned = LedgerTransaction.objects.filter(round=round_, kind=TransactionKind.BANK_RETURNED)
    pd_account = chip_account(mt.seated[case.pd_seat], mt.table)
    if case.bank + case.net:
        (bank_return,) = returned
        assert {e.account_id: e.amount_cents for e in bank_return.entries.all()} == {
            bank_account.pk: -(case.bank + case.net),
            pd_account.pk: case.bank + case.net,
        }
    else:
        assert not returned.exists()
    wagers_account.refresh_from_db()
    bank_account.refresh_from_db()
    assert (wagers_account.balance_cents, bank_account.balance_cents) == (0, 0)
    assert verified() == []

    # The settlement calculator, given the same hand, answers the same lines.
    assert calculator_lines(round_) == stored
    assert round_.dealer_qualifies is (case.cards.player_dealer != ["3c", "4c"])


@pytest.mark.django_db
def test_backline_bettor_pays_its_own_play_at_the_seats_decision(staff):
    case = next(c for c in CASES if c.id.startswith("backline"))
    mt = _table_for(case, staff)
    before = _chips_by_key(mt)

    round_ = _play(case, mt, until=State.FLOP)  # the pre-flop decisions are made

    after = _chips_by_key(mt)
    spent = {key: before[key] - after[key] for key in before}
    assert spent["seat 2"] == 500 + 500 + 500 + 2_000  # Ante, Blind, Trips, Play 4x
    assert spent["backline 0"] == 1_000 + 1_000 + 4_000  # its own Ante, Blind and 4x Play
    assert spent["backline 1"] == 500  # Trips only: no Play
    assert spent["seat 3"] == 1_000  # checked: no Play yet
    assert spent["backline 2"] == 1_000
    assert spent["seat 1"] == case.bank
    bets = {
        (bet.hand.seat, bet.bettor): bet.play_cents
        for bet in Bet.objects.filter(hand__round=round_).select_related("hand")
    }
    assert bets == {(2, 0): 2_000, (2, 1): 4_000, (2, 2): 0, (3, 0): 0, (3, 1): 0}
    wagers_account, _ = round_accounts(round_)
    wagers_account.refresh_from_db()
    assert wagers_account.balance_cents == sum(spent.values()) - case.bank
    assert verified() == []

    round_ = advance(
        round_, State.SETTLED, by=mt.staff.dealer, plans=case.decisions, cards=case.cards
    )
    bettors = [(entry[2], entry[3]) for entry in stored_lines(round_)]
    # Each seat's own wagers, then its backline bettors in the order they stand.
    assert (
        bettors
        == [(2, "seat")] * 4
        + [(2, "backline-1")] * 3
        + [(2, "backline-2")]
        + [(3, "seat")] * 3
        + [(3, "backline-1")] * 3
    )


VOID_STATES = [
    State.WAGERING,
    State.NO_MORE_BETS,
    State.PREFLOP,
    State.FLOP,
    State.RIVER,
    State.SHOWDOWN,
]


@pytest.mark.django_db
@pytest.mark.parametrize("state", VOID_STATES, ids=[s.value for s in VOID_STATES])
def test_void_returns_every_wager_and_the_bank(staff, state):
    case = next(c for c in CASES if c.id.startswith("backline"))
    mt = _table_for(case, staff)
    balances = all_balances()

    round_ = _play(case, mt, until=state)
    if state is not State.WAGERING:
        assert all_balances() != balances  # chips really are in play
    voided = rounds.void_round(round_id=round_.pk, by=staff.dealer, reason="misdeal")

    assert voided.state == State.VOIDED
    now = all_balances()
    assert {pk: now[pk] for pk in balances} == balances  # every account back where it was
    assert {pk: amount for pk, amount in now.items() if pk not in balances} == {
        account: 0 for account in now if account not in balances
    }
    returns = LedgerTransaction.objects.filter(round=round_, kind=TransactionKind.VOID_RETURN)
    bets = list(Bet.objects.filter(hand__round=round_))
    assert returns.count() == len([bet for bet in bets if bet.total]) + 1  # + the bank
    assert not SettlementLine.objects.filter(round=round_).exists()
    bank = PlayerDealerBank.objects.get(round=round_)
    assert (bank.net_cents, bank.exhausted) == (None, None)
    assert verified() == []

    with pytest.raises(StateError):
        rounds.settle(round_id=round_.pk, by=staff.dealer)
    with pytest.raises(StateError):
        rounds.void_round(round_id=round_.pk, by=staff.dealer, reason="again")
    assert all_balances() == now


@pytest.mark.django_db
def test_void_before_the_bank_is_posted_returns_the_wagers(staff):
    mt = money_table(staff, {1: CHIPS, 2: CHIPS})
    balances = all_balances()
    give_button(mt.table.pk, 1, by=mt.staff.dealer)
    round_ = rounds.start_round(table_id=mt.table.pk, by=staff.dealer)
    place(mt, round_, [Wager(2, 500, trips=500)])
    rounds.void_round(round_id=round_.pk, by=staff.dealer, reason="misdeal")

    now = all_balances()
    assert {pk: now[pk] for pk in balances} == balances
    assert verified() == []


@pytest.mark.django_db
def test_a_settled_round_is_not_settled_or_voided_again(staff):
    case = CASES[0]
    mt = _table_for(case, staff)
    round_ = _play(case, mt)
    balances = all_balances()
    lines = stored_lines(round_)

    with pytest.raises(StateError):
        rounds.settle(round_id=round_.pk, by=staff.dealer)
    with pytest.raises(StateError):
        rounds.void_round(round_id=round_.pk, by=staff.dealer, reason="too late")

    assert all_balances() == balances
    assert stored_lines(round_) == lines


@pytest.mark.django_db
def test_the_bank_comes_from_the_player_dealers_chips_and_at_most_them(staff):
    mt = money_table(staff, {1: 3_000, 2: CHIPS})
    give_button(mt.table.pk, 1, by=mt.staff.dealer)
    round_ = rounds.start_round(table_id=mt.table.pk, by=staff.dealer)
    balances = all_balances()
    with pytest.raises(RuleError):
        rounds.post_bank(round_id=round_.pk, amount=3_100, by=staff.dealer)
    assert all_balances() == balances
    assert not PlayerDealerBank.objects.filter(round=round_).exists()

    rounds.post_bank(round_id=round_.pk, amount=3_000, by=staff.dealer)
    account = chip_account(mt.seated[1], mt.table)
    account.refresh_from_db()
    assert account.balance_cents == 0
    _, bank_account = round_accounts(round_)
    bank_account.refresh_from_db()
    assert bank_account.balance_cents == 3_000
    assert bank_account.kind == AccountKind.ROUND_BANK
    assert verified() == []
