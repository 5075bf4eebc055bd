"""How each EZ Baccarat wager resolves on a coup (docs/rules.md §14.5).

- Player: wins 1 to 1 when the Player hand wins; a tie pushes; otherwise loses.
- Banker: wins 1 to 1 when the Banker hand wins, except with a three-card 7 (a Dragon 7), which
  pushes; a tie pushes; otherwise loses.
- Tie: wins the Tie's pay (8 or 9 to 1) when the totals are equal; otherwise loses.
- Dragon 7: wins its pay when the Banker hand wins with three cards totalling 7; otherwise loses.
- Panda 8: wins its pay when the Player hand wins with three cards totalling 8; otherwise loses.

Every pay is a whole number to 1, so a payout is whole chips of a stake in whole chips: nothing
is rounded off. The result is the room's ``Resolution``, which the coverage law settles.
"""

from __future__ import annotations

from wagers.rules.resolution import Outcome, Resolution

from .coup import Coup, Winner
from .options import BaccaratOptions
from .wagers import BaccaratWager, Stakes

_WIN, _LOSE, _PUSH = Outcome.WIN, Outcome.LOSE, Outcome.PUSH


def odds(kind: BaccaratWager, options: BaccaratOptions) -> int:
    """What the wager pays to 1 when it wins."""
    if kind is BaccaratWager.TIE:
        return options.tie_pays
    if kind is BaccaratWager.DRAGON_7:
        return options.dragon_7_pays
    if kind is BaccaratWager.PANDA_8:
        return options.panda_8_pays
    return 1


def outcome(kind: BaccaratWager, coup: Coup) -> Outcome:
    """Whether the wager wins, loses or pushes on ``coup``."""
    winner = coup.winner
    if kind is BaccaratWager.PLAYER:
        return _PUSH if winner is Winner.TIE else _WIN if winner is Winner.PLAYER else _LOSE
    if kind is BaccaratWager.BANKER:
        if winner is Winner.TIE or coup.dragon_7:
            return _PUSH
        return _WIN if winner is Winner.BANKER else _LOSE
    if kind is BaccaratWager.TIE:
        return _WIN if winner is Winner.TIE else _LOSE
    if kind is BaccaratWager.DRAGON_7:
        return _WIN if coup.dragon_7 else _LOSE
    return _WIN if coup.panda_8 else _LOSE


def resolve_wager(
    kind: BaccaratWager, stake: int, coup: Coup, options: BaccaratOptions
) -> Resolution:
    """One wager of ``stake`` cents resolved: its outcome and, when it wins, its payout."""
    result = outcome(kind, coup)
    payout = stake * odds(kind, options) if result is _WIN else 0
    return Resolution(kind, stake, result, payout)  # type: ignore[arg-type]


def resolve_stakes(stakes: Stakes, coup: Coup, options: BaccaratOptions) -> tuple[Resolution, ...]:
    """Every wager the bettor made, resolved, in the order the seat is settled."""
    return tuple(
        resolve_wager(kind, stake, coup, options) for kind, stake in stakes.in_settlement_order()
    )
