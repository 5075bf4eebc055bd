"""Checks of the floor that refuse an action, worded once for every caller.

They read nothing themselves: callers pass what they loaded (a service under the table's
lock, a selector for the page). No writes here.
"""

from __future__ import annotations

from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import Game, Round, Seating, Table


def no_game_error(table: Table) -> StateError:
    return StateError(
        f"no game is open at {table}; a floor supervisor opens it",
        state=State.NO_GAME,
        rule=Rule.GAME,
    )


def round_in_play_error(round_: Round, *, action: str) -> StateError:
    """``action`` (e.g. "change options") waits until the round in play is settled or void."""
    return StateError(
        f"round {round_.number} is {round_.get_state_display().lower()}; {action} between hands",
        state=State(round_.state),
        rule=Rule.ROUND_SEQUENCE,
    )


def table_closed_error(table: Table, *, action: str) -> StateError:
    """``action`` (e.g. "a player sits") waits until a floor supervisor reopens the table."""
    return StateError(
        f"{table} is closed; a floor supervisor reopens it before {action}",
        state=State.TABLE_CLOSED,
        rule=Rule.CLOSED_TABLE,
    )


def require_table_open(table: Table, *, action: str) -> None:
    """A closed table seats no one, opens no game and takes no chips (docs/rules.md §3.7)."""
    if table.closed_at is not None:
        raise table_closed_error(table, action=action)


def require_closable(table: Table, round_: Round | None) -> None:
    """A table closes once, between hands (docs/rules.md §3.7)."""
    if table.closed_at is not None:
        raise StateError(
            f"{table} is already closed", state=State.TABLE_CLOSED, rule=Rule.CLOSED_TABLE
        )
    require_no_round_in_play(round_, action="a table closes")


def require_open_game(table: Table, game: Game | None) -> Game:
    if game is None:
        raise no_game_error(table)
    return game


def require_no_round_in_play(round_: Round | None, *, action: str) -> None:
    if round_ is not None:
        raise round_in_play_error(round_, action=action)


def require_state(round_: Round, *states: State, action: str) -> None:
    """The round's steps come in order, each once (docs/rules.md §2.4)."""
    if round_.state not in states:
        allowed = " or ".join(State(s).label.lower() for s in states)
        raise StateError(
            f"cannot {action}: round {round_.number} is {round_.get_state_display().lower()}, "
            f"not {allowed}",
            state=State(round_.state),
            rule=Rule.ROUND_SEQUENCE,
        )


def check_admission(round_: Round, seat: int, seating: Seating | None) -> None:
    """Only a seated player who is neither the player-dealer nor a TPPP plays a hand."""
    if seating is None:
        raise RuleError(f"seat {seat} is empty", rule=Rule.SEATS, field="seat")
    if seat == round_.player_dealer_seat:
        raise RuleError(
            f"seat {seat} is the player-dealer; no one wagers on the player-dealer position",
            rule=Rule.PLAYER_DEALER_SEAT,
            field="seat",
        )
    if seating.is_tppp:
        raise RuleError(
            f"seat {seat} is a TPPP player, who accepts and settles wagers only while holding "
            "the player-dealer position",
            rule=Rule.TPPP_BANKS_ONLY,
            field="seat",
        )


def excluded_error(exclusion, *, action: str) -> RuleError:
    """A barred or self-restricted patron (docs/rules.md §3.9) is refused ``action``."""
    return RuleError(
        f"{exclusion.player.name} is {exclusion.words} and is refused {action}",
        rule=Rule.EXCLUDED,
        field="player",
    )


def require_not_excluded(exclusion, *, action: str) -> None:
    """``exclusion``: the entry in force today
    (``tables.selectors.exclusions.exclusion_in_force``)."""
    if exclusion is not None:
        raise excluded_error(exclusion, action=action)
