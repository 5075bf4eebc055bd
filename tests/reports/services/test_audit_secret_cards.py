"""The audit export of a gaming day still open shows no hole card of a hand in play, nor of a
hand voided before its showdown (docs/rules.md §2.6); a settled hand's cards are exported.
The Python path and PostgreSQL's COPY path apply the same rule and give the same bytes."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import date

import pytest

from cardroom.errors import State
from reports import audit, writers
from reports.parameters import normalise, period_of
from rounds import services as rounds
from tables.models import Round
from tests.builders.floor import PLAY_RIVER, Cards
from tests.builders.money import Wager, money_table, play_round
from tests.reports.helpers import read_csv

pytestmark = pytest.mark.django_db

DAY = "2026-11-20"  # the clock fixture's gaming day
BOARD = ["2h", "7h", "9h", "Jd", "3c"]
# round number: (player-dealer seat, the state it is left in, void it there?, cards)
HANDS = {
    1: (1, State.SETTLED, False, Cards(["Kc", "Kd"], {2: ["4s", "5d"], 3: ["Ah", "Qh"]}, BOARD)),
    2: (2, State.FLOP, True, Cards(["Tc", "Td"], {1: ["6s", "6d"], 3: ["8c", "8s"]}, BOARD)),
    3: (3, State.SHOWDOWN, True, Cards(["Qc", "Qd"], {1: ["5s", "4d"], 2: ["As", "Ks"]}, BOARD)),
    4: (4, State.FLOP, False, Cards(["Jc", "Js"], {1: ["Ac", "Ad"], 2: ["Tc", "Ts"]}, BOARD)),
}
# What the export shows: the cards of hands that reached the showdown, nothing else.
ROUNDS = [
    ("1", "settled", "Kc Kd", "2h 7h 9h Jd 3c"),
    ("2", "voided", "", "2h 7h 9h"),  # voided at the flop: never shown
    ("3", "voided", "Qc Qd", "2h 7h 9h Jd 3c"),  # voided at the showdown: shown there
    ("4", "flop", "", "2h 7h 9h"),  # in play
]
HAND_ROWS = [
    ("1", "2", "4s 5d"),
    ("1", "3", "Ah Qh"),
    ("2", "1", ""),
    ("2", "3", ""),
    ("3", "1", "5s 4d"),
    ("3", "2", "As Ks"),
    ("4", "1", ""),
    ("4", "2", ""),
]


@pytest.fixture
def open_day(db, clock, staff):
    mt = money_table(staff, dict.fromkeys((1, 2, 3, 4), 100_000), minimum_cents=100)
    for number, (pd_seat, state, void, cards) in HANDS.items():
        clock.advance(minutes=3)
        seats = sorted(cards.hands)
        round_ = play_round(
            mt,
            pd_seat=pd_seat,
            bank=10_000,
            wagers=[Wager(seat, 1_000) for seat in seats],
            decisions=dict.fromkeys(seats, PLAY_RIVER),
            cards=cards,
            until=state,
        )
        assert round_.number == number
        if void:
            rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="card exposed")
    assert Round.objects.get(number=4).state == State.FLOP  # still in play
    return mt


def written(*, by_copy: bool) -> bytes:
    parameters = normalise("audit", {"gaming_day": DAY}, formats=("csv",), today=date(2100, 1, 1))
    document = audit.build(period_of(parameters), is_open=True)
    if not by_copy:
        document = replace(document, sections=(replace(s, copy=None) for s in document.sections))
    out = io.BytesIO()
    writers.write_csv(document, out)
    return out.getvalue()


def assert_no_secret_exported(data: bytes) -> None:
    _, sections = read_csv(data)
    assert [
        (r["round"], r["state"], r["dealer_hole"], r["board"]) for r in sections["Rounds"]
    ] == ROUNDS
    assert [(r["round"], r["seat"], r["hole"]) for r in sections["Hands"]] == HAND_ROWS


def test_the_python_path_exports_only_the_cards_shown(open_day):
    assert_no_secret_exported(written(by_copy=False))


@pytest.mark.requires_postgres
def test_the_copy_path_exports_only_the_cards_shown_byte_for_byte_the_python_path(open_day):
    by_copy = written(by_copy=True)
    assert_no_secret_exported(by_copy)
    assert written(by_copy=False) == by_copy
