"""The action on the layout against the bank while wagers are taken (docs/rules.md §14.11).

Every wager of this game resolves on three facts of the coup alone: which hand wins (or a
tie), whether the Banker wins with a three-card 7 (a Dragon 7) and whether the Player wins with
a three-card 8 (a Panda 8) (``resolution.outcome``). So there are exactly five outcomes a coup
can have for the layout, and every coup the drawing rules allow has one of them:

- the Player wins without a Panda 8, or with one;
- the Banker wins without a Dragon 7, or with one (the Banker wagers push, the Dragon 7 wins);
- a tie (the base wagers push, the Tie wins, the Dragon 7 and the Panda 8 lose).

Each outcome is played on a coup that has it (``COUPS``: real cards, dealt by the rules),
every wager resolved by the rules core and settled in the order of §14.6 by the coverage law,
exactly as the settlement would do it. The figures are exact, not bounds:

- **Worst**: of the five, the outcome that costs the bank the most (the player-dealer's
  result, lowest first), then the one that leaves the most unpaid, uncovered, then the one that
  owes the winners the most. No coup costs the bank more or leaves more unpaid, and the coups of
  that outcome cost exactly this.
- **Likely**: the base wagers decide the coup and no side wager hits: the Player wins without a
  Panda 8, or the Banker wins without a Dragon 7, whichever costs the bank more (chosen the same
  way); every Tie, Dragon 7 and Panda 8 loses. It is one of the five, so it never costs the
  bank more than the worst, nor leaves more unpaid. (It may owe the winners more than the worst
  does: the worst may be a tie that owes little but collects nothing.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from tables.rules.cards import parse_card
from wagers.rules.layout import BankAction, Exposure, exposure_of

from .coup import Coup, play_out
from .options import BaccaratOptions
from .settlement import settle
from .wagers import BaccaratWager, Stakes


class Case(Enum):
    """An outcome of the coup, as far as the layout can tell: every wager resolves on it."""

    PLAYER = "player"
    PANDA_8 = "panda_8"
    BANKER = "banker"
    DRAGON_7 = "dragon_7"
    TIE = "tie"


# A coup of each outcome, its cards in dealing order (Player, Banker, Player, Banker, then the
# third cards): a natural 9 against 0 either way; a Player 2-3 drawing a 3 for 8 against a
# Banker 0 drawing a 5; a Banker 4-K drawing a 3 for 7 against a Player 2-3 drawing a 6 for 1;
# two natural 9s.
_CARDS: dict[Case, str] = {
    Case.PLAYER: "9h Kd Kc Ks",
    Case.PANDA_8: "2h Kd 3c Ks 3s 5d",
    Case.BANKER: "Kh 9d Kc Ks",
    Case.DRAGON_7: "2h 4d 3c Ks 6s 3h",
    Case.TIE: "9h 9d Kc Ks",
}
COUPS: dict[Case, Coup] = {
    case: play_out([parse_card(code) for code in cards.split()]) for case, cards in _CARDS.items()
}
# The base wagers' own outcomes, with no side wager hitting: the likely case's candidates.
BASE_CASES = (Case.PLAYER, Case.BANKER)


def case_of(coup: Coup) -> Case:
    """The outcome ``coup`` has for the layout."""
    if coup.dragon_7:
        return Case.DRAGON_7
    if coup.panda_8:
        return Case.PANDA_8
    return Case(coup.winner.value)


def words(case: Case, options: BaccaratOptions) -> str:
    """The outcome in the floor's words, with the pay of the side wager it wins."""
    if case is Case.PLAYER:
        return "the Player wins, no Panda 8"
    if case is Case.PANDA_8:
        return f"the Player wins with a Panda 8 ({options.panda_8_pays} to 1)"
    if case is Case.BANKER:
        return "the Banker wins, no Dragon 7"
    if case is Case.DRAGON_7:
        return (
            f"the Banker wins with a Dragon 7 ({options.dragon_7_pays} to 1; "
            "the Banker wagers push)"
        )
    return f"a tie (the Tie at {options.tie_pays} to 1; the Player and Banker wagers push)"


def _cost(figures: Exposure) -> tuple[int, int, int]:
    """What makes one case worse for the bank than another: its result (a loss first), what
    it leaves unpaid, what it owes the winners."""
    return (-figures.net, figures.uncovered, figures.owed)


def stakes_by_seat(layout: Mapping[int, Sequence[Mapping[str, int]]]) -> dict[int, Stakes]:
    """Each wagering seat's stakes (the seated player's: no one bets behind a seat here)."""
    return {
        seat: Stakes(**{kind.value: bettors[0].get(kind.value, 0) for kind in BaccaratWager})
        for seat, bettors in layout.items()
        if bettors
    }


def case_figures(
    case: Case,
    bank: int,
    player_dealer_seat: int,
    stakes: Mapping[int, Stakes],
    options: BaccaratOptions,
) -> Exposure:
    """The layout settled against the bank on a coup of ``case`` (``settlement.settle``)."""
    settled = settle(player_dealer_seat, bank, stakes, COUPS[case], options)
    return exposure_of(settled, words(case, options))


def action_against_the_bank(
    bank: int,
    player_dealer_seat: int,
    layout: Mapping[int, Sequence[Mapping[str, int]]],
    options: BaccaratOptions,
) -> BankAction:
    """The likely case and the worst of the layout against a bank of ``bank`` cents (see the
    module's docstring). ``layout[seat]`` lists the seat's bettors' stakes by square name."""
    stakes = stakes_by_seat(layout)
    figures = {case: case_figures(case, bank, player_dealer_seat, stakes, options) for case in Case}
    return BankAction(
        likely=max((figures[case] for case in BASE_CASES), key=_cost),
        worst=max(figures.values(), key=_cost),
    )
