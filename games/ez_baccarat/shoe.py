"""The shoe (docs/rules.md §14.2).

A shoe is 6 or 8 standard decks shuffled by the operating system's CSPRNG when it starts. Its
first card is shown and that many more are burned (a card worth 0 burns 10); the shown card is
burned too. Cards are then dealt in order, a coup at a time. The cut card sits ``cut_card``
cards from the end: the hand in progress when it comes out is finished from the cards behind
it, and the next hand needs a new shoe.

``Shoe`` is an immutable value the floor keeps between hands as JSON (``to_json``,
``from_json``): the order, the next position, the cut card's position and the burned cards. Its
order is a secret like a deck's until the cards are dealt (its repr shows none of it). A
``Shoe`` is checked whenever one is made: it holds exactly ``decks`` of every card, its burn
follows the rule, and it never deals a card it does not hold.

A card-entry table has no order: its dealer keys the cards as they come out, and ``check_held``
refuses a card the shoe cannot hold (a ninth Ace of spades in an 8-deck shoe).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.errors import Rule, RuleError, State, StateError
from tables.rules.cards import FULL_DECK, Card, format_cards, parse_card
from tables.rules.deck import shuffled

from .coup import Coup, deal_coup
from .options import CUT_CARD_MAX, CUT_CARD_MIN, DECK_COUNTS, BaccaratOptions
from .points import point

ZERO_BURNS = 10  # a first card worth 0 burns ten


def shoe_cards(decks: int) -> tuple[Card, ...]:
    """The cards of a shoe of ``decks`` decks, unshuffled."""
    return FULL_DECK * decks


def burn_count(first: Card) -> int:
    """How many cards the shown first card burns after itself: its points, 10 for a 0."""
    return point(first) or ZERO_BURNS


def check_held(cards: Sequence[Card], decks: int, *, already: Iterable[Card] = ()) -> None:
    """Refuse a card a shoe of ``decks`` decks cannot hold: with ``already`` (the cards
    recorded against the shoe so far), more than ``decks`` of one card. The error names the
    card's index in ``cards`` (``[5]``)."""
    seen = Counter(already)
    for index, card in enumerate(cards):
        seen[card] += 1
        if seen[card] > decks:
            raise RuleError(
                f"a shoe of {decks} decks holds {decks} of the {card}, not {seen[card]}",
                rule=Rule.BACCARAT_SHOE,
                field=f"[{index}]",
            )


