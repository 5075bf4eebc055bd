"""The table board (a TV in the room): the open tables by game and stakes, each list's players
by their board names and who is being called to which seat, never a full name; and the room's
change markers the board's cache is keyed on (``BoardRoom``), in one statement."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Count,
    Exists,
    ExpressionWrapper,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from cardroom.clock import now
from cardroom.money import dollar_range
from games import catalog
from tables.models import (
    Game,
    PlayerIdentificationChange,
    Seating,
    Table,
    Waitlist,
    WaitlistEvent,
    WaitlistPolicyChange,
)
from tables.selectors.waitlists import ListView, Stakes, stakes_of_list, waitlist_views


@dataclass(frozen=True)
class BoardTable:
    name: str
    seated: int
    open_seats: int
    game_open: bool


@dataclass(frozen=True)
class BoardCall:
    name: str  # the board name ("Maria G."), never the full name
    table: str
    seat: int
    answer_by: datetime


@dataclass(frozen=True)
class BoardStakes:
    minimum_cents: int
    maximum_cents: int
    game: str = catalog.DEFAULT_GAME
    tables: tuple[BoardTable, ...] = ()
    has_list: bool = False
    waiting: tuple[str, ...] = ()  # board names, in list order
    calls: tuple[BoardCall, ...] = ()
    # When the clock alone next changes the list (a call's answer-by, a call-in's lapse):
    # a board drawn before then is stale from then on.
    changes_at: datetime | None = None

    @property
    def label(self) -> str:
        """The game at its stakes: "$20.00 - $2,000.00 EZ Baccarat"."""
        return catalog.at_stakes(self.minimum_cents, self.maximum_cents, self.game)

    @property
    def stakes(self) -> str:
        return dollar_range(self.minimum_cents, self.maximum_cents)

    @property
    def game_name(self) -> str:
        return catalog.listing(self.game).name


@dataclass(frozen=True)
class BoardRoom:
    """The board's first read (``board_room``): the open tables in the board's order, as it
    shows them (with their ids and stakes); and the change markers of what it reads next.

    ``lists``: the sum, over the lists, of the id of each list's last event (in the order a
    list is replayed: time, then id) and of its last policy change. Every write of a list
    holds the list's lock and records an event (at or after the list's last in time) or a
    policy change, so every write committed raises the sum, even when two lists' writes
    commit out of id order; a new list comes with its first policy change. ``names``: the
    last correction of a player's identification (the board shows the players' names).
    Both None when no table is open (they are read along with the tables): the board is
    then drawn every time. What they miss (a name changed in the admin, two corrections
    committed out of id order) the board's slice of time bounds (``console.views.board``).
    """

    # (id, name, game, minimum, maximum, seats, players seated, game open)
    tables: tuple[tuple[int, str, str, int, int, int, int, bool], ...] = ()
    lists: int | None = None
    names: int | None = None

    @property
    def version(self) -> tuple | None:
        """Equal as long as nothing the board shows has changed but the clock; None when
        unknown."""
        if self.lists is None:
            return None
        return (self.tables, self.lists, self.names)


def _last_id(model, *order: str) -> Subquery:
    """The id of the last ``model`` row (in ``order``) of the outer query's list."""
    rows = model.objects.filter(waitlist=OuterRef("pk")).order_by(*order).values("pk")
    return Subquery(rows[:1])


