"""The floor's tables, seats and games: who sits at a table now, its open game and round in
play, the tables with all of these (the floor map's list and its versions), seatings and games
as the API lists them, and the button's history (a table's latest hands as the rotation rules
see them)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from cardroom.errors import ACTIVE_ROUND_STATES
from cardroom.filtering import Filters, filter_queryset
from tables.filters import GameFilter, SeatingFilter
from tables.models import BANKED_HAND_FIELDS, Game, Round, Seating, Table, TableOptionChange
from tables.rules.rotation import BankedHand


def _active_seatings() -> QuerySet[Seating]:
    return Seating.objects.filter(left_at__isnull=True).select_related("player").order_by("seat")


def seated(table: Table) -> list[Seating]:
    """Who sits at ``table`` now, seat by seat."""
    return list(_active_seatings().filter(table=table))


def open_game(table: Table) -> Game | None:
    return Game.objects.filter(table=table, ended_at__isnull=True).first()


def active_round(table: Table) -> Round | None:
    """The round in play at ``table`` (at most one), with its player-dealer."""
    return (
        Round.objects.filter(table=table, state__in=ACTIVE_ROUND_STATES)
        .select_related("player_dealer")
        .first()
    )


def table_list() -> QuerySet[Table]:
    """Every table with who closed it, its seated players, open game and round in play (four
    queries)."""
    return Table.objects.select_related("closed_by").prefetch_related(
        Prefetch("seatings", queryset=_active_seatings(), to_attr="seated"),
        Prefetch("games", queryset=Game.objects.filter(ended_at__isnull=True), to_attr="open"),
        Prefetch(
            "rounds",
            queryset=Round.objects.filter(state__in=ACTIVE_ROUND_STATES).select_related(
                "player_dealer"
            ),
            to_attr="in_play",
        ),
    )


def floor_versions() -> list[tuple[int, int]]:
    """Each table's id and version (bumped by every write that holds its lock), in the floor
    map's order: one query, what a poll of the floor map reads before anything else."""
    return list(Table.objects.order_by("name").values_list("pk", "version"))


def table_get(*, table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def table_option_change_list(*, table_id: int) -> QuerySet[TableOptionChange]:
    table = Table.objects.only("id").get(pk=table_id)
    return TableOptionChange.objects.filter(table=table).select_related("changed_by")


def seating_list(*, filters: Filters = None) -> QuerySet[Seating]:
    queryset = Seating.objects.select_related("player", "seated_by", "unseated_by")
    return filter_queryset(SeatingFilter, filters, queryset)


def seating_get(*, seating_id: int) -> Seating:
    return Seating.objects.select_related("player", "seated_by", "unseated_by").get(pk=seating_id)


def game_list(*, filters: Filters = None) -> QuerySet[Game]:
    queryset = Game.objects.select_related("opened_by", "ended_by")
    return filter_queryset(GameFilter, filters, queryset)


def game_get(*, game_id: int) -> Game:
    return Game.objects.select_related("opened_by", "ended_by").get(pk=game_id)


# --- The button's history ---------------------------------------------------------------

# How many of a table's latest hands the rotation rules look back at (two consecutive
# hands, a TPPP's last hand): a few more than they need.
HISTORY_HANDS = 8


def banked_hands(rounds: QuerySet[Round]) -> list[BankedHand]:
    """``rounds`` as the rotation rules see them, in the queryset's order (one query)."""
    return [BankedHand(*row) for row in rounds.values_list(*BANKED_HAND_FIELDS)]


def banked_history(table: Table, *, last: int = HISTORY_HANDS) -> list[BankedHand]:
    """The table's most recent hands, oldest first (voided ones too: their player-dealer
    held the position)."""
    return banked_hands(Round.objects.filter(table=table).order_by("-number")[:last])[::-1]


def game_history_since(game: Game, since) -> list[BankedHand]:
    return banked_hands(Round.objects.filter(game=game, started_at__gt=since).order_by("number"))
