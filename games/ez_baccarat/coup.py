"""The coup: the deal and the drawing rules (docs/rules.md §14.3).

Two cards to the Player hand and two to the Banker hand, alternately, Player first. A two-card
8 or 9 on either hand is a natural: no more cards. Otherwise the Player hand draws on 0 to 5 and
stands on 6 or 7; then the Banker hand draws on 0 to 5 if the Player hand stood, or by the table
``BANKER_DRAWS`` (its total and the Player's third card) if it drew. The higher total wins.

``next_draw`` is the rules as one step (which hand takes the next card, or none); ``deal_coup``
deals a coup from any source of cards in order (a shoe), and ``play_out`` checks a coup given as
its cards in dealing order (keyed by a dealer, or given to the calculator), refusing a third card
the rules forbid and a missing one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from cardroom.errors import Rule, RuleError
from tables.rules.cards import Card

from .points import CARD_POINTS, POINTS, point, total


class Hand(Enum):
    PLAYER = "player"
    BANKER = "banker"

    @property
    def label(self) -> str:
        return self.value.title()


class Winner(Enum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


NATURALS = frozenset({8, 9})
# The Player hand's two-card totals on which it draws (it stands on 6 and 7).
PLAYER_DRAWS_ON = frozenset(range(6))
# The Banker hand's totals on which it draws when the Player hand stood.
BANKER_DRAWS_ON = frozenset(range(6))
# When the Player hand drew: the Banker hand's total -> the Player's third-card values on which
# the Banker hand draws (it stands on the others).
BANKER_DRAWS: dict[int, frozenset[int]] = {
    0: frozenset(POINTS),
    1: frozenset(POINTS),
    2: frozenset(POINTS),
    3: frozenset(POINTS) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}
MAX_CARDS = 6


def player_draws(player_total: int) -> bool:
    """Whether the Player hand, with no natural on the table, draws a third card."""
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether the Banker hand, with no natural on the table, draws a third card: on its
    total alone if the Player hand stood (``player_third`` None), else by the table."""
    if player_third is None:
        return banker_total in BANKER_DRAWS_ON
    return player_third in BANKER_DRAWS[banker_total]


def next_draw(player: Sequence[Card], banker: Sequence[Card]) -> Hand | None:
    """The hand that takes the next card of a coup dealt so far by the rules, or None when
    the coup is complete."""
    players, bankers = len(player), len(banker)
    if bankers < 2:  # the first four cards alternate, Player first
        return Hand.PLAYER if players == bankers else Hand.BANKER
    player_total = (CARD_POINTS[player[0]] + CARD_POINTS[player[1]]) % 10
    banker_total = (CARD_POINTS[banker[0]] + CARD_POINTS[banker[1]]) % 10
    if player_total in NATURALS or banker_total in NATURALS or bankers == 3:
        return None
    if players == 2:
        if player_draws(player_total):
            return Hand.PLAYER
        return Hand.BANKER if banker_draws(banker_total, None) else None
    return Hand.BANKER if banker_draws(banker_total, CARD_POINTS[player[2]]) else None


@dataclass(frozen=True)
class Coup:
    """The cards of one coup: the Player hand's and the Banker hand's, each in order."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    @cached_property
    def player_total(self) -> int:
        return total(self.player)

    @cached_property
    def banker_total(self) -> int:
        return total(self.banker)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in dealing order: Player, Banker, Player, Banker, then the third cards."""
        first = (self.player[0], self.banker[0], self.player[1], self.banker[1])
        return first + self.player[2:] + self.banker[2:]

    @property
    def natural(self) -> bool:
        return total(self.player[:2]) in NATURALS or total(self.banker[:2]) in NATURALS

    @cached_property
    def winner(self) -> Winner:
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        if self.banker_total > self.player_total:
            return Winner.BANKER
        return Winner.TIE

    @property
    def dragon_7(self) -> bool:
        """The Banker hand wins with three cards totalling 7."""
        return self.winner is Winner.BANKER and len(self.banker) == 3 and self.banker_total == 7

    @property
    def panda_8(self) -> bool:
        """The Player hand wins with three cards totalling 8."""
        return self.winner is Winner.PLAYER and len(self.player) == 3 and self.player_total == 8


def deal_coup(draw: Callable[[], Card]) -> Coup:
    """Deal a coup by the rules, taking each card from ``draw`` in order."""
    player: list[Card] = []
    banker: list[Card] = []
    while (hand := next_draw(player, banker)) is not None:
        (player if hand is Hand.PLAYER else banker).append(draw())
    return Coup(tuple(player), tuple(banker))


def play_out(cards: Sequence[Card]) -> Coup:
    """The coup of ``cards`` in dealing order, checked against the drawing rules.

    A card where the rules give none (a third card after a natural, a Banker card when the
    Banker stands, a seventh card) is refused naming its index (``[4]``); a coup missing a card
    the rules require is refused with no index.
    """
    player: list[Card] = []
    banker: list[Card] = []
    for index, card in enumerate(cards):
        hand = next_draw(player, banker)
        if hand is None:
            raise RuleError(
                f"no card is dealt here: {_complete(player, banker)}",
                rule=Rule.BACCARAT_DRAWING,
                field=f"[{index}]",
            )
        (player if hand is Hand.PLAYER else banker).append(card)
    hand = next_draw(player, banker)
    if hand is not None:
        raise RuleError(
            f"a card is missing: {_draws(hand, player, banker)}", rule=Rule.BACCARAT_DRAWING
        )
    return Coup(tuple(player), tuple(banker))


def _draws(hand: Hand, player: Sequence[Card], banker: Sequence[Card]) -> str:
    """Why ``hand`` takes the next card, in the floor's words."""
    if len(banker) < 2:
        return f"a coup starts with two cards to each hand, {len(player) + len(banker)} given"
    player_total, banker_total = total(player), total(banker)
    if hand is Hand.PLAYER:
        return f"the Player hand has {player_total} and draws a third card"
    if len(player) == 2:
        return (
            f"the Player hand stood on {player_total}; the Banker hand has {banker_total} "
            "and draws a third card"
        )
    return (
        f"the Banker hand has {banker_total} and draws a third card when the Player's third "
        f"card is a {point(player[2])}"
    )


def _complete(player: Sequence[Card], banker: Sequence[Card]) -> str:
    """Why a complete coup takes no more cards, in the floor's words."""
    player_total, banker_total = total(player[:2]), total(banker[:2])
    if player_total in NATURALS or banker_total in NATURALS:
        hand, natural = (
            ("Player", player_total) if player_total >= banker_total else ("Banker", banker_total)
        )
        return f"the {hand} hand has a natural {natural}, so neither hand draws"
    if len(player) == 2 and len(banker) == 2:
        return f"the Player hand stands on {player_total} and the Banker hand on {banker_total}"
    if len(player) == 3 and len(banker) == 2:
        return (
            f"the Banker hand stands on {banker_total} when the Player's third card is a "
            f"{point(player[2])}"
        )
    return "the coup is complete: each hand has had the cards the rules give it"
