"""A table as the floor sees it now (``TableFloor``: its button's state and its open game's
counters), and the counters of the open games (``tables.rules.counters``) for the floor map and
a table's view, in a fixed number of queries whatever the number of tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Max

from cardroom.clock import now
from tables import options as table_options
from tables.models import BANKED_HAND_FIELDS, Game, OfferRound, Round, Seating, Table
from tables.rules.counters import HOUR, Counters, table_counters, window_limit_at
from tables.rules.rotation import BankedHand
from tables.selectors.button import ButtonState, button_state
from tables.selectors.floor import table_get, table_list


@dataclass(frozen=True)
class TableFloor:
    """A table as the floor sees it now: who sits where, the game, the round, the button,
    and the open game's counters."""

    button: ButtonState
    counters: Counters | None = None

    @property
    def table(self) -> Table:
        return self.button.table

    @property
    def seated(self) -> list[Seating]:
        return self.button.seated

    @property
    def game(self) -> Game | None:
        return self.button.game

    @property
    def active_round(self) -> Round | None:
        return self.button.active_round

    @property
    def offer_round(self) -> OfferRound | None:
        return self.button.offer_round

    @property
    def button_state(self) -> str:
        return self.button.state.value

    @property
    def button_status(self) -> str:
        return self.button.status

    @property
    def keeper_seat(self) -> int | None:
        return self.button.keeper_seat


def table_floor(*, table_id: int, with_counters: bool = False) -> TableFloor:
    """The table now; ``with_counters``: its open game's counters too (six more queries)."""
    counters = table_floor_counters(table_id=table_id, moment=now()) if with_counters else None
    return TableFloor(button_state(table_get(table_id=table_id)), counters=counters)


# --- Floor counters -------------------------------------------------------------------------


def counter_reach(tables: Sequence[Table]) -> timedelta:
    """How far back the counters look: the last hour, or the longest 40-minute-rule window."""
    windows = [table_options.rotation_policy(table_options.snapshot(t)).window for t in tables]
    return max([HOUR, *(w for w in windows if w)])


def recent_banked_hands(games: Sequence[Game], since: datetime) -> dict[int, list[BankedHand]]:
    """The hands of ``games`` started after ``since``, by game, in order (one query)."""
    recent: dict[int, list[BankedHand]] = {}
    rows = (
        Round.objects.filter(game__in=games, started_at__gt=since)
        .order_by("number")
        .values_list(*BANKED_HAND_FIELDS)
    )
    for values in rows:
        hand = BankedHand(*values)
        recent.setdefault(hand.game_id, []).append(hand)
    return recent


def floor_counters(
    tables: Sequence[Table],
    moment: datetime,
    recent: Mapping[int, list[BankedHand]] | None = None,
) -> dict[int, Counters]:
    """The counters of each table's open game (``tables.rules.counters``), by table id, in
    two queries whatever the number of tables (one if ``recent``, from
    ``recent_banked_hands`` since ``counter_reach``, is given): ``tables`` come from
    ``table_list`` (their open game and seated players prefetched)."""
    games = {t.pk: t.open[0] for t in tables if t.open}
    if not games:
        return {}
    if recent is None:
        recent = recent_banked_hands(list(games.values()), moment - counter_reach(tables))
    totals = {
        row["game"]: (row["hands"], row["latest"])
        for row in Round.objects.filter(game__in=games.values())
        .values("game")
        .annotate(hands=Count("pk"), latest=Max("started_at"))
    }
    counted = {}
    for table in tables:
        game = games.get(table.pk)
        if game is None:
            continue
        history = recent.get(game.pk, [])
        hands, latest = totals.get(game.pk, (0, None))
        policy = table_options.rotation_policy(table_options.snapshot(table))
        counted[table.pk] = table_counters(
            moment,
            game.opened_at,
            [h.started_at for h in history],
            {s.seat: s.sat_at for s in table.seated},
            hands=hands,
            latest=latest,
            window_limit=window_limit_at(game.opened_at, moment, history, policy),
        )
    return counted


def table_floor_counters(*, table_id: int, moment: datetime) -> Counters | None:
    """One table's counters (``floor_counters``), or None with no game open."""
    return floor_counters(list(table_list().filter(pk=table_id)), moment).get(table_id)