def _board_room_query() -> QuerySet:
    """The open tables (id, name, game, stakes, seats, players seated, game open) in the
    board's order,
    each row with the lists' and the names' change markers (``BoardRoom``)."""
    big = BigIntegerField()
    marks = Waitlist.objects.order_by().annotate(
        mark=ExpressionWrapper(
            # In the index of a list's events (list, time, id): read from its end.
            Coalesce(_last_id(WaitlistEvent, "-at", "-id"), 0)
            + Coalesce(_last_id(WaitlistPolicyChange, "-id"), 0),
            output_field=big,
        ),
        everything=Value(1),
    )
    seated = (
        Seating.objects.filter(table=OuterRef("pk"), left_at__isnull=True)
        .order_by()
        .values("table")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return (
        Table.objects.filter(closed_at__isnull=True)
        .annotate(
            seated_count=Coalesce(Subquery(seated), 0),
            game_open=Exists(Game.objects.filter(table=OuterRef("pk"), ended_at__isnull=True)),
            lists_mark=Coalesce(
                Subquery(marks.values("everything").annotate(sum=Sum("mark")).values("sum")),
                0,
                output_field=big,
            ),
            names_mark=Coalesce(
                Subquery(PlayerIdentificationChange.objects.order_by("-pk").values("pk")[:1]),
                0,
                output_field=big,
            ),
        )
        .order_by("minimum_cents", "maximum_cents", "game", "name")
        .values_list(
            "pk",
            "name",
            "game",
            "minimum_cents",
            "maximum_cents",
            "seat_count",
            "seated_count",
            "game_open",
            "lists_mark",
            "names_mark",
        )
    )


@cache
def _board_room_statement(alias: str, vendor: str) -> tuple[str, tuple]:
    """``board_room``'s statement as the ORM writes it, written once per database: at 250
    tables building and compiling it cost more than the database takes to answer it."""
    return _board_room_query().query.get_compiler(using=alias).as_sql()


def board_room() -> BoardRoom:
    """The open tables as the board shows them and the lists' and names' change markers
    (``BoardRoom``): one statement, each table's players and open game read in the partial
    indexes of the seats taken and the games open, the markers at the ends of indexes."""
    sql, params = _board_room_statement(connection.alias, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:
        return BoardRoom()
    tables = tuple(
        (pk, name, game, minimum, maximum, seats, seated, bool(game_open))
        for pk, name, game, minimum, maximum, seats, seated, game_open, _, _ in rows
    )
    return BoardRoom(tables=tables, lists=int(rows[0][-2]), names=int(rows[0][-1]))


def _changes_at(view: ListView) -> datetime | None:
    deadlines = [
        moment
        for entry in view.now.entries
        for moment in (entry.call.answer_by if entry.call else None, entry.lapses_at(view.policy))
        if moment is not None
    ]
    return min(deadlines, default=None)


def table_board(
    *, moment: datetime | None = None, room: BoardRoom | None = None
) -> list[BoardStakes]:
    """What the room's table board shows, by game and stakes (the limits, then the game):
    the open tables (seated players, open
    seats, game running), each list's players in order by their board names, and who is
    being called to which seat. A fixed number of queries whatever the size: the tables
    (``room``, read here unless given: read before the lists, so the board is never older
    than the room's markers), then the lists' own."""
    moment = moment or now()
    room = room if room is not None else board_room()
    views = waitlist_views(moment=moment, seats=False)
    by_stakes: dict[Stakes, list[BoardTable]] = {}
    names: dict[int, str] = {}
    for pk, name, game, minimum, maximum, seats, seated, game_open in room.tables:
        names[pk] = name
        by_stakes.setdefault((game, minimum, maximum), []).append(
            BoardTable(name, seated, max(seats - seated, 0), game_open)
        )
    lists = {stakes_of_list(v.waitlist): v for v in views}
    board = []
    for stakes in sorted(set(by_stakes) | set(lists), key=lambda s: (s[1], s[2], s[0])):
        view = lists.get(stakes)
        entries = view.now.entries if view else ()
        board.append(
            BoardStakes(
                game=stakes[0],
                minimum_cents=stakes[1],
                maximum_cents=stakes[2],
                tables=tuple(by_stakes.get(stakes, ())),
                has_list=view is not None,
                waiting=tuple(view.player(e.player).board_name for e in entries),
                calls=tuple(
                    BoardCall(
                        name=view.player(e.player).board_name,
                        table=names.get(e.call.table, ""),
                        seat=e.call.seat,
                        answer_by=e.call.answer_by,
                    )
                    for e in entries
                    if e.call is not None
                ),
                changes_at=_changes_at(view) if view else None,
            )
        )
    return board
