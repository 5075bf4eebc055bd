"""A player-dealer's books (``wagers.selectors``) on a small scripted history, checked by hand.

One table (chip 1.00, minimum 5.00, UTH-01 Trips), the clock stepped a minute at a time:

- t0  seat 1: a TPPP, filled 200,000; seats 2 (patron P) and 3 (patron Q) buy in 100,000.
- t1  round 1, the TPPP banks W = 50,000 (seat 1). Board 2c 7d 9h Jc Ks, bank A-A.
      P (1,000 Ante, 4x) has high card: loses 1,000 + 4,000 + 1,000 = 6,000.
      Q (500 Ante, 4x) has K-K-K: Ante +500, Play +2,000, Blind push.      TPPP net +3,500.
- t2  round 2, P banks W = 1,000 (seat 2). Bank A-A; Q (500, 4x, Trips 500, Bad Beat 500)
      has K-K-K: Ante pays 500 (N -500); Play pays 500 of 2,000, 1,500 unpaid (N -1,000:
      exhausted); Blind push; Trips 3:1 = 1,500 all unpaid; Bad Beat (the dealer's pair)
      loses, returned 500.                                           P net -1,000, exhausted.
- t3  round 3, Q declines, the TPPP banks W = 2,000. P folds (fold pass: 500 + 500 collected,
      N 1,000); Q (500, 4x, Trips 500) has a straight: Ante 500 (N 500), Play 2,000
      (N -1,500), Blind 1:1 500 (N -2,000: exhausted), Trips 4:1 = 2,000 unpaid.
                                                                  TPPP net -2,000, exhausted.
- t4  the TPPP's credit of 100,000; t5 P cashes out 50,000; t6 P leaves;
  t7  P sits down again; t8 P buys in 20,000.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from tables.services import floor
from tests.builders.floor import FOLD, PLAY_4X, Cards
from tests.builders.money import MoneyTable, Wager, money_table, play_round
from wagers import selectors
from wagers.services import chips

BOARD = ["2c", "7d", "9h", "Jc", "Ks"]


class History:
    def __init__(self, mt: MoneyTable, moments: dict[str, datetime]) -> None:
        self.mt = mt
        self.moments = moments
        self.tppp = mt.seated[1]
        self.patron = mt.seated[2]
        self.other = mt.seated[3]


@pytest.fixture
def history(staff, clock) -> History:
    mt = money_table(staff, {1: 200_000, 2: 100_000, 3: 100_000}, tppp_seats=[1])
    moments = {"t0": clock.moment}
    by = staff.dealer

    moments["t1"] = clock.advance(minutes=1)
    play_round(
        mt,
        pd_seat=1,
        bank=50_000,
        wagers=[Wager(2, 1_000), Wager(3, 500)],
        decisions={2: PLAY_4X, 3: PLAY_4X},
        cards=Cards(["As", "Ad"], {2: ["3d", "4h"], 3: ["Kd", "Kh"]}, BOARD),
    )
    moments["t2"] = clock.advance(minutes=1)
    play_round(
        mt,
        pd_seat=2,
        bank=1_000,
        wagers=[Wager(3, 500, trips=500, bad_beat=500)],
        decisions={3: PLAY_4X},
        cards=Cards(["As", "Ad"], {3: ["Kd", "Kh"]}, BOARD),
    )
    moments["t3"] = clock.advance(minutes=1)
    play_round(
        mt,
        pd_seat=1,
        bank=2_000,
        wagers=[Wager(2, 500), Wager(3, 500, trips=500)],
        decisions={2: FOLD, 3: PLAY_4X},
        cards=Cards(["As", "Ad"], {2: ["3d", "4h"], 3: ["Tc", "Qd"]}, BOARD),
    )
    moments["t4"] = clock.advance(minutes=1)
    chips.credit(table_id=mt.table.pk, player_id=mt.seated[1].pk, amount=100_000, by=by)
    moments["t5"] = clock.advance(minutes=1)
    chips.cash_out(
        table_id=mt.table.pk, player_id=mt.seated[2].pk, amount=50_000, currency=True, by=by
    )
    moments["t6"] = clock.advance(minutes=1)
    floor.unseat_player(table_id=mt.table.pk, seat=2, by=staff.supervisor)
    moments["t7"] = clock.advance(minutes=1)
    floor.seat_player(table_id=mt.table.pk, seat=2, player_id=mt.seated[2].pk, by=staff.supervisor)
    moments["t8"] = clock.advance(minutes=1)
    chips.buy_in(
        table_id=mt.table.pk, player_id=mt.seated[2].pk, amount=20_000, currency=True, by=by
    )
    return History(mt, moments)


TPPP_BANKING = {
    "hands_banked": 2,
    "total_result": 3_500 - 2_000,
    "largest_exposure": 50_000,
    "returned_uncovered": 0,
    "unpaid_uncovered": 2_000,
}
PATRON_BANKING = {
    "hands_banked": 1,
    "total_result": -1_000,
    "largest_exposure": 1_000,
    "returned_uncovered": 500,
    "unpaid_uncovered": 1_500 + 1_500,
}
NO_BANKING = {
    "hands_banked": 0,
    "total_result": 0,
    "largest_exposure": 0,
    "returned_uncovered": 0,
    "unpaid_uncovered": 0,
}


def movements(**given: int) -> dict[str, int]:
    return {"fills": 0, "credits": 0, "buy_ins": 0, "cash_outs": 0, "fees": 0, **given}


@pytest.mark.django_db
def test_the_history_is_as_scripted(history):
    mt = history.mt
    assert mt.chips(history.tppp) == 200_000 + 3_500 - 2_000 - 100_000
    assert mt.chips(history.patron) == 100_000 - 6_000 - 1_000 - 1_000 - 50_000 + 20_000
    assert mt.chips(history.other) == 100_000 + 2_500 + 1_000 + 3_000


@pytest.mark.django_db
def test_bankroll_of_a_tppp(history):
    book = selectors.bankroll(history.tppp)

    assert book.is_tppp is True
    assert book.balance == 101_500
    assert book.movements == movements(fills=200_000, credits=100_000)
    assert book.banking == TPPP_BANKING


@pytest.mark.django_db
def test_bankroll_of_a_patron(history):
    book = selectors.bankroll(history.patron)

    assert book.is_tppp is False
    assert book.balance == 62_000
    assert book.movements == movements(buy_ins=120_000, cash_outs=50_000)
    assert book.banking == PATRON_BANKING
    assert selectors.bankroll(history.other).banking == NO_BANKING


@pytest.mark.django_db
def test_banks_newest_first_with_uncovered_amounts(history):
    rows = [
        (
            bank.round.number,
            bank.amount_cents,
            bank.net_cents,
            bank.exhausted,
            bank.returned_uncovered,
            bank.unpaid_uncovered,
        )
        for bank in selectors.banks(history.tppp)
    ]
    assert rows == [(3, 2_000, -2_000, True, 0, 2_000), (1, 50_000, 3_500, False, 0, 0)]
    (patron_bank,) = selectors.banks(history.patron)
    assert (patron_bank.round.number, patron_bank.net_cents, patron_bank.exhausted) == (
        2,
        -1_000,
        True,
    )
    assert (patron_bank.returned_uncovered, patron_bank.unpaid_uncovered) == (500, 3_000)
    assert list(selectors.banks(history.other)) == []


@pytest.mark.django_db
def test_sessions_of_a_tppp(history):
    (session,) = selectors.sessions(history.tppp)

    assert session.seating.seat == 1
    assert session.seating.left_at is None
    assert session.movements == movements(fills=200_000, credits=100_000)
    assert session.banking == TPPP_BANKING


@pytest.mark.django_db
def test_sessions_of_a_patron_who_left_and_came_back(history):
    first, second = selectors.sessions(history.patron)
    t = history.moments

    assert (first.seating.sat_at, first.seating.left_at) == (t["t0"], t["t6"])
    assert first.movements == movements(buy_ins=100_000, cash_outs=50_000)
    assert first.banking == PATRON_BANKING
    assert (second.seating.sat_at, second.seating.left_at) == (t["t7"], None)
    assert second.movements == movements(buy_ins=20_000)
    assert second.banking == NO_BANKING


@pytest.mark.django_db
def test_playing_book_of_a_tppp(history):
    t, name = history.moments, history.mt.table.name
    header = (
        "posted_at,table,round,seat,bank_cents,result_cents,bank_exhausted,"
        "returned_uncovered_cents,unpaid_uncovered_cents"
    )
    round_1 = f"{t['t1'].isoformat()},{name},1,1,50000,3500,false,0,0"
    round_3 = f"{t['t3'].isoformat()},{name},3,1,2000,-2000,true,0,2000"

    # RFC 4180 rows (cardroom/csvsafe.py): each ends with CR LF.
    assert selectors.playing_book_csv(history.tppp) == f"{header}\r\n{round_1}\r\n{round_3}\r\n"
    assert selectors.playing_book_csv(history.tppp, since=t["t2"]) == f"{header}\r\n{round_3}\r\n"
    assert selectors.playing_book_csv(history.tppp, until=t["t3"]) == f"{header}\r\n{round_1}\r\n"
    assert selectors.playing_book_csv(history.tppp, since=t["t4"]) == f"{header}\r\n"


@pytest.mark.django_db
def test_playing_book_of_a_patron(history):
    t, name = history.moments, history.mt.table.name
    assert selectors.playing_book_csv(history.patron).splitlines()[1:] == [
        f"{t['t2'].isoformat()},{name},2,2,1000,-1000,true,500,3000"
    ]
    assert selectors.playing_book_csv(history.other).splitlines()[1:] == []


@pytest.mark.django_db
def test_a_bankroll_costs_five_queries_whatever_the_history(history, django_assert_num_queries):
    # the TPPP registration, the chips held now, the movements, the banks' figures (one
    # query for the banks, one for their rounds' settlement lines)
    for player in (history.tppp, history.other):
        player.refresh_from_db()
        with django_assert_num_queries(5):
            selectors.bankroll(player)


@pytest.mark.django_db
def test_the_banks_list_is_one_query(history, django_assert_num_queries):
    with django_assert_num_queries(1):
        listed = list(selectors.banks(history.tppp))
    assert [bank.amount_cents for bank in listed] == [2_000, 50_000]


@pytest.mark.django_db
def test_sessions_cost_three_queries_a_session(history, django_assert_num_queries):
    """One query for the seatings, then per session: its banks, their uncovered amounts,
    its chip movements (a player's sessions are few a day; this is pinned, not hidden)."""
    with django_assert_num_queries(1 + 3 * 2):
        assert len(selectors.sessions(history.patron)) == 2
    with django_assert_num_queries(1 + 3 * 1):
        assert len(selectors.sessions(history.tppp)) == 1
