"""Statements per call of each round service, pinned: a round with collection fees, from the
button's offer to the settlement, through the services the API calls (docs/benchmarks.md,
"The round's hot path"). A change that sends more statements fails here; one that sends
fewer updates the pin. The same figures for one bettor and for five, so nothing is sent per
bettor."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.errors import State
from rounds import services as rounds
from tables.services import button
from tests.builders.fees import table_schedule
from tests.builders.floor import open_floor
from tests.builders.money import Wager, money_table
from wagers.services import wagering

pytestmark = [pytest.mark.django_db, pytest.mark.requires_postgres]  # the pins are PostgreSQL's


def _seated_bets(mt, player_dealer_seat: int) -> list:
    return [
        Wager(seat, 1_000, trips=500).request(mt)
        for seat in sorted(mt.seated)
        if seat != player_dealer_seat
    ]


def play_counted(mt, clock, *, show: bool = False) -> dict[str, int]:
    """One round at ``mt`` (the seat offered accepts, every other seat wagers), the
    statements of each service call counted (the test's own savepoints left out: in service
    the API's transaction is the service's)."""
    clock.advance(seconds=90)
    table_id, by = mt.table.pk, mt.staff.dealer
    counts: dict[str, int] = {}

    def step(name, call, **kwargs):
        with CaptureQueriesContext(connection) as queries:
            answer = call(**kwargs)
        sent = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
        counts[name] = counts.get(name, 0) + len(sent)
        if show:
            print(f"--- {name}: {len(sent)}")
            for sql in sent:
                print("   ", sql[:230])
        return answer

    offer = step("offer", button.offer_button, table_id=table_id, by=by)
    step("answer", button.answer_offer, table_id=table_id, offer_id=offer.pk, accept=True, by=by)
    round_ = step("start_round", rounds.start_round, table_id=table_id, by=by)
    step("post_bank", rounds.post_bank, round_id=round_.pk, amount=100_000, by=by)
    bets = _seated_bets(mt, round_.player_dealer_seat)
    step("place_bets", wagering.place_bets, round_id=round_.pk, bets=bets, by=by)
    step("close_wagering", rounds.close_wagering, round_id=round_.pk, by=by)
    step("deal", rounds.deal, round_id=round_.pk, by=by, rng=random.Random(5))
    live = [bet.seat for bet in bets]
    plays = {"preflop": ("play", 4), "flop": ("play", 2), "river": ("play", 1)}
    streets = [
        ("preflop", rounds.reveal_flop),
        ("flop", rounds.reveal_turn_and_river),
        ("river", rounds.showdown),
    ]
    for street, reveal in streets:
        # The first live seat plays, the others check (on the river: fold).
        rest = ("fold", 0) if street == "river" else ("check", 0)
        decisions = [(seat, *(plays[street] if i == 0 else rest)) for i, seat in enumerate(live)]
        step(
            f"decide {street}", rounds.decide_street, round_id=round_.pk, decisions=decisions, by=by
        )
        live = [seat for seat, action, _ in decisions if action == "check"]
        step(reveal.__name__, reveal, round_id=round_.pk, by=by)
    settled = step("settle", rounds.settle, round_id=round_.pk, by=by)
    assert settled.state == State.SETTLED
    return counts


def fee_table(staff, seats: int):
    """A card-room table with a collection schedule in force, ``seats`` players seated."""
    mt = money_table(staff, {seat: 1_000_000 for seat in range(1, seats + 1)}, deal_mode="rng")
    table_schedule(mt.table, by=staff.supervisor)
    return mt


# Each round service's statements with collection fees, for the second round at a table (the
# first also opens the table's drop account), three bettors or five: the same. The table's
# lock is one statement (an UPDATE bumping its version); "no more bets" posts the fees; each
# decision with a Play posts it. The offer reads whether the seat offered is barred or
# self-restricted (docs/rules.md §3.9), one statement more since 2026-11-27.
PINNED = {
    "offer": 4,
    "answer": 2,
    "start_round": 6,
    "post_bank": 4,
    "place_bets": 4,
    "close_wagering": 5,
    "deal": 3,
    "decide preflop": 4,
    "reveal_flop": 2,
    "decide flop": 4,
    "reveal_turn_and_river": 2,
    "decide river": 4,
    "showdown": 3,
    "settle": 5,
}


@pytest.mark.parametrize("seated", [4, 6])
def test_each_round_service_sends_a_pinned_number_of_statements(staff, clock, seated):
    mt = fee_table(staff, seated)
    play_counted(mt, clock)  # the table's first round
    assert play_counted(mt, clock) == PINNED
    assert sum(PINNED.values()) == 52


# --- EZ Baccarat: the same services, no steps between "no more bets" and the showdown -------


def baccarat_counted(table, staff, clock) -> dict[str, int]:
    """One EZ Baccarat round at ``table`` (seat 1 banks, seats 2 on wager), each service call's
    statements counted as ``play_counted`` counts them."""
    clock.advance(seconds=90)
    table_id, by = table.pk, staff.dealer
    counts: dict[str, int] = {}

    def step(name, call, **kwargs):
        with CaptureQueriesContext(connection) as queries:
            answer = call(**kwargs)
        counts[name] = len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]])
        return answer

    offer = step("offer", button.offer_button, table_id=table_id, by=by)
    step("answer", button.answer_offer, table_id=table_id, offer_id=offer.pk, accept=True, by=by)
    round_ = step("start_round", rounds.start_round, table_id=table_id, by=by)
    step("post_bank", rounds.post_bank, round_id=round_.pk, amount=100_000, by=by)
    bets = [
        wagering.BetRequest(seat, **{("player" if seat % 2 else "banker"): 1_000}, tie=500)
        for seat in range(1, table.seat_count + 1)
        if seat != round_.player_dealer_seat
    ]
    step("place_bets", wagering.place_bets, round_id=round_.pk, bets=bets, by=by)
    step("close_wagering", rounds.close_wagering, round_id=round_.pk, by=by)
    step("showdown", rounds.showdown, round_id=round_.pk, by=by, rng=random.Random(5))
    settled = step("settle", rounds.settle, round_id=round_.pk, by=by)
    assert settled.state == State.SETTLED
    return counts


# The same statements as Ultimate Texas Hold'em's for the steps they share; the showdown deals
# the coup from the table's shoe: the lock, the shoe in use, the shoe moved on, the move.
BACCARAT_PINNED = {
    "offer": 4,
    "answer": 2,
    "start_round": 6,
    "post_bank": 4,
    "place_bets": 4,
    "close_wagering": 5,
    "showdown": 4,
    "settle": 5,
}


@pytest.mark.parametrize("seats", [6, 9])
def test_each_round_service_of_a_baccarat_hand_sends_a_pinned_number_of_statements(
    staff, clock, seats
):
    table = open_floor(
        "P" * seats, staff=staff, game="ez_baccarat", deal_mode="rng", chips=1_000_000
    ).table
    table_schedule(table, by=staff.supervisor)
    baccarat_counted(table, staff, clock)  # the table's first round (the drop, the shoe)
    assert baccarat_counted(table, staff, clock) == BACCARAT_PINNED
