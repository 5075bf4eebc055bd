"""Waitlist rules (docs/rules.md §3.6): table-driven rows for each event, and a Hypothesis
state machine over random joins, check-ins, calls, answers, pass-overs, lapses, removals
and seatings on two lists."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from cardroom.errors import Rule, RuleError, State, StateError
from tables.rules.waitlist import (
    Event,
    Kind,
    PassOver,
    Policy,
    Waitlist,
    apply,
    due,
    first_eligible,
    replay,
    seated_everywhere,
)

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
POLICY = Policy()
TO_BOTTOM = Policy(pass_over=PassOver.TO_BOTTOM)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def joined(player: int, minute: float = 0, *, phone: bool = False) -> Event:
    return Event(Kind.JOINED, player, at(minute), by_phone=phone)


def called(player: int, minute: float, seat: int = 3, *, skipped=(), table: int = 1) -> Event:
    return Event(Kind.CALLED, player, at(minute), table=table, seat=seat, skipped=tuple(skipped))


def event(kind: Kind, player: int, minute: float) -> Event:
    return Event(kind, player, at(minute))


# --- Allowed: what the list is after the events -----------------------------------------------

ALLOWED = [
    # (events, policy, players in order afterwards, who is being called)
    ([joined(1), joined(2, 1)], POLICY, [1, 2], []),
    ([joined(1), joined(2, 1), called(1, 2)], POLICY, [1, 2], [1]),
    ([joined(1), joined(2, 1), called(1, 2), event(Kind.SEATED, 1, 3)], POLICY, [2], []),
    # a miss: keeps their place (default), or goes to the bottom
    ([joined(1), joined(2), called(1, 2), event(Kind.PASSED_OVER, 1, 5)], POLICY, [1, 2], []),
    ([joined(1), joined(2), called(1, 2), event(Kind.PASSED_OVER, 1, 5)], TO_BOTTOM, [2, 1], []),
    ([joined(1), joined(2), called(1, 2), event(Kind.DECLINED, 1, 2.5)], TO_BOTTOM, [2, 1], []),
    # passed over for this seat, the next one is called, skipping the first
    (
        [
            joined(1),
            joined(2),
            called(1, 2),
            event(Kind.PASSED_OVER, 1, 5),
            called(2, 5, skipped=[1]),
        ],
        POLICY,
        [1, 2],
        [2],
    ),
    # two seats, two calls at once
    ([joined(1), joined(2), called(1, 2, seat=3), called(2, 2, seat=5)], POLICY, [1, 2], [1, 2]),
    # a call-in is skipped (keeps the place) until checked in
    ([joined(1, phone=True), joined(2, 1), called(2, 2)], POLICY, [1, 2], [2]),
    (
        [joined(1, phone=True), event(Kind.CHECKED_IN, 1, 29), called(1, 40)],
        POLICY,
        [1],
        [1],
    ),
    ([joined(1, phone=True), event(Kind.LAPSED, 1, 30)], POLICY, [], []),
    ([joined(1), joined(2), event(Kind.REMOVED, 1, 1)], POLICY, [2], []),
    # seated elsewhere: off this list too, called or not
    ([joined(1), joined(2), event(Kind.SEATED, 2, 1)], POLICY, [1], []),
    # a call withdrawn (the seat closed): the place kept, no miss counted, callable again
    ([joined(1), joined(2), called(1, 2), event(Kind.WITHDRAWN, 1, 3)], TO_BOTTOM, [1, 2], []),
    (
        [joined(1), joined(2), called(1, 2), event(Kind.WITHDRAWN, 1, 3), called(1, 4, seat=5)],
        POLICY,
        [1, 2],
        [1],
    ),
    # back on the list after leaving it: at the bottom
    ([joined(1), joined(2), event(Kind.REMOVED, 1, 1), joined(1, 2)], POLICY, [2, 1], []),
]


@pytest.mark.parametrize(("events", "policy", "order", "calling"), ALLOWED)
def test_allowed(events, policy, order, calling):
    waitlist = replay(events, policy)
    assert list(waitlist.players) == order
    assert [e.player for e in waitlist.entries if e.call] == calling
    assert [waitlist.position(p) for p in order] == list(range(1, len(order) + 1))


# --- Refused: the error, and the list unchanged -----------------------------------------------

REFUSED = [
    # (events before, the refused event, the error, its rule or state)
    ([joined(1)], joined(1, 1), RuleError, Rule.WAITLIST_ONCE),
    ([joined(1), joined(2)], called(2, 1), RuleError, Rule.WAITLIST_ORDER),  # 1 is first
    ([joined(1), joined(2)], called(2, 1, skipped=[3]), RuleError, Rule.WAITLIST_ORDER),
    ([joined(1), joined(2)], called(1, 1, skipped=[2]), RuleError, Rule.WAITLIST_ORDER),
    ([joined(1), called(1, 1)], called(1, 2, seat=4), StateError, State.CALLED),
    ([joined(1), joined(2), called(1, 1)], called(2, 1), StateError, State.CALLED),  # same seat
    ([joined(1), called(1, 1)], event(Kind.PASSED_OVER, 1, 3.5), RuleError, Rule.WAITLIST_CALL),
    ([joined(1)], event(Kind.PASSED_OVER, 1, 9), StateError, State.WAITING),
    ([joined(1)], event(Kind.DECLINED, 1, 9), StateError, State.WAITING),
    ([joined(1)], event(Kind.WITHDRAWN, 1, 9), StateError, State.WAITING),
    ([joined(1)], event(Kind.WITHDRAWN, 2, 9), StateError, State.NOT_LISTED),
    ([joined(1)], event(Kind.SEATED, 2, 1), StateError, State.NOT_LISTED),
    ([joined(1)], event(Kind.REMOVED, 2, 1), StateError, State.NOT_LISTED),
    ([joined(1, phone=True)], called(1, 1), RuleError, Rule.WAITLIST_ORDER),  # not in the room
    ([joined(1, phone=True)], event(Kind.LAPSED, 1, 29), RuleError, Rule.WAITLIST_CALL_IN),
    ([joined(1)], event(Kind.LAPSED, 1, 99), RuleError, Rule.WAITLIST_CALL_IN),
    ([joined(1, phone=True)], event(Kind.CHECKED_IN, 1, 30), RuleError, Rule.WAITLIST_CALL_IN),
    ([joined(1)], event(Kind.CHECKED_IN, 1, 1), StateError, State.WAITING),
    ([joined(1, 5)], joined(2, 4), RuleError, Rule.WAITLIST_ORDER),  # out of time order
    ([joined(1)], Event(Kind.CALLED, 1, at(1)), RuleError, Rule.WAITLIST_ORDER),  # no seat
]


@pytest.mark.parametrize(("before", "refused", "error", "reason"), REFUSED)
def test_refused(before, refused, error, reason):
    waitlist = replay(before, POLICY)
    with pytest.raises(error) as raised:
        apply(waitlist, refused, POLICY)
    got = raised.value.rule if error is RuleError else raised.value.state
    assert got == reason
    assert replay(before, POLICY) == waitlist  # nothing changed


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"response": timedelta(seconds=59)}, "response"),
        ({"call_in": timedelta(0)}, "call_in"),
        ({"response": timedelta(minutes=-3)}, "response"),
    ],
)
def test_timers_are_at_least_a_minute(changes, field):
    with pytest.raises(RuleError) as raised:
        Policy(**changes)
    assert (raised.value.rule, raised.value.field) == (Rule.WAITLIST_POLICY, field)


def test_the_clock_passes_over_and_lapses_at_the_deadlines():
    waitlist = replay([joined(1), joined(2, 1, phone=True), called(1, 2)], POLICY)
    assert due(waitlist, at(4.9), POLICY) == []
    assert due(waitlist, at(31), POLICY) == [
        Event(Kind.PASSED_OVER, 1, at(5)),
        Event(Kind.LAPSED, 2, at(31)),
    ]
    for deadline in due(waitlist, at(31), POLICY):
        waitlist = apply(waitlist, deadline, POLICY)
    assert waitlist.players == (1,)


def test_a_player_seated_leaves_every_list():
    lists = {
        "uth-5-500": replay([joined(1), joined(2)], POLICY),
        "uth-25-1000": replay([joined(2), joined(3)], POLICY),
        "uth-100-5000": replay([joined(3)], POLICY),
    }
    events = seated_everywhere(lists, 2, at(5), table=4, seat=1)
    assert set(events) == {"uth-5-500", "uth-25-1000"}
    after = {key: apply(lists[key], e, POLICY) for key, e in events.items()}
    assert after["uth-5-500"].players == (1,) and after["uth-25-1000"].players == (3,)


def test_first_eligible_skips_call_ins_calls_and_the_skipped():
    waitlist = replay(
        [joined(1, phone=True), joined(2), joined(3), joined(4), called(2, 1)], POLICY
    )
    assert first_eligible(waitlist).player == 3
    assert first_eligible(waitlist, skip=[3]).player == 4
    assert first_eligible(waitlist, skip=[3, 4]) is None


# --- The state machine ------------------------------------------------------------------------

PLAYERS = st.integers(min_value=1, max_value=8)
LISTS = ("a", "b")


class Floor(RuleBasedStateMachine):
    """Two lists, random events tried at random; refused events must change nothing. The
    model checks the order of every call, that nobody is seated from a list twice, and that
    each list always equals the replay of its recorded events."""

    def __init__(self) -> None:
        super().__init__()
        self.policy = POLICY
        self.now = T0
        self.lists = {key: Waitlist() for key in LISTS}
        self.events: dict[str, list[Event]] = {key: [] for key in LISTS}
        self.seated: set[int] = set()
        self.next_seat = 1

    def record(self, key: str, event: Event) -> bool:
        before = self.lists[key]
        try:
            after = apply(before, event, self.policy)
        except (RuleError, StateError):
            assert self.lists[key] == before
            return False
        self.lists[key] = after
        self.events[key].append(event)
        return True

    def tick(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)
        for key in LISTS:
            for deadline in due(self.lists[key], self.now, self.policy):
                assert self.record(key, deadline)

    @rule(
        key=st.sampled_from(LISTS),
        player=PLAYERS,
        phone=st.booleans(),
        minutes=st.floats(0, 2),
    )
    def join(self, key, player, phone, minutes):
        self.tick(minutes)
        listed = self.lists[key].entry(player) is not None
        assert self.record(key, Event(Kind.JOINED, player, self.now, by_phone=phone)) != listed

    @rule(key=st.sampled_from(LISTS), player=PLAYERS)
    def check_in(self, key, player):
        self.record(key, Event(Kind.CHECKED_IN, player, self.now))

    @rule(key=st.sampled_from(LISTS), minutes=st.floats(0, 4))
    def seat_opens_and_is_called(self, key, minutes):
        self.tick(minutes)
        seat = self.next_seat
        self.next_seat += 1
        # Skipped: players seated, or called on another list.
        elsewhere = {e.player for k in LISTS if k != key for e in self.lists[k].entries if e.call}
        skip = (self.seated | elsewhere) & set(self.lists[key].players)
        first = first_eligible(self.lists[key], skip=skip)
        if first is None:
            return
        ahead = self.lists[key].players[: self.lists[key].position(first.player) - 1]
        skipped = tuple(p for p in ahead if p in skip)
        # Anyone else is refused: nobody is called out of order.
        for other in self.lists[key].players:
            if other != first.player:
                wrong = Event(Kind.CALLED, other, self.now, table=1, seat=seat, skipped=skipped)
                assert not self.record(key, wrong)
        assert self.record(
            key, Event(Kind.CALLED, first.player, self.now, table=1, seat=seat, skipped=skipped)
        )

    @rule(key=st.sampled_from(LISTS), index=st.integers(0, 7), accept=st.booleans())
    def answer(self, key, index, accept):
        calls = [e for e in self.lists[key].entries if e.call]
        if not calls:
            return
        entry = calls[index % len(calls)]
        if not accept:
            assert self.record(key, Event(Kind.DECLINED, entry.player, self.now))
            return
        assert entry.player not in self.seated
        assert self.record(
            key, Event(Kind.SEATED, entry.player, self.now, table=1, seat=entry.call.seat)
        )
        self.seated.add(entry.player)
        for other, seated in seated_everywhere(
            {k: self.lists[k] for k in LISTS if k != key}, entry.player, self.now, table=1,
            seat=entry.call.seat,
        ).items():  # fmt: skip
            assert self.record(other, seated)

    @rule(key=st.sampled_from(LISTS), player=PLAYERS)
    def remove(self, key, player):
        self.record(key, Event(Kind.REMOVED, player, self.now))

    @precondition(lambda self: self.seated)
    @rule(data=st.data())
    def leave_the_table(self, data):
        self.seated.discard(data.draw(st.sampled_from(sorted(self.seated))))

    @rule(minutes=st.floats(0, 40))
    def time_passes(self, minutes):
        self.tick(minutes)

    @invariant()
    def each_list_is_the_replay_of_its_events(self):
        for key in LISTS:
            assert replay(self.events[key], self.policy) == self.lists[key]

    @invariant()
    def nobody_twice_on_a_list_and_nobody_seated_is_listed(self):
        for key in LISTS:
            players = self.lists[key].players
            assert len(players) == len(set(players))

    @invariant()
    def every_call_went_to_the_first_eligible(self):
        # Replayed step by step: each CALLED event named the first eligible player after
        # the players it skipped (apply refuses anything else; checked again here).
        for key in LISTS:
            waitlist = Waitlist()
            for e in self.events[key]:
                if e.kind == Kind.CALLED:
                    assert first_eligible(waitlist, skip=e.skipped).player == e.player
                waitlist = apply(waitlist, e, self.policy)


# 60 sessions of up to 30 steps: pure rules (no database), a few milliseconds a session.
Floor.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
TestWaitlistStateMachine = Floor.TestCase