@dataclass(frozen=True)
class Shoe:
    """A shuffled shoe, burned, and how far it is dealt.

    ``order`` is every card, top first; ``burned`` the shown first card and the cards it
    burned (the top of ``order``); ``position`` the index of the next card to deal;
    ``cut_position`` the index of the first card behind the cut card.
    """

    decks: int
    cut_position: int
    position: int
    order: tuple[Card, ...] = field(repr=False)
    burned: tuple[Card, ...] = field(repr=False)

    def __post_init__(self) -> None:
        if self.decks not in DECK_COUNTS:
            raise _bad(f"a shoe has 6 or 8 decks, not {self.decks!r}", "decks")
        if Counter(self.order) != Counter(shoe_cards(self.decks)):
            raise _bad(f"the order must hold exactly {self.decks} of every card", "order")
        size = len(self.order)
        if not size - CUT_CARD_MAX <= self.cut_position <= size - CUT_CARD_MIN:
            raise _bad(
                f"the cut card sits {CUT_CARD_MIN} to {CUT_CARD_MAX} cards from the end",
                "cut_position",
            )
        burned = 1 + burn_count(self.order[0])
        if self.burned != self.order[:burned]:
            raise _bad(
                f"the first card, {self.order[0]}, is shown and burns the {burned - 1} after it",
                "burned",
            )
        if not burned <= self.position <= size:
            raise _bad(f"the next card is one of cards {burned} to {size}", "position")

    @classmethod
    def shuffled(cls, options: BaccaratOptions, rng: random.Random | None = None) -> Shoe:
        """A new shoe for a table with ``options``: shuffled (the CSPRNG unless ``rng`` is
        given), its first card shown and the burn made."""
        order = shuffled(shoe_cards(options.decks), rng)
        burned = order[: 1 + burn_count(order[0])]
        return cls(
            decks=options.decks,
            cut_position=len(order) - options.cut_card,
            position=len(burned),
            order=order,
            burned=burned,
        )

    @property
    def shown_card(self) -> Card:
        """The first card, shown to the table when the shoe starts (it is burned too)."""
        return self.burned[0]

    @property
    def dealt(self) -> tuple[Card, ...]:
        """The cards dealt from the shoe so far, in order (the burn apart)."""
        return self.order[len(self.burned) : self.position]

    @property
    def remaining(self) -> int:
        """How many cards are left in the shoe."""
        return len(self.order) - self.position

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out: a card behind it has been dealt."""
        return self.position > self.cut_position

    def require_next_hand(self) -> None:
        """Refuse a new hand from a shoe whose cut card is out."""
        if self.cut_card_out:
            raise StateError(
                "the cut card has come out: the next hand starts a new shoe",
                state=State.SHOE_FINISHED,
                rule=Rule.BACCARAT_SHOE,
            )

    def deal(self) -> tuple[Card, Shoe]:
        """The next card and the shoe after it; refused when the shoe is empty."""
        if self.position == len(self.order):
            raise RuleError("the shoe has no card left", rule=Rule.BACCARAT_SHOE)
        card = self.order[self.position]
        return card, self._at(self.position + 1)

    def deal_coup(self) -> tuple[Coup, Shoe]:
        """A coup dealt from the top by the drawing rules, and the shoe after it. Refused from
        a shoe whose cut card came out before this hand; a hand during which it comes out is
        finished."""
        self.require_next_hand()
        shoe = self

        def draw() -> Card:
            nonlocal shoe
            card, shoe = shoe.deal()
            return card

        return deal_coup(draw), shoe

    def _at(self, position: int) -> Shoe:
        """This shoe at the next ``position`` (its order and burn were checked when it was
        made: only the position moves, within the order)."""
        shoe = copy.copy(self)
        object.__setattr__(shoe, "position", position)
        return shoe

    def to_json(self) -> dict[str, Any]:
        """The shoe as the floor keeps it (a secret until dealt: never shown as it is)."""
        return {
            "decks": self.decks,
            "order": format_cards(self.order),
            "position": self.position,
            "cut_position": self.cut_position,
            "burned": format_cards(self.burned),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Shoe:
        """A shoe kept by ``to_json``, checked as any shoe is."""
        if not isinstance(data, Mapping) or set(data) != set(_JSON_FIELDS):
            raise _bad(f"a shoe is an object of {', '.join(_JSON_FIELDS)}", None)
        for name in ("decks", "position", "cut_position"):
            if type(data[name]) is not int:
                raise _bad(f"{name} is a whole number", name)
        return cls(
            decks=data["decks"],
            cut_position=data["cut_position"],
            position=data["position"],
            order=_cards(data["order"], "order"),
            burned=_cards(data["burned"], "burned"),
        )


_JSON_FIELDS = ("decks", "order", "position", "cut_position", "burned")


def _cards(codes: object, name: str) -> tuple[Card, ...]:
    if not isinstance(codes, list) or not codes:
        raise _bad("a non-empty list of cards", name)
    cards = []
    for index, code in enumerate(codes):
        card = _BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:  # not a card: parse_card says why
            try:
                card = parse_card(code)
            except RuleError as error:
                raise error.with_field(f"{name}[{index}]") from None
        cards.append(card)
    return tuple(cards)


_BY_CODE = {str(card): card for card in FULL_DECK}  # a shoe's 416 codes are read at once


def _bad(message: str, name: str | None) -> RuleError:
    return RuleError(message, rule=Rule.BACCARAT_SHOE, field=name)
