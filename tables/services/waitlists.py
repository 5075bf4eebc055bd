"""Waitlists, seat calls and seat holds (docs/rules.md §3.6): one atomic action per change.

A list is kept for one game at one stakes (docs/rules.md §3.6): "$20.00 - $2,000.00 EZ
Baccarat" fills only the EZ Baccarat tables at those limits.

Each action locks, in the documented order, the tables of the list's stakes (by id), then
the lists it writes (by id); re-reads the list under the locks; records what the clock made
due; then checks and records its own event (``listing.record``). The state of a list is
never stored: it is what its events make.

- ``call``: the first eligible player for an open seat (empty, or held past its time) at a
  table of the list's stakes; those ahead who are skipped (called on another list, seated
  at these stakes, or already called for this seat since it opened) are named on the call.
- ``answer``: the called player takes the seat (seated by the floor's ``seat_player``,
  which takes them off every list) or declines; ``pass_over``: the response time ran out.
  After a decline or a pass-over the next eligible player is called for the same seat.
- ``sweep``: the clock's work, every few seconds on the beat schedule: calls not answered in
  time are passed over (and the next player called), call-ins not checked in lapse.
- ``hold_seat``/``release_hold``: a seated player who stepped away keeps the seat until the
  hold runs out; then the seat is offered to the list (the absent player's chips are
  picked up by the floor before the called player sits). A player back after that has any
  call to their seat withdrawn, as a closed table's are (``withdraw``: by the floor).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from games import catalog
from games.catalog import at_stakes
from tables.guards import require_not_excluded
from tables.models import (
    HoldEnd,
    Player,
    SeatHold,
    Seating,
    Table,
    Waitlist,
    WaitlistEvent,
    WaitlistPolicyChange,
)
from tables.rules import waitlist as rules
from tables.rules.seats import MOST_SEATS, require_seat
from tables.selectors.exclusions import exclusion_in_force
from tables.selectors.moves import seat_requests as seat_requests_view
from tables.selectors.waitlists import ListView, waitlist_view, waitlist_views

from . import floor, listing, seat_requests
from .locks import lock_table

SEAT_HOLD_MINUTES = (1, 120)  # the shortest and the longest hold, in minutes
POLICY_MINUTES_MAX = 24 * 60


# --- Lists and their policy ------------------------------------------------------------


def _minutes(value, field: str, label: str) -> int:
    if type(value) is not int or value < 1:
        raise RuleError(
            f"the {label} must be a whole number of minutes, at least 1",
            rule=Rule.WAITLIST_POLICY,
            field=field,
        )
    if value > POLICY_MINUTES_MAX:
        raise RuleError(
            f"the {label} is at most {POLICY_MINUTES_MAX} minutes",
            rule=Rule.WAITLIST_POLICY,
            field=field,
        )
    return value


def _policy_values(response_minutes, call_in_minutes, pass_over) -> dict:
    try:
        pass_over = rules.PassOver(pass_over)
    except ValueError:
        raise RuleError(
            f"a player passed over keeps their place or goes to the bottom, not {pass_over!r}",
            rule=Rule.WAITLIST_POLICY,
            field="pass_over",
        ) from None
    return {
        "response_seconds": 60 * _minutes(response_minutes, "response_minutes", "response time"),
        "call_in_seconds": 60 * _minutes(call_in_minutes, "call_in_minutes", "call-in window"),
        "pass_over": pass_over.value,
    }


def _stakes_tables(minimum_cents: int, maximum_cents: int, game: str) -> list[Table]:
    """The open tables of ``game`` at these limits: the tables a list of theirs fills."""
    return list(
        Table.objects.filter(
            game=game,
            minimum_cents=minimum_cents,
            maximum_cents=maximum_cents,
            closed_at__isnull=True,
        ).order_by("pk")
    )


def _game(game: str | None) -> str:
    try:
        return catalog.listing(game).key
    except RuleError as error:
        raise RuleError(error.message, rule=Rule.WAITLIST_STAKES, field="game") from None


def open_waitlist(
    *,
    minimum_cents: int,
    maximum_cents: int,
    by,
    game: str | None = None,
    response_minutes: int = 3,
    call_in_minutes: int = 30,
    pass_over: str = rules.PassOver.KEEP_PLACE,
) -> Waitlist:
    """A list for the game and stakes of an open table (one per game and stakes; Ultimate
    Texas Hold'em when no game is named)."""
    values = _policy_values(response_minutes, call_in_minutes, pass_over)
    game = _game(game)
    named = at_stakes(minimum_cents, maximum_cents, game)
    if not _stakes_tables(minimum_cents, maximum_cents, game):
        raise RuleError(
            f"no open table plays {named}: a list is kept for the game and stakes of a table",
            rule=Rule.WAITLIST_STAKES,
            field="minimum_cents",
        )
    moment = now()
    with transaction.atomic():
        if Waitlist.objects.filter(
            game=game, minimum_cents=minimum_cents, maximum_cents=maximum_cents
        ).exists():
            raise StateError(
                f"the {named} list is already open",
                state=State.ALREADY_RECORDED,
                rule=Rule.WAITLIST_STAKES,
            )
        try:
            with transaction.atomic():
                row = Waitlist.objects.create(
                    game=game,
                    minimum_cents=minimum_cents,
                    maximum_cents=maximum_cents,
                    created_at=moment,
                    created_by=by,
                    **values,
                )
        except IntegrityError:
            raise StateError(
                f"the {named} list is already open",
                state=State.ALREADY_RECORDED,
                rule=Rule.WAITLIST_STAKES,
            ) from None
        WaitlistPolicyChange.objects.create(waitlist=row, at=moment, by=by, **values)
        return row


def change_policy(
    *,
    waitlist_id: int,
    by,
    response_minutes: int | None = None,
    call_in_minutes: int | None = None,
    pass_over: str | None = None,
) -> Waitlist:
    """The floor changes a list's timers or where a passed-over player goes: from now on
    (a call already made keeps its answer-by time); recorded as a policy change."""
    with transaction.atomic():
        row = listing.lock_lists([waitlist_id])[waitlist_id]
        values = _policy_values(
            row.response_seconds // 60 if response_minutes is None else response_minutes,
            row.call_in_seconds // 60 if call_in_minutes is None else call_in_minutes,
            row.pass_over if pass_over is None else pass_over,
        )
        # What the clock made due falls under the policy it was due under.
        listing.record(waitlist_view(waitlist_id=waitlist_id))
        for name, value in values.items():
            setattr(row, name, value)
        row.save(update_fields=list(values))
        last = WaitlistEvent.objects.filter(waitlist=row).order_by("-id").first()
        WaitlistPolicyChange.objects.create(
            waitlist=row, at=now(), by=by, after_event=last.pk if last else None, **values
        )
        return row


# --- Joining, checking in, leaving the list -------------------------------------------------


def _player(player_id: int) -> Player:
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise RuleError(f"no player {player_id}", rule=Rule.KNOWN_PLAYER, field="player")
    return player


def _locked_view(waitlist_id: int) -> ListView:
    listing.lock_lists([waitlist_id])
    return waitlist_view(waitlist_id=waitlist_id)


def join(*, waitlist_id: int, player_id: int, by, by_phone: bool = False) -> WaitlistEvent:
    """A player joins at the desk or, ``by_phone``, as a call-in."""
    with transaction.atomic():
        player = _player(player_id)
        require_not_excluded(
            exclusion_in_force(player_id=player.pk), action="a place on the waitlist"
        )
        view = _locked_view(waitlist_id)
        event = rules.Event(rules.Kind.JOINED, player.pk, now(), by_phone=by_phone)
        return _record(view, event, by=by)


def check_in(*, waitlist_id: int, player_id: int, by) -> WaitlistEvent:
    """A call-in arrives at the desk: from now on they can be called."""
    with transaction.atomic():
        view = _locked_view(waitlist_id)
        entry = view.recorded.entry(player_id)
        if entry is not None and any(
            d.kind == rules.Kind.LAPSED and d.player == player_id for d in view.due
        ):
            raise RuleError(
                f"{listing.player_name(view, player_id)}'s call-in lapsed at "
                f"{entry.lapses_at(view.policy):%H:%M}: join the list again",
                rule=Rule.WAITLIST_CALL_IN,
                field="player",
            )
        return _record(view, rules.Event(rules.Kind.CHECKED_IN, player_id, now()), by=by)


def remove(*, waitlist_id: int, player_id: int, by) -> WaitlistEvent:
    """The floor takes a player off the list (their wish, or gone)."""
    with transaction.atomic():
        view = _locked_view(waitlist_id)
        return _record(view, rules.Event(rules.Kind.REMOVED, player_id, now()), by=by)


def _record(view: ListView, event: rules.Event, *, by) -> WaitlistEvent:
    _, row = listing.record(view, replace(event, at=_moment(view)), by=by)
    return row


# --- Calls -----------------------------------------------------------------------------------


def _stakes_of(table: Table) -> tuple[str, int, int]:
    return (table.game, table.minimum_cents, table.maximum_cents)


def _lock_for_calls(waitlist_id: int) -> ListView:
    """Lock the tables of the list's stakes, then every list, and answer the list as it is
    under the locks."""
    row = Waitlist.objects.filter(pk=waitlist_id).first()
    if row is None:
        raise Waitlist.DoesNotExist(f"no waitlist {waitlist_id}")
    for table in _stakes_tables(row.minimum_cents, row.maximum_cents, row.game):
        lock_table(table.pk)
    # Every list: a call skips players called on another list, and a seating takes the
    # player off every list, so no other list may change under either.
    listing.lock_lists(Waitlist.objects.values_list("pk", flat=True))
    return waitlist_view(waitlist_id=waitlist_id)


def _open_seat(view: ListView, table_id: int, seat: int):
    """The open seat of the list at (table, seat), or the refusal saying why it is not."""
    for open_seat in view.open_seats:
        if (open_seat.table.pk, open_seat.seat) == (table_id, seat):
            return open_seat
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise RuleError(f"no table {table_id}", rule=Rule.WAITLIST_STAKES, field="table")
    row = view.waitlist
    if _stakes_of(table) != (row.game, row.minimum_cents, row.maximum_cents):
        plays = at_stakes(table.minimum_cents, table.maximum_cents, table.game)
        raise RuleError(
            f"{table} plays {plays}; this list is {row}",
            rule=Rule.WAITLIST_STAKES,
            field="table",
        )
    if table.closed_at is not None:
        raise StateError(f"{table} is closed", state=State.TABLE_CLOSED, rule=Rule.SEATS)
    require_seat(seat, seat_count=table.seat_count)  # a seat the table has
    hold = SeatHold.objects.filter(table=table, seat=seat, ended_at__isnull=True).first()
    if hold is not None:
        raise StateError(
            f"seat {seat} at {table} is held for {hold.player.name} until {hold.until:%H:%M}",
            state=State.SEAT_HELD,
            rule=Rule.SEAT_HOLD,
        )
    raise StateError(
        f"seat {seat} at {table} is taken: a player is called only to an open seat",
        state=State.SEAT_TAKEN,
        rule=Rule.SEATS,
    )


def _open_since(table_id: int, seat: int, hold: SeatHold | None) -> datetime | None:
    """When the seat became open to the list: its last player left, or their hold ran out."""
    if hold is not None:
        return hold.until
    last = (
        Seating.objects.filter(table_id=table_id, seat=seat, left_at__isnull=False)
        .order_by("-left_at")
        .values_list("left_at", flat=True)
        .first()
    )
    return last


def _called_elsewhere(view: ListView) -> set[int]:
    return {
        entry.player
        for other in waitlist_views(seats=False)
        if other.waitlist.pk != view.waitlist.pk
        for entry in other.now.entries
        if entry.call is not None
    }


def _skipped(
    view: ListView, table_id: int, seat: int, since: datetime | None, elsewhere: set[int]
) -> set[int]:
    """Who on the list is not called to this seat: called on another list (``elsewhere``),
    seated at these stakes, or already called to this seat since it opened."""
    called_here = WaitlistEvent.objects.filter(
        waitlist=view.waitlist, kind=rules.Kind.CALLED, table_id=table_id, seat=seat
    )
    if since is not None:
        called_here = called_here.filter(at__gte=since)
    return (
        elsewhere
        | set(view.seated_at_stakes)
        | set(called_here.values_list("player_id", flat=True))
    )


def _call_event(
    view: ListView, table_id: int, seat: int, moment: datetime, player_id: int | None
) -> rules.Event | None:
    open_seat = _open_seat(view, table_id, seat)
    elsewhere = _called_elsewhere(view)  # every other list replayed once
    skip = _skipped(view, table_id, seat, _open_since(table_id, seat, open_seat.hold), elsewhere)
    first = rules.first_eligible(view.now, skip=skip)
    if player_id is None:
        if first is None:
            return None
        player_id = first.player
    elif player_id in elsewhere:
        raise StateError(
            f"{listing.player_name(view, player_id)} is being called on another list",
            state=State.CALLED,
            rule=Rule.WAITLIST_ORDER,
        )
    position = view.now.position(player_id)
    ahead = set(view.now.players[: (position or 1) - 1])
    return rules.Event(
        rules.Kind.CALLED,
        player_id,
        moment,
        table=table_id,
        seat=seat,
        skipped=tuple(p for p in view.now.players if p in ahead and p in skip),
    )


def call(*, waitlist_id: int, table_id: int, seat: int, by, player_id: int | None = None):
    """Call the first eligible player to an open seat (``player_id``, when given, must be
    that player: the floor confirms whom it calls)."""
    require_seat(seat, seat_count=MOST_SEATS)  # the table's own count is checked when seated
    with transaction.atomic():
        view = _lock_for_calls(waitlist_id)
        view, _ = listing.record(view)
        moment = max(now(), view.recorded.at or now())
        if any((s.table.pk, s.seat) == (table_id, seat) for s in view.open_seats):
            # A must-move player or a table change is offered the seat before the list.
            seat_requests.require_not_offered(table_id, seat)
        event = _call_event(view, table_id, seat, moment, player_id)
        if event is None:
            raise StateError(
                "nobody on the list can be called now: everyone is being called, not in the "
                "room yet, or was already called to this seat",
                state=State.NOBODY_TO_CALL,
                rule=Rule.WAITLIST_ORDER,
            )
        if view.now.entry(event.player) is None:
            raise StateError(
                f"{listing.player_name(view, event.player)} is not on this list",
                state=State.NOT_LISTED,
            )
        _, row = listing.record(view, event, by=by)
        return row


def _called(view: ListView, player_id: int) -> rules.Entry:
    entry = view.now.entry(player_id)
    if entry is None:
        raise StateError(
            f"{listing.player_name(view, player_id)} is not on this list",
            state=State.NOT_LISTED,
        )
    if entry.call is None:
        raise StateError(
            f"{listing.player_name(view, player_id)} is not being called"
            + (" (passed over: no answer in time)" if entry.misses else ""),
            state=State.WAITING,
            rule=Rule.WAITLIST_CALL,
        )
    return entry


def _call_next(view: ListView, table_id: int, seat: int, by) -> WaitlistEvent | None:
    """After a decline or a pass-over: the next eligible player for the same seat, if it is
    still open and nobody is called to it."""
    if view.now.calling(table_id, seat) is not None:
        return None
    if not any((s.table.pk, s.seat) == (table_id, seat) for s in view.open_seats):
        return None
    if seat_requests_view().offered(table_id, seat) is not None:
        return None  # the seat goes to a must-move player or a table change first
    moment = max(now(), view.recorded.at or now())
    event = _call_event(view, table_id, seat, moment, None)
    if event is None:
        return None
    _, row = listing.record(view, event, by=by)
    return row


def answer(*, waitlist_id: int, player_id: int, by, take: bool):
    """The called player takes the seat (``take``) or declines it. Answers the seating, or
    the decline's event."""
    with transaction.atomic():
        view = _lock_for_calls(waitlist_id)
        view, _ = listing.record(view)
        entry = _called(view, player_id)
        table_id, seat = entry.call.table, entry.call.seat
        if not take:
            view, row = listing.record(
                view, rules.Event(rules.Kind.DECLINED, player_id, _moment(view)), by=by
            )
            _call_next(view, table_id, seat, by)
            return row
        hold = next(
            (s.hold for s in view.open_seats if (s.table.pk, s.seat) == (table_id, seat)), None
        )
        if hold is not None:
            raise StateError(
                f"{hold.player.name}'s hold on seat {seat} ran out at {hold.until:%H:%M}: "
                "pick up their chips (cash out) before the seat is taken",
                state=State.SEAT_HELD,
                rule=Rule.SEAT_HOLD,
            )
        elsewhere = (
            Seating.objects.filter(player_id=player_id, left_at__isnull=True)
            .select_related("table")
            .first()
        )
        if elsewhere is not None:
            raise StateError(
                f"{listing.player_name(view, player_id)} is seated at {elsewhere.table}, seat "
                f"{elsewhere.seat}: move them with their chips to seat {seat}",
                state=State.CALLED,
                rule=Rule.ONE_SEAT_PER_PLAYER,
            )
        return floor.seat_player(table_id=table_id, seat=seat, player_id=player_id, by=by)


def _moment(view: ListView) -> datetime:
    return max(now(), view.recorded.at or now())


def pass_over(*, waitlist_id: int, player_id: int, by) -> WaitlistEvent:
    """The floor passes over a called player whose response time ran out, and the next
    eligible player is called to the seat."""
    with transaction.atomic():
        view = _lock_for_calls(waitlist_id)
        # The floor records the pass-over the clock would have: by them, now.
        view = replace(
            view,
            due=tuple(
                d
                for d in view.due
                if not (d.kind == rules.Kind.PASSED_OVER and d.player == player_id)
            ),
        )
        view, _ = listing.record(view)
        entry = view.recorded.entry(player_id)
        if entry is None:
            raise StateError(
                f"{listing.player_name(view, player_id)} is not on this list",
                state=State.NOT_LISTED,
            )
        call_ = entry.call
        view, row = listing.record(
            view, rules.Event(rules.Kind.PASSED_OVER, player_id, _moment(view)), by=by
        )
        _call_next(view, call_.table, call_.seat, by)
        return row


def sweep(*, moment: datetime | None = None) -> int:
    """The clock's work on every list: record what is due, and call the next player to each
    seat whose call went unanswered. Answers how many events were recorded."""
    recorded = 0
    for view in waitlist_views(moment=moment, seats=False):
        if not view.due:
            continue
        with transaction.atomic():
            view = _lock_for_calls(view.waitlist.pk)
            if not view.due:
                continue
            missed = [
                view.recorded.entry(d.player).call
                for d in view.due
                if d.kind == rules.Kind.PASSED_OVER
            ]
            recorded += len(view.due)
            view, _ = listing.record(view)
            for call_ in missed:
                if _call_next(view, call_.table, call_.seat, None) is not None:
                    recorded += 1
                    view = waitlist_view(waitlist_id=view.waitlist.pk)
    return recorded


# --- Seat holds -------------------------------------------------------------------------------


def hold_seat(*, table_id: int, seat: int, by, minutes: int = 15) -> SeatHold:
    """A seated player steps away: their seat is held for ``minutes``."""
    require_seat(seat, seat_count=MOST_SEATS)  # the table's own count is checked when seated
    low, high = SEAT_HOLD_MINUTES
    if type(minutes) is not int or not low <= minutes <= high:
        raise RuleError(
            f"a seat is held for {low} to {high} minutes, not {minutes!r}",
            rule=Rule.SEAT_HOLD,
            field="minutes",
        )
    with transaction.atomic():
        table = lock_table(table_id)
        seating = (
            Seating.objects.filter(table=table, seat=seat, left_at__isnull=True)
            .select_related("player")
            .first()
        )
        if seating is None:
            raise RuleError(
                f"seat {seat} at {table} is empty: a hold keeps a seated player's seat",
                rule=Rule.SEAT_HOLD,
                field="seat",
            )
        current = SeatHold.objects.filter(table=table, seat=seat, ended_at__isnull=True).first()
        if current is not None:
            raise StateError(
                f"seat {seat} is already held for {seating.player.name} until "
                f"{current.until:%H:%M}",
                state=State.SEAT_HELD,
                rule=Rule.SEAT_HOLD,
            )
        moment = now()
        return SeatHold.objects.create(
            table=table,
            seat=seat,
            player=seating.player,
            held_at=moment,
            until=moment + timedelta(minutes=minutes),
            held_by=by,
        )


def release_hold(*, table_id: int, seat: int, by) -> SeatHold:
    """The player came back to their held seat."""
    with transaction.atomic():
        table = lock_table(table_id)
        hold = SeatHold.objects.filter(table=table, seat=seat, ended_at__isnull=True).first()
        if hold is None:
            raise RuleError(
                f"seat {seat} at {table} is not held", rule=Rule.SEAT_HOLD, field="seat"
            )
        hold.ended_at = now()
        hold.ended_by = by
        hold.end = HoldEnd.RETURNED
        hold.save(update_fields=["ended_at", "ended_by", "end"])
        # Back after the hold ran out and the seat was offered: the call is withdrawn.
        listing.withdraw_calls(
            table.pk,
            by=by,
            seats=[seat],
            moment=hold.ended_at,
            reason=rules.Reason.PLAYER_RETURNED,
        )
        return hold


def withdraw(*, waitlist_id: int, player_id: int, by) -> WaitlistEvent:
    """The floor withdraws a player's call (the seat is no longer theirs to take): the player
    keeps their place, and the call is not counted against them."""
    with transaction.atomic():
        view = _lock_for_calls(waitlist_id)
        view, _ = listing.record(view)
        _called(view, player_id)
        _, row = listing.record(
            view,
            rules.Event(
                rules.Kind.WITHDRAWN, player_id, _moment(view), reason=rules.Reason.BY_FLOOR
            ),
            by=by,
        )
        return row
