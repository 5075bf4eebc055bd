"""Waitlists and seat calls (docs/rules.md §3.6), in plain Python.

A waitlist is kept per game and stakes (a table's limits class). Its state is never stored:
it is the replay of its events, in the order they were recorded, each immutable with who
and when (``replay``), so a report can prove who was called in what order. The services
record the events; these rules say which event may come next and what the list is after it.

- ``JOINED``: at the desk, or by phone. A call-in lapses ``Policy.call_in`` after it joined
  unless the player checks in (``CHECKED_IN``); until then it keeps its place but is not
  called (the player is not in the room).
- ``CALLED``: a seat opened at a matching table; the floor calls the first eligible player
  (``first_eligible``). Those ahead of them who were skipped are named on the event (seated
  at a table of the game, called on another list, or already passed over for this seat).
  The player has ``Policy.response`` to answer.
- ``SEATED``: the player took a seat; they leave the list (and every other list: the
  service records ``SEATED`` on each, ``seated_everywhere``).
- ``DECLINED`` (the player said no) or ``PASSED_OVER`` (no answer before the timer ran
  out): the player keeps their place or goes to the bottom (``Policy.pass_over``).
- ``REMOVED`` (by the floor or at the player's wish) and ``LAPSED`` (a call-in not checked
  in in time) take the player off the list.
- ``WITHDRAWN``: a call ends because the seat is no longer open (``Reason``: the seat was
  filled another way, its table closed or changed its limits, the player whose hold ran out
  came back, or the floor withdrew it): the player keeps their place, and the call is not
  counted against them.
- A list whose stakes no table plays any more after a change of limits moves to the list of
  the new limits: ``REMOVED`` on the old list and ``JOINED`` on the new one, each with the
  reason ``LIST_MOVED`` (``moved_entries`` says who goes, in order).

Refusals: a player once per list (``waitlist.once``); a call only for the first eligible
player, never for a player already called or for a seat already being called
(``waitlist.order``); a pass-over only once the timer has run out (``waitlist.call``); a
lapse only for a call-in past its window (``waitlist.call_in``); timers of at least a
minute (``waitlist.policy``). An event for a player not on the list is refused in state
``not_listed``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum

from cardroom.errors import Rule, RuleError, State, StateError


class Kind(StrEnum):
    JOINED = "joined"
    CHECKED_IN = "checked_in"
    CALLED = "called"
    SEATED = "seated"
    DECLINED = "declined"
    PASSED_OVER = "passed_over"
    REMOVED = "removed"
    LAPSED = "lapsed"
    WITHDRAWN = "withdrawn"


class Reason(StrEnum):
    """Why a call was withdrawn or a player moved between lists (kept on the event)."""

    NONE = ""
    BY_FLOOR = "by_floor"  # the floor withdrew the call
    SEAT_FILLED = "seat_filled"  # someone else sat in the seat (seated directly, or moved)
    TABLE_CLOSED = "table_closed"
    LIMITS_CHANGED = "limits_changed"  # the table now plays other stakes
    PLAYER_RETURNED = "player_returned"  # the player whose hold ran out came back
    LIST_MOVED = "list_moved"  # the list's last table changed limits: its players moved


REASON_WORDS = {
    Reason.NONE: "",
    Reason.BY_FLOOR: "withdrawn by the floor",
    Reason.SEAT_FILLED: "the seat was filled another way",
    Reason.TABLE_CLOSED: "the table closed",
    Reason.LIMITS_CHANGED: "the table changed its limits",
    Reason.PLAYER_RETURNED: "the player whose hold ran out came back",
    Reason.LIST_MOVED: "moved with the list: its last table changed limits",
}


class PassOver(StrEnum):
    """Where a player who missed or declined a call goes."""

    KEEP_PLACE = "keep_place"
    TO_BOTTOM = "to_bottom"


MINIMUM_TIMER = timedelta(minutes=1)


@dataclass(frozen=True)
class Policy:
    """The floor's settings: how long a called player has to answer (3 minutes by default),
    how long a call-in holds its place unchecked (30 minutes), and where a player who
    missed or declined a call goes (keeps their place by default)."""

    response: timedelta = timedelta(minutes=3)
    call_in: timedelta = timedelta(minutes=30)
    pass_over: PassOver = PassOver.KEEP_PLACE

    def __post_init__(self) -> None:
        for name in ("response", "call_in"):
            if getattr(self, name) < MINIMUM_TIMER:
                raise RuleError(
                    f"the {name.replace('_', '-')} timer must be at least a minute",
                    rule=Rule.WAITLIST_POLICY,
                    field=name,
                )
        object.__setattr__(self, "pass_over", PassOver(self.pass_over))


@dataclass(frozen=True)
class Event:
    """One recorded change to a list: what, whose, when (and by whom, kept by the service)."""

    kind: Kind
    player: int
    at: datetime
    by_phone: bool = False  # JOINED
    table: int | None = None  # CALLED, SEATED
    seat: int | None = None  # CALLED, SEATED
    skipped: tuple[int, ...] = ()  # CALLED: the players ahead who were not called
    reason: Reason = Reason.NONE  # WITHDRAWN, and REMOVED/JOINED when a list moves


@dataclass(frozen=True)
class Call:
    table: int
    seat: int
    at: datetime
    answer_by: datetime


@dataclass(frozen=True)
class Entry:
    player: int
    joined_at: datetime
    by_phone: bool = False
    checked_in: bool = False
    call: Call | None = None
    misses: int = 0  # calls missed or declined

    @property
    def in_the_room(self) -> bool:
        return not self.by_phone or self.checked_in

    def lapses_at(self, policy: Policy) -> datetime | None:
        """When an unchecked call-in lapses; None for a player in the room."""
        return None if self.in_the_room else self.joined_at + policy.call_in


@dataclass(frozen=True)
class Waitlist:
    """A list's state: its entries in order, and every call ever made on it, in order."""

    entries: tuple[Entry, ...] = ()
    calls: tuple[tuple[int, int, int], ...] = field(default=())  # (player, table, seat)
    at: datetime | None = None  # the last event's time

    def entry(self, player: int) -> Entry | None:
        return next((e for e in self.entries if e.player == player), None)

    def position(self, player: int) -> int | None:
        """1 for the top of the list; None for a player not on it."""
        for number, entry in enumerate(self.entries, start=1):
            if entry.player == player:
                return number
        return None

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(e.player for e in self.entries)

    def calling(self, table: int, seat: int) -> Entry | None:
        """The player being called for that seat, if any."""
        return next(
            (e for e in self.entries if e.call and (e.call.table, e.call.seat) == (table, seat)),
            None,
        )


