"""Must-move tables and table changes (docs/rules.md §3.6): the lines of seated players offered
an open seat before a list (``tables.rules.seat_requests``), the links and requests in force,
and each open seat someone of them is offered first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Q, QuerySet

from cardroom.clock import now
from tables.models import MustMove, Player, Seating, SeatPass, Table, TableChange
from tables.rules import seat_requests as seat_rules
from tables.selectors.waitlists import _seats_by_stakes


@dataclass(frozen=True)
class SeatOffer:
    """An open seat offered first to seated players: the must-move line, then the table
    changes, in order (those who passed this seat since it opened left out)."""

    table: Table
    seat: int
    movers: tuple[seat_rules.Mover, ...]

    @property
    def first(self) -> seat_rules.Mover:
        return self.movers[0]


@dataclass(frozen=True)
class SeatRequests:
    """The must-move links in force with their players in the order they move, the open
    table changes, and each open seat someone of them is offered first."""

    must_moves: tuple[MustMove, ...]
    must_move_players: Mapping[int, tuple[Seating, ...]]  # by must-move table, in order
    table_changes: tuple[TableChange, ...]
    offers: Mapping[tuple[int, int], SeatOffer]
    seatings: Mapping[int, Seating]  # by player: where each of them sits

    def player(self, player_id: int) -> Player:
        return self.seatings[player_id].player

    def offered(self, table_id: int, seat: int) -> SeatOffer | None:
        return self.offers.get((table_id, seat))


def must_move_list(*, active: bool = True) -> QuerySet[MustMove]:
    rows = MustMove.objects.select_related("table", "main_table", "started_by", "ended_by")
    return rows.filter(ended_at__isnull=True) if active else rows.order_by("-started_at", "-id")


def table_change_list(*, open_only: bool = True) -> QuerySet[TableChange]:
    rows = TableChange.objects.select_related(
        "player", "from_table", "to_table", "asked_by", "ended_by", "moved_to__table"
    )
    return rows.filter(ended_at__isnull=True) if open_only else rows.order_by("-asked_at", "-id")


def _opened_at(tables: Sequence[int]) -> dict[tuple[int, int], datetime]:
    """When each seat of the tables was last left (a seat opens when its player leaves)."""
    return {
        (row["table_id"], row["seat"]): row["last"]
        for row in Seating.objects.filter(table_id__in=tables, left_at__isnull=False)
        .values("table_id", "seat")
        .annotate(last=Max("left_at"))
    }


def seat_requests(*, moment: datetime | None = None) -> SeatRequests:
    """The must-move and table-change lines and the open seats they are offered first, in a
    fixed number of queries whatever the size of the floor."""
    moment = moment or now()
    links = tuple(must_move_list().order_by("started_at", "id"))
    changes = list(table_change_list().order_by("asked_at", "id"))
    feeding = {link.table_id for link in links}
    seated = {
        s.player_id: s
        for s in Seating.objects.filter(left_at__isnull=True)
        .filter(Q(table_id__in=feeding) | Q(player_id__in=[c.player_id for c in changes]))
        .select_related("player", "table")
    }
    # A request whose player no longer sits at the table it was asked from is not offered.
    changes = [
        c
        for c in changes
        if c.player_id in seated and seated[c.player_id].table_id == c.from_table_id
    ]
    by_table: dict[int, list[Seating]] = {}
    for s in seated.values():
        if s.table_id in feeding:
            by_table.setdefault(s.table_id, []).append(s)
    players_of = {
        t: tuple(sorted(rows, key=lambda s: (s.sat_at, s.pk))) for t, rows in by_table.items()
    }
    offers: dict[tuple[int, int], SeatOffer] = {}
    if links or changes:
        _tables, open_seats, _seated = _seats_by_stakes(moment)
        candidates = [s for seats in open_seats.values() for s in seats]
        opened = _opened_at([s.table.pk for s in candidates])
        passes: dict[tuple[int, int], list[SeatPass]] = {}
        for p in SeatPass.objects.filter(table_id__in={s.table.pk for s in candidates}):
            passes.setdefault((p.table_id, p.seat), []).append(p)
        mains = {link.main_table_id: link.table_id for link in links}
        for open_seat in candidates:
            table = open_seat.table
            key = (table.pk, open_seat.seat)
            since = open_seat.hold.until if open_seat.hold else opened.get(key)
            passed = {p.player_id for p in passes.get(key, ()) if since is None or p.at >= since}
            must = [
                seat_rules.Mover(s.player_id, seat_rules.Line.MUST_MOVE, s.sat_at, s.table_id, s.pk)
                for s in players_of.get(mains.get(table.pk), ())
            ]
            stakes = (table.minimum_cents, table.maximum_cents, table.game)
            wanted = [
                seat_rules.Mover(
                    c.player_id, seat_rules.Line.TABLE_CHANGE, c.asked_at, c.from_table_id, c.pk
                )
                for c in changes
                if c.from_table_id != table.pk
                and (
                    c.to_table_id == table.pk
                    or (
                        c.to_table_id is None
                        and (c.minimum_cents, c.maximum_cents, c.from_table.game) == stakes
                    )
                )
            ]
            movers = seat_rules.offer_order(must, wanted, passed=passed)
            if movers:
                offers[key] = SeatOffer(table, open_seat.seat, tuple(movers))
    return SeatRequests(
        must_moves=links,
        must_move_players=players_of,
        table_changes=tuple(changes),
        offers=offers,
        seatings=seated,
    )
