"""The must-move and table-change lines (docs/rules.md §3.6), as plain rules: table rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cardroom.errors import Rule, RuleError
from tables.rules.seat_requests import (
    Line,
    Mover,
    offer_order,
    require_must_move,
    require_table_change,
)

T0 = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)


def _m(player, line, minutes, table=9):
    return Mover(player, Line(line), T0 + timedelta(minutes=minutes), table)


@pytest.mark.parametrize(
    "must, changes, passed, expected",
    [
        # nobody in either line: the seat is the list's
        ([], [], [], []),
        # the must-move line first, by arrival at the must-move table, then table changes
        ([(1, 5), (2, 1)], [(3, 0)], [], [2, 1, 3]),
        # table changes, first asked first moved
        ([], [(4, 10), (5, 2), (6, 7)], [], [5, 6, 4]),
        # a player who passed this seat is left out; the others keep their order
        ([(1, 1), (2, 2)], [(3, 3)], [1], [2, 3]),
        # a player in both lines comes once, at their first place
        ([(1, 5)], [(1, 0), (2, 1)], [], [1, 2]),
        # everyone passed: the seat goes to the list
        ([(1, 1)], [(2, 2)], [1, 2], []),
    ],
)
def test_offer_order(must, changes, passed, expected):
    order = offer_order(
        [_m(p, "must_move", t) for p, t in must],
        [_m(p, "table_change", t) for p, t in changes],
        passed=passed,
    )
    assert [m.player for m in order] == expected


@pytest.mark.parametrize(
    "table, main, table_stakes, main_stakes, feeding, field",
    [
        (1, 2, (500, 50_000), (500, 50_000), [], None),
        (1, 1, (500, 50_000), (500, 50_000), [], "main_table"),  # itself
        (1, 2, (500, 50_000), (1000, 50_000), [], "main_table"),  # other stakes
        (1, 2, (500, 50_000), (500, 50_000), [(2, 3)], "main_table"),  # main is a must-move
        (1, 2, (500, 50_000), (500, 50_000), [(3, 1)], "table"),  # table is a main game
        (1, 2, (500, 50_000), (500, 50_000), [(3, 4)], None),  # another link: fine
    ],
)
def test_require_must_move(table, main, table_stakes, main_stakes, feeding, field):
    def check():
        require_must_move(
            table=table,
            main=main,
            table_stakes=table_stakes,
            main_stakes=main_stakes,
            feeding=feeding,
        )

    if field is None:
        check()
        return
    with pytest.raises(RuleError) as refused:
        check()
    assert (refused.value.rule, refused.value.field) == (Rule.MUST_MOVE, field)


@pytest.mark.parametrize(
    "from_table, to_table, to_stakes, refused",
    [
        (1, None, None, False),  # any other table of the stakes
        (1, 2, (500, 50_000), False),  # a named table of the stakes
        (1, 1, (500, 50_000), True),  # the player's own table
        (1, 2, (1000, 100_000), True),  # other stakes: that list instead
    ],
)
def test_require_table_change(from_table, to_table, to_stakes, refused):
    def check():
        require_table_change(
            from_table=from_table,
            to_table=to_table,
            from_stakes=(500, 50_000),
            to_stakes=to_stakes,
        )

    if not refused:
        check()
        return
    with pytest.raises(RuleError) as error:
        check()
    assert (error.value.rule, error.value.field) == (Rule.TABLE_CHANGE, "to_table")
