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
from tables.models import Player, Seating, Waitlist, WaitlistEvent
from tables.rules import waitlist as rules
from tables.selectors import ListView, waitlist_views


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
        )
        if not state.entries:
            row.empty_after_event = last.pk
            row.save(update_fields=["empty_after_event"])
    after = replace(view, recorded=state, due=(), now=state)
    return after, last


def seated(seating: Seating, *, by, moment: datetime | None = None) -> list[WaitlistEvent]:
    """A player took a seat (the caller holds the table's lock): they leave every list they
    are on, a ``seated`` event on each, naming the seat."""
    moment = moment or now()
    ids = lists_of(seating.player_id)
    if not ids:
        return []
    lock_lists(ids)
    recorded = []
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


def withdraw_calls(
    table_id: int, *, by, seats: Iterable[int] | None = None, moment: datetime | None = None
) -> list[WaitlistEvent]:
    """The seats (all of the table's, by default) are no longer open: every call to them is
    withdrawn, the players keeping their places (the caller holds the table's lock)."""
    moment = moment or now()
    wanted = None if seats is None else set(seats)
    lock_lists(Waitlist.objects.values_list("pk", flat=True))
    withdrawn = []
    for view in waitlist_views(moment=moment, seats=False):
        for entry in view.now.entries:
            call = entry.call
            if call is None or call.table != table_id:
                continue
            if wanted is not None and call.seat not in wanted:
                continue
            event = rules.Event(
                rules.Kind.WITHDRAWN, entry.player, max(moment, view.recorded.at or moment)
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
