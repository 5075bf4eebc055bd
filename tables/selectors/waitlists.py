"""The waitlists and seat holds (docs/rules.md §3.6): each list as it is now (``ListView``:
its recorded events replayed under the policies in force, what the clock has made due, the seats
it may fill), a list's history, the holds in force, and the open seats by game and stakes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, QuerySet

from cardroom.clock import now
from tables.models import (
    Player,
    SeatHold,
    Seating,
    Table,
    Waitlist,
    WaitlistEvent,
    WaitlistPolicyChange,
)
from tables.rules import waitlist as waitlist_rules
from tables.rules.seats import seat_numbers


def waitlist_policy(row: Waitlist | WaitlistPolicyChange) -> waitlist_rules.Policy:
    """The policy a list row (in force now) or one of its policy changes records."""
    return waitlist_rules.Policy(
        response=timedelta(seconds=row.response_seconds),
        call_in=timedelta(seconds=row.call_in_seconds),
        pass_over=waitlist_rules.PassOver(row.pass_over),
    )


def rule_event(event: WaitlistEvent) -> waitlist_rules.Event:
    return waitlist_rules.Event(
        kind=waitlist_rules.Kind(event.kind),
        player=event.player_id,
        at=event.at,
        by_phone=event.by_phone,
        table=event.table_id,
        seat=event.seat,
        skipped=tuple(event.skipped or ()),
    )


def replay_waitlist(
    events: Sequence[WaitlistEvent], changes: Sequence[WaitlistPolicyChange]
) -> waitlist_rules.Waitlist:
    """What ``events`` make of a list, each applied under the policy in force when it was
    recorded (``changes`` in the order they were made)."""
    state = waitlist_rules.Waitlist()
    policies = [(change.after_event or 0, waitlist_policy(change)) for change in changes]
    index, policy = 0, waitlist_rules.Policy()
    for event in events:
        while index < len(policies) and policies[index][0] < event.pk:
            policy = policies[index][1]
            index += 1
        state = waitlist_rules.apply(state, rule_event(event), policy)
    return state


@dataclass(frozen=True)
class OpenSeat:
    """A seat a list's player may be called to: empty, or held past its time."""

    table: Table
    seat: int
    hold: SeatHold | None = None  # run out: the absent player is picked up first
    called: int | None = None  # the player called for it, if any


@dataclass(frozen=True)
class ListView:
    """A list as it is now: its row and policy, the recorded state, what the clock has made
    due and not yet recorded (``due``), the state with it (``now``), the players, the seats
    it may fill, and who would be called to each."""

    waitlist: Waitlist
    policy: waitlist_rules.Policy
    recorded: waitlist_rules.Waitlist
    due: tuple[waitlist_rules.Event, ...]
    now: waitlist_rules.Waitlist
    players: Mapping[int, Player]
    tables: tuple[Table, ...] = ()
    open_seats: tuple[OpenSeat, ...] = ()
    seated_at_stakes: frozenset[int] = frozenset()

    @property
    def entries(self) -> tuple[waitlist_rules.Entry, ...]:
        return self.now.entries

    def player(self, player_id: int) -> Player:
        return self.players[player_id]


def _list_rows(ids: Sequence[int] | None) -> list[Waitlist]:
    rows = Waitlist.objects.all()
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    return list(rows.order_by("minimum_cents", "maximum_cents", "game", "id"))


