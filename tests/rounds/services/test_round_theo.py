"""A hand's theo stored at "no more bets" (docs/rules.md §13.5), through the services.

- ``close_wagering`` stores one ``RoundTheo`` per round: the sum of each wager times its
  edge over every bettor on the layout (seated and backline; Ante, Trips, Bad Beat) with the
  round's frozen options, table-driven over the same layouts and tables as the rules tests;
- the options are the round's, frozen when it started, not the table's later ones;
- one INSERT more and no read: the statements of ``close_wagering`` are pinned;
- nothing is stored before "no more bets" or when it is refused; a void keeps the row;
- on PostgreSQL the row is history: UPDATE and DELETE are refused by the database.

Expected figures come from the game-math core (its counts are provisional), never written.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from cardroom.errors import State, StateError
from rounds import services as rounds
from tables.options import game_options
from tables.services import floor
from tests.builders.fees import table_schedule
from tests.builders.money import Wager, money_table, play_round
from tests.builders.rules import expected_theo, four_places
from wagers.models import RoundTheo
from wagers.rules.gamemath import game_math, theo_of
from wagers.rules.wagers import Stakes

pytestmark = pytest.mark.django_db

CHIPS = 1_000_000
TABLES = {
    "UTH-01 with option-1, 3x or 4x": {},
    "UTH-03 with option-2, 4x only": {
        "trips_paytable": "UTH-03",
        "bad_beat_paytable": "option-2",
        "preflop_multiples": [4],
    },
    "UTH-02 without Bad Beat": {"trips_paytable": "UTH-02", "bad_beat_paytable": None},
}
# Seat 1 banks; seats 2 to 4 play; ``behind`` is a backline bettor (two stand by).
LAYOUTS = {
    "one seat, Ante and Blind": [Wager(2, 1_000)],
    "one seat with Trips": [Wager(2, 1_000, trips=500)],
    "one seat with Trips and Bad Beat": [Wager(2, 2_500, trips=500, bad_beat=500)],
    "a seat and a backline bettor": [Wager(2, 1_000), Wager(2, 500, trips=500, behind=0)],
    "three seats, two backline bettors, every side wager": [
        Wager(2, 500, trips=500, bad_beat=500),
        Wager(3, 2_500, trips=1_000),
        Wager(4, 10_000, trips=2_500, bad_beat=2_500),
        Wager(2, 1_000, trips=500, behind=0),  # backline: no Bad Beat (§4.7)
        Wager(3, 500, behind=1),
    ],
}
CASES = [
    (table, layout)
    for table, options in TABLES.items()
    for layout, wagers in LAYOUTS.items()
    if options.get("bad_beat_paytable", "") is not None or not any(w.bad_beat for w in wagers)
]


def twelve_places(edge: Fraction) -> Decimal:
    return Decimal(round(edge * 10**12)).scaleb(-12)  # half-even, exactly


def stakes(wagers: list[Wager]) -> list[Stakes]:
    return [Stakes(ante=w.ante, blind=w.ante, trips=w.trips, bad_beat=w.bad_beat) for w in wagers]


def table_with(staff, **options):
    return money_table(
        staff,
        {1: CHIPS, 2: CHIPS, 3: CHIPS, 4: CHIPS},
        backliners=(CHIPS, CHIPS),
        **options,
    )


@pytest.mark.parametrize(("table", "layout"), CASES)
def test_no_more_bets_stores_the_theo_of_every_wager_on_the_layout(staff, clock, table, layout):
    mt = table_with(staff, **TABLES[table])
    wagers = LAYOUTS[layout]
    round_ = play_round(mt, pd_seat=1, bank=200_000, wagers=wagers, until=State.NO_MORE_BETS)
    options = game_options(round_.options)
    theo, spread = expected_theo(stakes(wagers), options)
    math = game_math(options)
    row = RoundTheo.objects.get(round=round_)
    assert row.theo_cents == four_places(theo)
    assert abs(row.std_dev_cents - four_places(spread)) <= Decimal("0.0001")
    assert row.std_dev_cents == four_places(theo_of(stakes(wagers), math).std_dev)
    assert (row.ante_cents, row.trips_cents, row.bad_beat_cents) == (
        sum(w.ante for w in wagers),
        sum(w.trips for w in wagers),
        sum(w.bad_beat for w in wagers),
    )
    assert row.base_game_edge == twelve_places(math.base_game.house_edge)
    assert row.trips_edge == twelve_places(math.trips.house_edge)
    if math.bad_beat is None:
        assert row.bad_beat_edge is None
    else:
        assert row.bad_beat_edge == twelve_places(math.bad_beat.house_edge)
    assert row.recorded_at == clock.now()
    assert round_.transitions.get(to_state=State.NO_MORE_BETS).at == row.recorded_at


def test_the_theo_is_the_rounds_frozen_options_not_the_tables_later_ones(staff, clock):
    mt = table_with(staff)
    wagers = [Wager(2, 1_000, trips=500, bad_beat=500)]
    round_ = play_round(mt, pd_seat=1, bank=100_000, wagers=wagers, until=State.WAGERING)
    # Between hands only: the change waits for the round; the round keeps its snapshot.
    frozen = game_options(round_.options)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    floor.change_table_options(
        table_id=mt.table.pk,
        changes={"trips_paytable": "UTH-04", "bad_beat_paytable": "option-2"},
        by=staff.supervisor,
    )
    clock.advance(minutes=1)
    later = play_round(mt, pd_seat=1, bank=100_000, wagers=wagers, until=State.NO_MORE_BETS)
    first, second = (RoundTheo.objects.get(round=r) for r in (round_, later))
    assert first.theo_cents == four_places(expected_theo(stakes(wagers), frozen)[0])
    assert second.theo_cents == four_places(
        expected_theo(stakes(wagers), game_options(later.options))[0]
    )
    assert first.trips_edge != second.trips_edge  # the two pay tables differ


@pytest.mark.parametrize("with_fees", [False, True], ids=["no fee schedule", "fees assessed"])
def test_close_wagering_adds_one_insert_and_no_read(staff, clock, with_fees):
    """The statements of "no more bets", pinned. On PostgreSQL 5 without a fee schedule (the
    savepoint; the table lock, which reads the round and its wagers in the same statement,
    tables.services.locks.lock_round_reading; the theo; the transition and the round's state
    in one statement; the release) and 7 with one (+ the fee postings in one statement and
    the fee lines; a table's second hand: the first makes the drop account). On SQLite each
    read is its own ORM query: 12 and 16. One INSERT of the theo, whatever the bettors."""
    mt = table_with(staff)
    if with_fees:
        table_schedule(mt.table, by=staff.supervisor)
        clock.advance(seconds=1)
    counts = []
    layouts = (LAYOUTS["one seat, Ante and Blind"], LAYOUTS[CASES[4][1]])
    # The table's first hand (banked by seat 4) makes its drop: not counted.
    for dealer, wagers in zip((4, 1, 1), (layouts[0], *layouts), strict=True):
        round_ = play_round(mt, pd_seat=dealer, bank=200_000, wagers=wagers, until=State.WAGERING)
        with CaptureQueriesContext(connection) as closed:
            rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
        theo = [q["sql"] for q in closed.captured_queries if "wagers_roundtheo" in q["sql"]]
        assert len(theo) == 1 and theo[0].startswith('INSERT INTO "wagers_roundtheo"')
        counts.append(len(closed))
        rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
        clock.advance(minutes=1)
    expected = ([7, 7] if with_fees else [5, 5]) if connection.vendor == "postgresql" else None
    assert counts[1:] == (expected or ([16, 16] if with_fees else [12, 12]))


def test_nothing_is_stored_before_no_more_bets_or_when_it_is_refused(staff, clock):
    mt = table_with(staff)
    round_ = play_round(mt, pd_seat=1, bank=100_000, wagers=[], until=State.WAGERING)
    with pytest.raises(StateError, match="no seat has wagered"):
        rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    assert not RoundTheo.objects.filter(round=round_).exists()
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="nobody played")
    assert not RoundTheo.objects.exists()


def test_a_void_keeps_the_theo_and_the_hand_stays_out_of_the_comparison(staff, clock):
    from wagers.selectors import bankroll

    mt = table_with(staff)
    round_ = play_round(
        mt, pd_seat=1, bank=100_000, wagers=[Wager(2, 1_000)], until=State.NO_MORE_BETS
    )
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    assert RoundTheo.objects.filter(round=round_).exists()
    theo = bankroll(mt.seated[1]).theo
    assert (theo.hands, theo.theo, theo.actual) == (0, 0, 0)  # never settled: no actual


RESTRICT_VIOLATION = "23001"


@pytest.mark.requires_postgres
def test_the_stored_theo_is_history_the_database_refuses_edits(staff, clock):
    mt = table_with(staff)
    round_ = play_round(
        mt, pd_seat=1, bank=100_000, wagers=[Wager(2, 1_000)], until=State.NO_MORE_BETS
    )
    row = RoundTheo.objects.get(round=round_)
    edits = {
        "update": lambda: RoundTheo.objects.filter(pk=row.pk).update(
            theo_cents=F("theo_cents") + 100
        ),
        "delete": lambda: RoundTheo.objects.filter(pk=row.pk).delete(),
        "raw update": lambda: _raw(
            "UPDATE wagers_roundtheo SET std_dev_cents = 0 WHERE id = %s", row
        ),
        "raw delete": lambda: _raw("DELETE FROM wagers_roundtheo WHERE id = %s", row),
    }
    for what, edit in edits.items():
        with pytest.raises(IntegrityError) as refused, transaction.atomic():
            edit()
        assert refused.value.__cause__.sqlstate == RESTRICT_VIOLATION, what
        assert "cannot be changed" in str(refused.value), what
    assert RoundTheo.objects.get(pk=row.pk).theo_cents == row.theo_cents
    # The round goes on and settles: its theo row is left as it was.
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    assert RoundTheo.objects.get(pk=row.pk).std_dev_cents == row.std_dev_cents


def _raw(sql: str, row: RoundTheo) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, [row.pk])
