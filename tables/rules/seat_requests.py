"""Must-move tables and table changes (docs/rules.md §3.6), in plain Python.

Two lines of seated players come before a waitlist for a seat that opens:

- a **must-move** table feeds a main game of the same stakes: when a seat opens at the main
  table, the must-move table's players are offered it first, in the order they sat down at the
  must-move table (first come, first moved);
- a **table change**: a seated player asked to move to a named table, or to any other table of
  the stakes they play; offered a seat there after the must-move line, first asked, first
  moved.

Only then is the seat the list's (``tables.rules.waitlist``). A player who passes the seat
offered keeps their place in their line for the next one; a player in both lines is offered
the seat once, at their first place.

Refusals: a must-move feeds another open table of the same stakes, one main game per
must-move table and one must-move table per main game, never a chain (``waitlist.must_move``);
a table change is asked by a seated player, for another open table of the stakes they play
(``waitlist.table_change``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from cardroom.errors import Rule, RuleError


class Line(StrEnum):
    """The line a seated player is offered a seat from."""

    MUST_MOVE = "must_move"
    TABLE_CHANGE = "table_change"


LINE_WORDS = {Line.MUST_MOVE: "must move", Line.TABLE_CHANGE: "table change"}


class End(StrEnum):
    """Why a must-move link or a table change ended."""

    MOVED = "moved"  # table change: the player sat down at another table
    CANCELLED = "cancelled"  # by the floor, at the player's wish
    LEFT = "left"  # the player left their seat without moving
    ENDED = "ended"  # must-move: the floor ended it (the main game is full for good, ...)
    TABLE_CLOSED = "table_closed"
    LIMITS_CHANGED = "limits_changed"


END_WORDS = {
    End.MOVED: "moved",
    End.CANCELLED: "cancelled",
    End.LEFT: "left the table",
    End.ENDED: "ended by the floor",
    End.TABLE_CLOSED: "the table closed",
    End.LIMITS_CHANGED: "the table changed its limits",
}


@dataclass(frozen=True)
class Mover:
    """A seated player in a line for a seat: since when (sat down at the must-move table, or
    asked for the change) and from which table."""

    player: int
    line: Line
    since: datetime
    from_table: int
    order: int = 0  # a tie-break: the seating's or the request's id


def offer_order(
    must_move: Iterable[Mover], table_changes: Iterable[Mover], *, passed: Iterable[int] = ()
) -> list[Mover]:
    """Who is offered an open seat before the list, in order: the must-move line (first
    seated, first moved), then the table changes (first asked, first moved); those who passed
    this seat are left out, and a player in both lines comes once, at the first."""
    skip = set(passed)
    ordered = [
        *sorted(must_move, key=lambda m: (m.since, m.order)),
        *sorted(table_changes, key=lambda m: (m.since, m.order)),
    ]
    seen: set[int] = set()
    offered = []
    for mover in ordered:
        if mover.player in skip or mover.player in seen:
            continue
        seen.add(mover.player)
        offered.append(mover)
    return offered


Stakes = tuple[int, int, str]  # minimum, maximum, the game


def require_must_move(
    *,
    table: int,
    main: int,
    table_stakes: Stakes,
    main_stakes: Stakes,
    feeding: Iterable[tuple[int, int]],
) -> None:
    """A must-move link ``table`` → ``main`` is allowed: two tables, the same stakes, and no
    chain with the links in force (``feeding``: (must-move table, main table) pairs)."""
    if table == main:
        raise RuleError(
            "a must-move table feeds another table", rule=Rule.MUST_MOVE, field="main_table"
        )
    if table_stakes != main_stakes:
        raise RuleError(
            "a must-move table feeds a main game of the same stakes",
            rule=Rule.MUST_MOVE,
            field="main_table",
        )
    links = list(feeding)
    if any(main == t for t, _ in links):
        raise RuleError(
            "the main game is itself a must-move table: one main game, fed directly",
            rule=Rule.MUST_MOVE,
            field="main_table",
        )
    if any(table == m for _, m in links):
        raise RuleError(
            "this table is a main game fed by a must-move table: it is not a must-move too",
            rule=Rule.MUST_MOVE,
            field="table",
        )


def require_table_change(
    *, from_table: int, to_table: int | None, from_stakes: Stakes, to_stakes: Stakes | None
) -> None:
    """A table change asks for another table of the stakes the player plays (``to_table``
    None: any of them)."""
    if to_table is None:
        return
    if to_table == from_table:
        raise RuleError(
            "the player is already at that table: a table change is to another table",
            rule=Rule.TABLE_CHANGE,
            field="to_table",
        )
    if to_stakes != from_stakes:
        raise RuleError(
            "a table change is to a table of the stakes the player plays; for other stakes "
            "the player joins that list",
            rule=Rule.TABLE_CHANGE,
            field="to_table",
        )
