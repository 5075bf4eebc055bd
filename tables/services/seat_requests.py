"""Must-move tables and table changes (docs/rules.md §3.6): one atomic action per change.

- ``start_must_move``/``end_must_move``: a floor supervisor makes a table a must-move table
  feeding a main game of the same stakes, and ends it.
- ``ask_table_change``/``cancel_table_change``: a seated player asks to move to a named table,
  or to any other table of the stakes they play; the floor cancels it at their wish.
- ``pass_seat``: the seated player offered an open seat first (``tables.selectors.
  moves.seat_requests``) passes it; the seat goes to the next in line, then to the list.

The move itself is the player leaving their seat with their chips carried to the open seat
(``wagers.services.leaving.leave_seat``, chips ``carry``): the floor's seating then ends the
player's table change as ``moved`` (``seated``). A player who leaves without moving ends it as
``left`` (``left``); a table closing or changing its limits ends what depends on it
(``table_closed``, ``limits_changed``). Every row keeps who and when; nothing is deleted.

Locks: the tables by id (``lock_table``), then the rows written here.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from games import catalog
from tables.models import MustMove, Player, Seating, SeatPass, Table, TableChange
from tables.rules import seat_requests as rules
from tables.rules.seats import require_seat
from tables.selectors.moves import seat_requests

from .locks import lock_table


def _require_open(table: Table) -> None:
    if table.closed_at is not None:
        raise StateError(f"{table} is closed", state=State.TABLE_CLOSED, rule=Rule.CLOSED_TABLE)


def _stakes(table: Table) -> tuple[int, int, str]:
    """What a must-move or a table change must match: the game and its limits (a list, a
    must-move line and a table change are kept by game and stakes, docs/rules.md §3.6)."""
    return (table.minimum_cents, table.maximum_cents, table.game)


def _plays(table: Table) -> str:
    return catalog.at_stakes(table.minimum_cents, table.maximum_cents, table.game)


def _known_table(table_id: int, field: str) -> Table:
    if not Table.objects.filter(pk=table_id).exists():
        raise RuleError(f"no table {table_id}", rule=Rule.MUST_MOVE, field=field)
    return lock_table(table_id)


# --- Must-move tables --------------------------------------------------------------------------


def start_must_move(*, table_id: int, main_table_id: int, by) -> MustMove:
    """``table_id`` becomes a must-move table feeding the main game at ``main_table_id``."""
    with transaction.atomic():
        locked = {
            pk: _known_table(pk, "table" if pk == table_id else "main_table")
            for pk in sorted({table_id, main_table_id})
        }
        table, main = locked[table_id], locked[main_table_id]
        _require_open(table)
        _require_open(main)
        links = list(MustMove.objects.filter(ended_at__isnull=True).select_related("main_table"))
        for link in links:
            if link.table_id == table_id:
                raise StateError(
                    f"{table} already feeds {link.main_table}",
                    state=State.ALREADY_RECORDED,
                    rule=Rule.MUST_MOVE,
                )
            if link.main_table_id == main_table_id:
                raise StateError(
                    f"{main} is already fed by a must-move table ({link.table})",
                    state=State.ALREADY_RECORDED,
                    rule=Rule.MUST_MOVE,
                )
        if table_id != main_table_id and _stakes(table) != _stakes(main):
            raise RuleError(
                f"{table} plays {_plays(table)} and {main} plays {_plays(main)}: a must-move "
                "table feeds a main game of the same game and stakes",
                rule=Rule.MUST_MOVE,
                field="main_table",
            )
        rules.require_must_move(
            table=table_id,
            main=main_table_id,
            table_stakes=_stakes(table),
            main_stakes=_stakes(main),
            feeding=[(link.table_id, link.main_table_id) for link in links],
        )
        try:
            with transaction.atomic():
                return MustMove.objects.create(
                    table=table, main_table=main, started_at=now(), started_by=by
                )
        except IntegrityError:
            raise StateError(
                f"{table} already feeds a main game",
                state=State.ALREADY_RECORDED,
                rule=Rule.MUST_MOVE,
            ) from None


def _end(row, *, by, end: rules.End, moment=None, also: tuple[str, ...] = ()):
    """End an open row in one UPDATE (with the ``also`` fields set on it): the database lets
    a must-move link or a table change change only so, once (tables migration 0019)."""
    row.ended_at = moment or now()
    row.ended_by = by
    row.end = end.value
    row.save(update_fields=["ended_at", "ended_by", "end", *also])
    return row


def end_must_move(*, must_move_id: int, by) -> MustMove:
    """The floor ends a must-move link (the main game is full for good, or broke)."""
    with transaction.atomic():
        row = MustMove.objects.select_related("table").get(pk=must_move_id)
        lock_table(row.table_id)
        row = MustMove.objects.select_for_update().get(pk=must_move_id)
        if row.ended_at is not None:
            raise StateError(
                f"{row.table} stopped feeding {row.main_table} at {row.ended_at:%H:%M}",
                state=State.ALREADY_RECORDED,
                rule=Rule.MUST_MOVE,
            )
        return _end(row, by=by, end=rules.End.ENDED)


# --- Table changes ------------------------------------------------------------------------------


def ask_table_change(*, player_id: int, by, to_table_id: int | None = None) -> TableChange:
    """A seated player asks to move to ``to_table_id``, or to any other table of the stakes
    they play."""
    with transaction.atomic():
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise RuleError(f"no player {player_id}", rule=Rule.KNOWN_PLAYER, field="player")
        seating = Seating.objects.filter(player=player, left_at__isnull=True).first()
        if seating is None:
            raise RuleError(
                f"{player.name} is not seated: a table change is asked by a seated player "
                "(a player not seated joins a list)",
                rule=Rule.TABLE_CHANGE,
                field="player",
            )
        ids = {seating.table_id} | ({to_table_id} if to_table_id is not None else set())
        if to_table_id is not None and not Table.objects.filter(pk=to_table_id).exists():
            raise RuleError(f"no table {to_table_id}", rule=Rule.TABLE_CHANGE, field="to_table")
        locked = {pk: lock_table(pk) for pk in sorted(ids)}
        seating = Seating.objects.filter(player=player, left_at__isnull=True).first()
        if seating is None or seating.table_id not in locked:
            raise StateError(
                f"{player.name} changed seat meanwhile: ask again",
                state=State.SEAT_TAKEN,
                rule=Rule.TABLE_CHANGE,
            )
        here = locked[seating.table_id]
        there = locked.get(to_table_id) if to_table_id is not None else None
        if there is not None:
            _require_open(there)
        rules.require_table_change(
            from_table=here.pk,
            to_table=to_table_id,
            from_stakes=_stakes(here),
            to_stakes=_stakes(there) if there is not None else None,
        )
        current = TableChange.objects.filter(player=player, ended_at__isnull=True).first()
        if current is not None:
            raise StateError(
                f"{player.name} already asked for a table change at {current.asked_at:%H:%M} "
                f"(to {current.to_table or 'any table at these stakes'}): cancel it first",
                state=State.ALREADY_RECORDED,
                rule=Rule.TABLE_CHANGE,
            )
        try:
            with transaction.atomic():
                return TableChange.objects.create(
                    player=player,
                    from_table=here,
                    to_table=there,
                    minimum_cents=here.minimum_cents,
                    maximum_cents=here.maximum_cents,
                    asked_at=now(),
                    asked_by=by,
                )
        except IntegrityError:
            raise StateError(
                f"{player.name} already asked for a table change",
                state=State.ALREADY_RECORDED,
                rule=Rule.TABLE_CHANGE,
            ) from None


def cancel_table_change(*, table_change_id: int, by) -> TableChange:
    """The player no longer wants the change (or the floor takes it back)."""
    with transaction.atomic():
        row = (
            TableChange.objects.select_for_update().select_related("player").get(pk=table_change_id)
        )
        if row.ended_at is not None:
            raise StateError(
                f"{row.player.name}'s table change ended at {row.ended_at:%H:%M} "
                f"({rules.END_WORDS[rules.End(row.end)]})",
                state=State.ALREADY_RECORDED,
                rule=Rule.TABLE_CHANGE,
            )
        return _end(row, by=by, end=rules.End.CANCELLED)


# --- Offering a seat ----------------------------------------------------------------------------


def require_offered(table: Table, seat: int, player_id: int) -> None:
    """The open seat is offered first to ``player_id`` (the refusal names to whom it is)."""
    offer = seat_requests().offered(table.pk, seat)
    if offer is not None and offer.first.player == player_id:
        return
    first = offer.first.player if offer else None
    name = Player.objects.filter(pk=player_id).values_list("name", flat=True).first()
    raise StateError(
        f"seat {seat} at {table} is not offered to {name or f'player {player_id}'}"
        + (f": it is offered first to {Player.objects.get(pk=first).name}" if first else ""),
        state=State.SEAT_OFFERED if first else State.NOT_LISTED,
        rule=Rule.TABLE_CHANGE,
    )


def pass_seat(*, table_id: int, seat: int, player_id: int, by) -> SeatPass:
    """The player first offered the open seat (must-move or table change) passes it: they
    keep their place in their line, and the seat goes to the next in line, then the list."""
    require_seat(seat)
    with transaction.atomic():
        table = lock_table(table_id)
        require_offered(table, seat, player_id)
        return SeatPass.objects.create(table=table, seat=seat, player_id=player_id, at=now(), by=by)


def require_not_offered(table_id: int, seat: int) -> None:
    """A list calls a player to a seat only once nobody in the must-move or table-change line
    is offered it (the caller holds the table's lock)."""
    offer = seat_requests().offered(table_id, seat)
    if offer is None:
        return
    first = offer.first
    seating = Seating.objects.select_related("player", "table").get(
        player_id=first.player, left_at__isnull=True
    )
    raise StateError(
        f"seat {seat} at {offer.table} goes first to {seating.player.name} "
        f"({rules.LINE_WORDS[first.line]}, from {seating.table} seat {seating.seat}): move "
        "them, or record that they pass this seat",
        state=State.SEAT_OFFERED,
        rule=Rule.MUST_MOVE if first.line == rules.Line.MUST_MOVE else Rule.TABLE_CHANGE,
    )


# --- The floor's hooks (the caller holds the table's lock) ---------------------------------------


def seated(seating: Seating, *, by, moment) -> None:
    """A player sat down: their open table change, asked from another table, is done."""
    row = (
        TableChange.objects.select_for_update()
        .filter(player_id=seating.player_id, ended_at__isnull=True)
        .first()
    )
    if row is None or row.from_table_id == seating.table_id:
        return
    row.moved_to = seating
    _end(row, by=by, end=rules.End.MOVED, moment=moment, also=("moved_to",))


def left(seating: Seating, *, by, moment) -> None:
    """A player left their seat without moving to another: their table change ends."""
    for row in TableChange.objects.select_for_update().filter(
        player_id=seating.player_id, from_table_id=seating.table_id, ended_at__isnull=True
    ):
        _end(row, by=by, end=rules.End.LEFT, moment=moment)


def table_changed(table: Table, *, by, moment, end: rules.End) -> None:
    """A table closed or changed its limits: the must-move links it is part of end, and the
    table changes asked from it or to it."""
    for link in MustMove.objects.select_for_update().filter(
        Q(table=table) | Q(main_table=table), ended_at__isnull=True
    ):
        _end(link, by=by, end=end, moment=moment)
    for row in TableChange.objects.select_for_update().filter(
        Q(from_table=table) | Q(to_table=table), ended_at__isnull=True
    ):
        _end(row, by=by, end=end, moment=moment)