@dataclass(frozen=True)
class Names:
    """How a refusal names the players and tables it speaks of: the service passes their
    names (the floor reads "Ann Lee is already on this list"); without a name, by number."""

    players: Mapping[int, str] = field(default_factory=dict)
    tables: Mapping[int, str] = field(default_factory=dict)

    def player(self, player: int) -> str:
        return self.players.get(player) or f"player {player}"

    def table(self, table: int) -> str:
        return self.tables.get(table) or f"table {table}"


BY_NUMBER = Names()


def eligible(waitlist: Waitlist, *, skip: Iterable[int] = ()) -> list[Entry]:
    """The players who may be called, in order: in the room, not being called, not skipped."""
    skipped = set(skip)
    return [
        e for e in waitlist.entries if e.in_the_room and e.call is None and e.player not in skipped
    ]


def first_eligible(waitlist: Waitlist, *, skip: Iterable[int] = ()) -> Entry | None:
    """Who the floor calls for an open seat (``skip``: seated at a table of the game, called
    on another list, or already passed over for this seat)."""
    candidates = eligible(waitlist, skip=skip)
    return candidates[0] if candidates else None


def _refuse(message: str, rule: Rule, field_name: str = "player") -> RuleError:
    return RuleError(message, rule=rule, field=field_name)


def _listed(waitlist: Waitlist, event: Event, names: Names) -> Entry:
    entry = waitlist.entry(event.player)
    if entry is None:
        raise StateError(
            f"{names.player(event.player)} is not on this list", state=State.NOT_LISTED
        )
    return entry


def _without(waitlist: Waitlist, player: int) -> tuple[Entry, ...]:
    return tuple(e for e in waitlist.entries if e.player != player)


def _replaced(waitlist: Waitlist, entry: Entry) -> tuple[Entry, ...]:
    return tuple(entry if e.player == entry.player else e for e in waitlist.entries)


def apply(waitlist: Waitlist, event: Event, policy: Policy, names: Names = BY_NUMBER) -> Waitlist:
    """The list after ``event``, or a refusal (RuleError 400, StateError 409) if the rules
    do not allow it, naming players and tables by ``names``. Events come in time order."""
    if waitlist.at is not None and event.at < waitlist.at:
        raise _refuse("events are recorded in time order", Rule.WAITLIST_ORDER, "at")
    entries = _apply(waitlist, event, policy, names)
    calls = waitlist.calls
    if event.kind == Kind.CALLED:
        calls = (*calls, (event.player, event.table, event.seat))
    return Waitlist(entries=entries, calls=calls, at=event.at)


