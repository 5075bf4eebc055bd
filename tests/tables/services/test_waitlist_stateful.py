"""Random floor sessions on two lists through the real services (docs/rules.md §3.6).

A ``RuleBasedStateMachine`` joins players (some by phone), checks them in, calls to open
seats, answers (takes or declines), passes over, removes, unseats seated players (a seat
opens) and moves the frozen clock on, with the sweeper run now and then. A RuleError or
StateError is a legal answer: the step then must have recorded nothing. After every step:

- each list, as the selectors show it, equals the replay of all its recorded events from the
  first (no shortcut), and what the services recorded was accepted by the rules in order;
- every call went to the first eligible player: the rules check it on replay, and the
  skipped players named on a call were ahead of the called player;
- nobody is seated from a list twice: a player has at most one open seat and at most one
  ``seated`` event per time they joined a list; nobody who sat down after joining a list is
  still on it (a seated player may join a list, for a table change or other stakes).

Each example runs inside ``transaction.atomic()`` and is rolled back at teardown.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from cardroom.errors import RuleError, StateError
from tables.models import Seating, WaitlistEvent
from tables.selectors import replay_waitlist, waitlist_views
from tables.services import floor, waitlists
from tests.builders.floor import FrozenClock, make_player, make_staff

START = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
STAKES = ((500, 50_000), (2_500, 100_000))
PLAYERS = 6
OUTCOMES: Counter[str] = Counter()


class WaitlistMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.clock = FrozenClock(moment=START)
        self.clock.start()
        self.by = make_staff().supervisor
        self.tables = {}
        self.lists = {}
        for index, (low, high) in enumerate(STAKES):
            stakes = {"minimum_cents": low, "maximum_cents": high}
            table = floor.create_table(name=f"SM-{index}", by=self.by, options=stakes)
            self.tables[index] = table
            self.lists[index] = waitlists.open_waitlist(
                by=self.by, response_minutes=2, call_in_minutes=5, **stakes
            ).pk
        self.players = [make_player() for _ in range(PLAYERS)]
        # Seats 1 to 4 taken by others at each table: 5 and 6 open.
        for table in self.tables.values():
            for seat in range(1, 5):
                floor.seat_player(
                    table_id=table.pk, seat=seat, player_id=make_player().pk, by=self.by
                )
        self.outcomes: Counter[str] = Counter()

    def teardown(self) -> None:
        try:
            transaction.set_rollback(True)
            self._atomic.__exit__(None, None, None)
        finally:
            self.clock.stop()
        OUTCOMES.update(self.outcomes)

    @initialize(first=st.integers(0, PLAYERS - 1))
    def people_waiting(self, first):
        """Three players on each list to begin with (in an order Hypothesis picks)."""
        for index in self.lists:
            for offset in range(3):
                player = self.players[(first + offset + 3 * index) % PLAYERS]
                waitlists.join(waitlist_id=self.lists[index], player_id=player.pk, by=self.by)

    def attempt(self, name: str, action) -> None:
        before = WaitlistEvent.objects.count()
        seatings = Seating.objects.count()
        try:
            with transaction.atomic():
                action()
        except (RuleError, StateError) as error:
            assert WaitlistEvent.objects.count() == before, name
            assert Seating.objects.count() == seatings, name
            self.outcomes[f"{name} refused"] += 1
            self.outcomes[f"{name} {getattr(error, 'state', None) or error.rule}"] += 1
        else:
            self.outcomes[f"{name} done"] += 1

    @rule(
        index=st.integers(0, 1),
        player=st.integers(0, PLAYERS - 1),
        phone=st.sampled_from([False, False, False, True]),
    )
    def join(self, index, player, phone):
        self.attempt(
            "join",
            lambda: waitlists.join(
                waitlist_id=self.lists[index],
                player_id=self.players[player].pk,
                by_phone=phone,
                by=self.by,
            ),
        )

    @rule(index=st.integers(0, 1), player=st.integers(0, PLAYERS - 1))
    def check_in(self, index, player):
        self.attempt(
            "check_in",
            lambda: waitlists.check_in(
                waitlist_id=self.lists[index], player_id=self.players[player].pk, by=self.by
            ),
        )

    @rule(index=st.integers(0, 1), seat=st.sampled_from([4, 5, 6]))
    def call(self, index, seat):
        self.attempt(
            "call",
            lambda: waitlists.call(
                waitlist_id=self.lists[index],
                table_id=self.tables[index].pk,
                seat=seat,
                by=self.by,
            ),
        )

    def called(self, index: int, pick: int) -> int:
        """One of the players called on the list (most often), or any player."""
        (view,) = waitlist_views(ids=[self.lists[index]], seats=False)
        called = [e.player for e in view.now.entries if e.call is not None]
        if called and pick < 3 * len(called):
            return called[pick % len(called)]
        return self.players[pick % PLAYERS].pk

    @rule(index=st.integers(0, 1), pick=st.integers(0, 11), take=st.booleans())
    def answer(self, index, pick, take):
        player = self.called(index, pick)
        self.attempt(
            "answer",
            lambda: waitlists.answer(
                waitlist_id=self.lists[index], player_id=player, take=take, by=self.by
            ),
        )

    @rule(index=st.integers(0, 1), pick=st.integers(0, 11))
    def pass_over(self, index, pick):
        player = self.called(index, pick)
        self.attempt(
            "pass_over",
            lambda: waitlists.pass_over(
                waitlist_id=self.lists[index], player_id=player, by=self.by
            ),
        )

    @rule(index=st.integers(0, 1), pick=st.integers(0, 11))
    def withdraw(self, index, pick):
        player = self.called(index, pick)
        self.attempt(
            "withdraw",
            lambda: waitlists.withdraw(waitlist_id=self.lists[index], player_id=player, by=self.by),
        )

    @rule(index=st.integers(0, 1), player=st.integers(0, PLAYERS - 1))
    def remove(self, index, player):
        self.attempt(
            "remove",
            lambda: waitlists.remove(
                waitlist_id=self.lists[index], player_id=self.players[player].pk, by=self.by
            ),
        )

    @rule(index=st.integers(0, 1), seat=st.integers(1, 6))
    def a_seat_opens(self, index, seat):
        self.attempt(
            "unseat",
            lambda: floor.unseat_player(table_id=self.tables[index].pk, seat=seat, by=self.by),
        )

    @rule(minutes=st.floats(0, 4), sweep=st.booleans())
    def time_passes(self, minutes, sweep):
        self.clock.advance(minutes=minutes)
        if sweep:
            waitlists.sweep()

    @invariant()
    def each_list_is_the_full_replay_of_its_events(self):
        for view in waitlist_views(seats=False):
            events = list(WaitlistEvent.objects.filter(waitlist=view.waitlist).order_by("at", "id"))
            full = replay_waitlist(events, list(view.waitlist.policies.order_by("at", "id")))
            assert view.recorded.entries == full.entries
            for event in events:
                if event.kind == "called":
                    assert event.player_id not in event.skipped

    @invariant()
    def nobody_seated_twice_nor_listed_once_seated(self):
        sat_at = dict(
            Seating.objects.filter(left_at__isnull=True).values_list("player_id", "sat_at")
        )
        open_seats = Counter(
            Seating.objects.filter(left_at__isnull=True).values_list("player_id", flat=True)
        )
        assert all(count == 1 for count in open_seats.values())
        for view in waitlist_views(seats=False):
            joined = Counter()
            seated = Counter()
            for kind, player in WaitlistEvent.objects.filter(waitlist=view.waitlist).values_list(
                "kind", "player_id"
            ):
                if kind == "joined":
                    joined[player] += 1
                elif kind == "seated":
                    seated[player] += 1
            assert all(seated[p] <= joined[p] for p in seated)
            # A seated player may join a list (another table of the stakes, or other
            # stakes); one who sat down after joining has left it.
            for entry in view.now.entries:
                assert entry.player not in sat_at or sat_at[entry.player] <= entry.joined_at


# 40 sessions of up to 30 steps, real services on PostgreSQL; the outcomes asserted after the
# run show the sessions call, seat and refuse. Starts first in a run (slow).
SETTINGS = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.slow
@pytest.mark.django_db
def test_waitlist_sessions_keep_the_order_and_the_record():
    OUTCOMES.clear()
    run_state_machine_as_test(WaitlistMachine, settings=SETTINGS)
    # The sessions really exercised the lists: players were called, seated and refused.
    for outcome in ("call done", "answer done", "join done", "call refused"):
        assert OUTCOMES[outcome] > 0, (outcome, OUTCOMES)
