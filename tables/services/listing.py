"""Recording waitlist events (docs/rules.md §3.6): the one writer of ``WaitlistEvent``.

Every event is checked by the rules against the list as its recorded events make it, then
inserted; nothing is ever updated. The floor's seating calls ``seated`` (a player who takes
any seat leaves every list), so this module sits below both the floor's services and the
waitlist services.

Locks (docs/architecture.md): the tables first, then the lists by id (``lock_lists``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime

from cardroom.clock import now
from tables.models import Player, Seating, Waitlist, WaitlistEvent, WaitlistPolicyChange
from tables.rules import waitlist as rules
from tables.selectors.waitlists import ListView, waitlist_views


def lock_lists(ids: Iterable[int]) -> dict[int, Waitlist]:
    """Lock the lists, lowest id first (a missing one raises ``Waitlist.DoesNotExist``)."""
    wanted = sorted(set(ids))
    rows = {row.pk: row for row in Waitlist.objects.select_for_update().filter(pk__in=wanted)}
    for pk in wanted:
        if pk not in rows:
            raise Waitlist.DoesNotExist(f"no waitlist {pk}")
    return rows


def lists_of(player_id: int) -> list[int]:
    """The lists the player has events on since they were last empty (a superset of the
    lists they are on; the caller replays them under lock)."""
    return list(
        WaitlistEvent.objects.filter(player_id=player_id)
        .values_list("waitlist_id", flat=True)
        .distinct()
    )


def record(
    view: ListView, event: rules.Event | None = None, *, by=None
) -> tuple[ListView, WaitlistEvent | None]:
    """Record on the (locked) list of ``view`` first what the clock made due (calls not
    answered in time, call-ins lapsed: by nobody), then ``event`` by ``by``, each checked by
    the rules. Answers the list after them and the last row recorded."""
    state = view.recorded
    row = view.waitlist
    last: WaitlistEvent | None = None
    names = _names(view)
    for due in (*view.due, *((event,) if event else ())):
        state = rules.apply(state, due, view.policy, names)
        last = WaitlistEvent.objects.create(
            waitlist=row,
            kind=due.kind.value,
            player_id=due.player,
            at=due.at,
            by=by if due is event else None,
            by_phone=due.by_phone,
            table_id=due.table,
            seat=due.seat,
            skipped=list(due.skipped),
            reason=due.reason,
        )
        if not state.entries:
            row.empty_after_event = last.pk
            row.save(update_fields=["empty_after_event"])
    after = replace(view, recorded=state, due=(), now=state)
    return after, last


def seated(seating: Seating, *, by, moment: datetime | None = None) -> list[WaitlistEvent]:
    """A player took a seat (the caller holds the table's lock): they leave every list they
    are on, a ``seated`` event on each, naming the seat; and a call of anyone else to that
    seat ends (withdrawn, the seat was filled another way: they keep their place)."""
    moment = moment or now()
    calling = lists_calling(seating.table_id, [seating.seat])
    ids = lists_of(seating.player_id)
    lock_lists({*calling, *ids})  # lowest id first, once
    recorded = withdraw_calls(
        seating.table_id,
        by=by,
        seats=[seating.seat],
        moment=moment,
        reason=rules.Reason.SEAT_FILLED,
        keep=seating.player_id,
        lists=calling,
    )
    if not ids:
        return recorded
    for view in waitlist_views(ids=ids, moment=moment, seats=False):
        if view.recorded.entry(seating.player_id) is None:
            continue
        event = rules.Event(
            rules.Kind.SEATED,
            seating.player_id,
            max(moment, view.recorded.at or moment),
            table=seating.table_id,
            seat=seating.seat,
        )
        _, row = record(view, event, by=by)
        recorded.append(row)
    return recorded


def lists_calling(table_id: int, seats: Iterable[int] | None = None) -> list[int]:
    """The lists that ever called a player to the table (to ``seats``): a superset of those
    calling one now (the caller replays them under lock)."""
    called = WaitlistEvent.objects.filter(kind=rules.Kind.CALLED, table_id=table_id)
    if seats is not None:
        called = called.filter(seat__in=list(seats))
    return sorted(set(called.values_list("waitlist_id", flat=True)))


def withdraw_calls(
    table_id: int,
    *,
    by,
    reason: rules.Reason,
    seats: Iterable[int] | None = None,
    moment: datetime | None = None,
    keep: int | None = None,
    lists: Iterable[int] | None = None,
) -> list[WaitlistEvent]:
    """The seats (all of the table's, by default) are no longer open: every call to them
    (on ``lists``, every list by default) is withdrawn with its ``reason``, the players
    keeping their places (the caller holds the table's lock). ``keep``: the player who took
    the seat (their call ends as ``seated``)."""
    moment = moment or now()
    wanted = None if seats is None else set(seats)
    ids = lists_calling(table_id, wanted) if lists is None else list(lists)
    if not ids:
        return []
    lock_lists(ids)
    withdrawn = []
    for view in waitlist_views(ids=ids, moment=moment, seats=False):
        for entry in view.now.entries:
            call = entry.call
            if call is None or call.table != table_id or entry.player == keep:
                continue
            if wanted is not None and call.seat not in wanted:
                continue
            event = rules.Event(
                rules.Kind.WITHDRAWN,
                entry.player,
                max(moment, view.recorded.at or moment),
                reason=reason,
            )
            view, row = record(view, event, by=by)
            withdrawn.append(row)
    return withdrawn


def _names(view: ListView) -> rules.Names:
    """How a refusal names the list's players and its stakes' tables (by name, not number)."""
    return rules.Names(
        players={pk: player.name for pk, player in view.players.items()},
        tables={table.pk: table.name for table in view.tables},
    )


def player_name(view: ListView, player_id: int) -> str:
    player = view.players.get(player_id) or Player.objects.filter(pk=player_id).first()
    return player.name if player else f"player {player_id}"


def move_list(
    source: Waitlist, minimum_cents: int, maximum_cents: int, *, by, moment: datetime
) -> tuple[Waitlist, list[int]] | None:
    """No open table plays the stakes of ``source`` any more (its last table changed its
    limits): its players move, in their order, to the list of the new limits (opened with
    the old list's policy if there is none), after those already waiting there; each leaves
    the old list (``removed``) and joins the new one (``joined``), both with the reason
    ``list_moved``. A player on both keeps their place on the new list. The caller holds the
    table's lock. Answers the new list and who moved, or None when nobody was waiting."""
    target = Waitlist.objects.filter(
        game=source.game, minimum_cents=minimum_cents, maximum_cents=maximum_cents
    ).first()
    lock_lists([source.pk, *([target.pk] if target else [])])
    (view,) = waitlist_views(ids=[source.pk], moment=moment, seats=False)
    if not view.now.entries:
        return None
    if target is None:
        target = Waitlist.objects.create(
            game=source.game,
            minimum_cents=minimum_cents,
            maximum_cents=maximum_cents,
            response_seconds=source.response_seconds,
            call_in_seconds=source.call_in_seconds,
            pass_over=source.pass_over,
            created_at=moment,
            created_by=by,
        )
        WaitlistPolicyChange.objects.create(
            waitlist=target,
            at=moment,
            by=by,
            response_seconds=source.response_seconds,
            call_in_seconds=source.call_in_seconds,
            pass_over=source.pass_over,
        )
        lock_lists([target.pk])
    (into,) = waitlist_views(ids=[target.pk], moment=moment, seats=False)
    view, _ = record(view)  # what the clock made due first
    into, _ = record(into)
    moving = rules.moved_entries(view.now, into.now)
    for entry in view.now.entries:
        at = max(moment, view.recorded.at or moment)
        view, _ = record(
            view,
            rules.Event(rules.Kind.REMOVED, entry.player, at, reason=rules.Reason.LIST_MOVED),
            by=by,
        )
    for entry in moving:
        at = max(moment, into.recorded.at or moment)
        event = rules.Event(
            rules.Kind.JOINED,
            entry.player,
            at,
            by_phone=not entry.in_the_room,
            reason=rules.Reason.LIST_MOVED,
        )
        into, _ = record(into, event, by=by)
    return target, [e.player for e in moving]