def _apply(waitlist: Waitlist, event: Event, policy: Policy, names: Names) -> tuple[Entry, ...]:
    kind = Kind(event.kind)
    who = names.player(event.player)
    if kind == Kind.JOINED:
        if waitlist.entry(event.player) is not None:
            raise _refuse(
                f"{who} is already on this list (number {waitlist.position(event.player)})",
                Rule.WAITLIST_ONCE,
            )
        return (*waitlist.entries, Entry(event.player, event.at, by_phone=event.by_phone))

    entry = _listed(waitlist, event, names)
    if kind == Kind.CHECKED_IN:
        if entry.in_the_room:
            raise StateError(f"{who} is already in the room", state=State.WAITING)
        _not_lapsed(entry, event, policy, who)
        return _replaced(waitlist, replace(entry, checked_in=True))
    if kind == Kind.CALLED:
        return _call(waitlist, entry, event, policy, names)
    if kind in (Kind.DECLINED, Kind.PASSED_OVER):
        if entry.call is None:
            raise StateError(f"{who} has not been called", state=State.WAITING)
        if kind == Kind.PASSED_OVER and event.at < entry.call.answer_by:
            raise _refuse(
                f"{who} has until {entry.call.answer_by:%H:%M:%S} to answer",
                Rule.WAITLIST_CALL,
            )
        missed = replace(entry, call=None, misses=entry.misses + 1)
        if policy.pass_over == PassOver.TO_BOTTOM:
            return (*_without(waitlist, entry.player), missed)
        return _replaced(waitlist, missed)
    if kind == Kind.WITHDRAWN:
        if entry.call is None:
            raise StateError(f"{who} has not been called", state=State.WAITING)
        return _replaced(waitlist, replace(entry, call=None))
    if kind == Kind.LAPSED:
        lapses_at = entry.lapses_at(policy)
        if lapses_at is None or event.at < lapses_at:
            raise _refuse(
                f"{who}'s call-in holds their place"
                + (f" until {lapses_at:%H:%M:%S}" if lapses_at else ": they are in the room"),
                Rule.WAITLIST_CALL_IN,
            )
        return _without(waitlist, entry.player)
    # SEATED (at the seat called for, or anywhere: off the list) and REMOVED
    return _without(waitlist, entry.player)


def _not_lapsed(entry: Entry, event: Event, policy: Policy, who: str) -> None:
    lapses_at = entry.lapses_at(policy)
    if lapses_at is not None and event.at >= lapses_at:
        raise _refuse(
            f"{who}'s call-in lapsed at {lapses_at:%H:%M:%S}",
            Rule.WAITLIST_CALL_IN,
        )


def _being_called(message: str) -> StateError:
    return StateError(message, state=State.CALLED, rule=Rule.WAITLIST_ORDER)


def _call(
    waitlist: Waitlist, entry: Entry, event: Event, policy: Policy, names: Names
) -> tuple[Entry, ...]:
    who = names.player(event.player)
    if event.table is None or event.seat is None:
        raise _refuse("a call names the table and the seat", Rule.WAITLIST_ORDER, "seat")
    if entry.call is not None:
        raise _being_called(
            f"{who} is already called ({names.table(entry.call.table)}, seat {entry.call.seat})"
        )
    other = waitlist.calling(event.table, event.seat)
    if other is not None:
        raise _being_called(f"{names.player(other.player)} is already called for that seat")
    ahead = waitlist.players[: waitlist.position(entry.player) - 1]
    unknown = set(event.skipped) - set(ahead)
    if unknown:
        raise _refuse(
            f"only players ahead of {who} can be skipped, not "
            + ", ".join(names.player(p) for p in sorted(unknown)),
            Rule.WAITLIST_ORDER,
            "skipped",
        )
    first = first_eligible(waitlist, skip=event.skipped)
    if first is None or first.player != entry.player:
        raise _refuse(
            f"{names.player(first.player) if first else 'nobody'} is first to be called, not {who}",
            Rule.WAITLIST_ORDER,
        )
    _not_lapsed(entry, event, policy, who)
    call = Call(event.table, event.seat, event.at, event.at + policy.response)
    return _replaced(waitlist, replace(entry, call=call))


def replay(events: Iterable[Event], policy: Policy) -> Waitlist:
    """The list its events make, from the empty list (every refusal raised as it would have
    been when the event was recorded)."""
    waitlist = Waitlist()
    for event in events:
        waitlist = apply(waitlist, event, policy)
    return waitlist


def due(waitlist: Waitlist, now: datetime, policy: Policy) -> list[Event]:
    """The events the clock makes due, in list order: calls not answered in time are
    passed over, call-ins not checked in in time lapse (each at its deadline)."""
    events = []
    for entry in waitlist.entries:
        if entry.call is not None and now >= entry.call.answer_by:
            events.append(Event(Kind.PASSED_OVER, entry.player, entry.call.answer_by))
        lapses_at = entry.lapses_at(policy)
        if lapses_at is not None and now >= lapses_at:
            events.append(Event(Kind.LAPSED, entry.player, lapses_at))
    # At its deadline, or at the list's last event if that came later (time order).
    last = waitlist.at
    return sorted(
        (replace(e, at=max(e.at, last)) if last else e for e in events), key=lambda e: e.at
    )


def seated_everywhere(
    waitlists: Mapping[str, Waitlist], player: int, at: datetime, *, table: int, seat: int
) -> dict[str, Event]:
    """A player took a seat: the ``SEATED`` event for every list they are on."""
    return {
        key: Event(Kind.SEATED, player, at, table=table, seat=seat)
        for key, waitlist in waitlists.items()
        if waitlist.entry(player) is not None
    }


def moved_entries(source: Waitlist, target: Waitlist) -> list[Entry]:
    """A list whose stakes no open table plays any more moves to the list of the new
    limits: its players, in their order, after those already waiting there (a player on
    both lists keeps their place on the new one). A call-in not checked in stays a call-in."""
    return [e for e in source.entries if target.entry(e.player) is None]