def waitlist_views(
    *, ids: Sequence[int] | None = None, moment: datetime | None = None, seats: bool = True
) -> list[ListView]:
    """Every list (or those of ``ids``) as it is at ``moment``: a fixed number of queries
    whatever the number of lists, players and tables (each list replays its events from the
    last time it was empty)."""
    moment = moment or now()
    rows = _list_rows(ids)
    if not rows:
        return []
    events: dict[int, list[WaitlistEvent]] = {row.pk: [] for row in rows}
    changes: dict[int, list[WaitlistPolicyChange]] = {row.pk: [] for row in rows}
    since = Q()
    for row in rows:
        since |= Q(waitlist_id=row.pk, id__gt=row.empty_after_event or 0)
    for event in WaitlistEvent.objects.filter(since).order_by("at", "id"):
        events[event.waitlist_id].append(event)
    for change in WaitlistPolicyChange.objects.filter(waitlist__in=rows).order_by("at", "id"):
        changes[change.waitlist_id].append(change)
    states = {row.pk: replay_waitlist(events[row.pk], changes[row.pk]) for row in rows}
    player_ids = {e.player for state in states.values() for e in state.entries}
    players = Player.objects.in_bulk(player_ids)
    open_seats: dict[Stakes, list[OpenSeat]] = {}
    tables: dict[Stakes, list[Table]] = {}
    seated_at: dict[Stakes, set[int]] = {}
    if seats:
        tables, open_seats, seated_at = _seats_by_stakes(moment)
    views = []
    for row in rows:
        policy = waitlist_policy(row)
        recorded = states[row.pk]
        due = tuple(waitlist_rules.due(recorded, moment, policy))
        current = recorded
        for event in due:
            current = waitlist_rules.apply(current, event, policy)
        stakes = (row.game, row.minimum_cents, row.maximum_cents)
        calls = {(e.call.table, e.call.seat): e.player for e in current.entries if e.call}
        views.append(
            ListView(
                waitlist=row,
                policy=policy,
                recorded=recorded,
                due=due,
                now=current,
                players=players,
                tables=tuple(tables.get(stakes, ())),
                open_seats=tuple(
                    OpenSeat(s.table, s.seat, s.hold, calls.get((s.table.pk, s.seat)))
                    for s in open_seats.get(stakes, ())
                ),
                seated_at_stakes=frozenset(seated_at.get(stakes, ())),
            )
        )
    return views


def waitlist_view(*, waitlist_id: int, moment: datetime | None = None) -> ListView:
    views = waitlist_views(ids=[waitlist_id], moment=moment)
    if not views:
        raise Waitlist.DoesNotExist(f"no waitlist {waitlist_id}")
    return views[0]


# A list's game and stakes, and a table's: (game, minimum, maximum). A list fills only the
# tables of its own game at its limits (docs/rules.md §3.6).
Stakes = tuple[str, int, int]


def stakes_of(table: Table) -> Stakes:
    return (table.game, table.minimum_cents, table.maximum_cents)


def stakes_of_list(row: Waitlist) -> Stakes:
    return (row.game, row.minimum_cents, row.maximum_cents)


def _seats_by_stakes(moment: datetime):
    """Open tables by game and stakes, the seats a list may fill at each, and who sits at
    each game and stakes (three queries)."""
    tables: dict[Stakes, list[Table]] = {}
    for table in Table.objects.filter(closed_at__isnull=True).order_by("name"):
        tables.setdefault(stakes_of(table), []).append(table)
    by_id = {t.pk: t for ts in tables.values() for t in ts}
    taken: dict[int, dict[int, int]] = {}
    seated_at: dict[Stakes, set[int]] = {}
    for seat in Seating.objects.filter(left_at__isnull=True, table__in=by_id):
        taken.setdefault(seat.table_id, {})[seat.seat] = seat.player_id
        seated_at.setdefault(stakes_of(by_id[seat.table_id]), set()).add(seat.player_id)
    holds = {
        (h.table_id, h.seat): h
        for h in SeatHold.objects.filter(ended_at__isnull=True, table__in=by_id)
    }
    open_seats: dict[Stakes, list[OpenSeat]] = {}
    for stakes, stake_tables in tables.items():
        for table in stake_tables:
            for seat in seat_numbers(table.seat_count):
                hold = holds.get((table.pk, seat))
                if seat in taken.get(table.pk, {}) and not (hold and hold.until <= moment):
                    continue
                open_seats.setdefault(stakes, []).append(OpenSeat(table, seat, hold))
    return tables, open_seats, seated_at


def seat_holds(*, table_ids: Sequence[int] | None = None) -> list[SeatHold]:
    """The holds in force (not ended), run out or not."""
    holds = SeatHold.objects.filter(ended_at__isnull=True).select_related("player", "table")
    if table_ids is not None:
        holds = holds.filter(table_id__in=table_ids)
    return list(holds.order_by("table__name", "seat"))


def waitlist_event_list(*, waitlist_id: int) -> QuerySet[WaitlistEvent]:
    """A list's whole history, in the order it was recorded."""
    return (
        WaitlistEvent.objects.filter(waitlist_id=waitlist_id)
        .select_related("player", "by", "table")
        .order_by("at", "id")
    )
