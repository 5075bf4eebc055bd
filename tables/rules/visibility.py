"""Who may see which card, in which state of a hand (docs/rules.md §2.6).

One rule for every place that shows cards: the API, the console (the table view and its card
pickers), the admin and every report. It does not depend on who asks: no role, staff or
otherwise, and no channel is exempt.

- The board (the community cards shown so far) is seen by everyone, in every state: it holds
  only the cards already turned face up.
- A hole card (the player-dealer's or a seat's) and the stored RNG deck (which holds every
  hole card and the board still to come) are seen by no one before the hand reaches the
  showdown; from the showdown on (``showdown``, ``settled``) by whoever may see the hand.
- A voided hand shows them only if it had reached the showdown before it was voided (its
  cards were then face up on the layout). A hand voided earlier keeps them withheld for
  good: they were never shown at the table, the hand has no result that needs them, and the
  void's reason is its record. They stay stored (history is never edited, §10.1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import TypeVar

from cardroom.errors import State

T = TypeVar("T")


class CardKind(StrEnum):
    """The kinds of card a hand stores."""

    label: str

    def __new__(cls, value: str, label: str) -> CardKind:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member

    BOARD = "board", "the community cards shown so far"
    PLAYER_DEALER_HOLE = "player_dealer_hole", "the player-dealer's hole cards"
    PLAYER_HOLE = "player_hole", "a seat's hole cards"
    DECK = "deck", "the stored RNG deck"


# The kinds that are secret until the showdown.
SECRET_KINDS = frozenset({CardKind.PLAYER_DEALER_HOLE, CardKind.PLAYER_HOLE, CardKind.DECK})
# The states in which the secret kinds are shown: the hand has reached the showdown.
SHOWN_STATES = frozenset({State.SHOWDOWN, State.SETTLED})
# The states in which they are shown only if the hand had reached the showdown before.
SHOWN_IF_SHOWDOWN_REACHED = frozenset({State.VOIDED})


def card_visible(kind: CardKind | str, state: State | str, *, reached_showdown: bool) -> bool:
    """Whether anyone may see cards of ``kind`` of a hand in ``state``.

    ``reached_showdown`` says whether the hand entered the showdown; it is read only for a
    voided hand (every other state says it by itself).
    """
    kind, state = CardKind(kind), State(state)
    if kind not in SECRET_KINDS:
        return True
    if state in SHOWN_STATES:
        return True
    return state in SHOWN_IF_SHOWDOWN_REACHED and reached_showdown


def shown(
    kind: CardKind | str, state: State | str, cards: T, *, reached_showdown: bool
) -> T | None:
    """``cards`` if they may be seen, else None (withheld)."""
    return cards if card_visible(kind, state, reached_showdown=reached_showdown) else None


def visible_cards(
    state: State | str,
    *,
    reached_showdown: bool,
    board: Sequence[str] = (),
    player_dealer_hole: Sequence[str] | None = None,
    player_holes: Iterable[Sequence[str] | None] = (),
) -> list[str]:
    """Every card of a hand that may be seen in ``state``: the board, then the hole cards
    once they are shown. A card picker knows only these (docs/rules.md §2.6)."""
    cards = list(board)
    if card_visible(CardKind.PLAYER_DEALER_HOLE, state, reached_showdown=reached_showdown):
        cards += list(player_dealer_hole or ())
    if card_visible(CardKind.PLAYER_HOLE, state, reached_showdown=reached_showdown):
        for hole in player_holes:
            cards += list(hole or ())
    return cards
