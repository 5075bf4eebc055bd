"""Pieces every report shares: the header, the tables in scope, streaming a query."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from games import catalog
from tables.models import Table

from .parameters import Period

CHUNK = 5_000


def stream(queryset: QuerySet, chunk_size: int = CHUNK):
    """Rows through a server-side cursor on PostgreSQL (chunked fetches elsewhere)."""
    return queryset.iterator(chunk_size=chunk_size)


def tables_in_scope(period: Period) -> QuerySet[Table]:
    tables = Table.objects.filter(created_at__lt=period.end).order_by("name", "id")
    if period.table_id is not None:
        tables = tables.filter(pk=period.table_id)
    return tables


def games_in_scope(period: Period) -> str:
    """Each game of the tables in scope with its tables, in the room's words: "Ultimate Texas
    Hold'em: UTH-1, UTH-2; EZ Baccarat: BAC-1" (the header's "games" line, so every report
    and its PDF says which game each table plays)."""
    by_game: dict[str, list[str]] = {}
    for name, game in tables_in_scope(period).values_list("name", "game"):
        by_game.setdefault(game, []).append(name)
    return "; ".join(
        f"{catalog.listing(game).name}: {', '.join(names)}" for game, names in by_game.items()
    )


def header(title: str, period: Period, *, is_open: bool, extra=()) -> list[tuple[str, str]]:
    if period.table_id is None:
        scope = "all tables"
    else:
        scope = Table.objects.filter(pk=period.table_id).values_list("name", flat=True).get()
    days = (
        period.from_day.isoformat()
        if period.from_day == period.to_day
        else f"{period.from_day.isoformat()} to {period.to_day.isoformat()}"
    )
    return [
        ("period", f"gaming day{'' if period.from_day == period.to_day else 's'} {days}"),
        ("from", period.start.isoformat()),
        ("until", period.end.isoformat()),
        ("gaming day starts", f"{settings.CARDROOM_GAMING_DAY_START:%H:%M} {settings.TIME_ZONE}"),
        ("tables", scope),
        ("games", games_in_scope(period) or "no table"),
        (
            "period status",
            "OPEN: the period has not ended; figures may still change" if is_open else "closed",
        ),
        *extra,
    ]
