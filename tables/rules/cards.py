"""Cards: parsing, formatting and the 52-card deck (docs/rules.md §1.1-§1.2).

A card is an ``int`` subclass numbered ``rank * 4 + suit`` (ranks 2..A as
0..12, suits c, d, h, s as 0..3). That is exactly the numbering phevaluator
uses, so cards go to the evaluator with no conversion on the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.errors import Rule, RuleError

RANKS = "23456789TJQKA"
SUITS = "cdhs"


class Card(int):
    """One playing card; ``str(card)`` gives its two-character code, e.g. ``As``."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise RuleError(f"{index!r} is not a card number (0-51)", rule=Rule.CARD)
        return super().__new__(cls, index)

    @property
    def rank(self) -> int:
        """0 for a deuce up to 12 for an ace."""
        return self >> 2

    @property
    def suit(self) -> str:
        return SUITS[self & 3]

    def __str__(self) -> str:
        return RANKS[self >> 2] + SUITS[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))


_BY_CODE: dict[str, Card] = {str(card): card for card in FULL_DECK}


def parse_card(text: object) -> Card:
    """``"As"`` -> the ace of spades. Rank ``23456789TJQKA`` then suit ``cdhs``."""
    card = _BY_CODE.get(text) if isinstance(text, str) else None
    if card is not None:
        return card
    if not isinstance(text, str) or len(text) != 2:
        raise RuleError(
            f"{text!r} is not a card: write rank (23456789TJQKA) then suit (cdhs), e.g. 'As'",
            rule=Rule.CARD,
        )
    rank, suit = RANKS.find(text[0]), SUITS.find(text[1])
    if rank < 0 or suit < 0:
        raise RuleError(
            f"{text!r} is not a card: write rank (23456789TJQKA) then suit (cdhs), e.g. 'As'",
            rule=Rule.CARD,
        )
    return FULL_DECK[rank * 4 + suit]


def parse_cards(texts: object, *, count: int | None = None) -> tuple[Card, ...]:
    """Parse a list of card codes, refusing malformed codes, duplicates and a wrong count."""
    if not isinstance(texts, list | tuple):
        raise RuleError("expected a list of cards", rule=Rule.CARD)
    if count is not None and len(texts) != count:
        raise RuleError(f"expected {count} cards, got {len(texts)}", rule=Rule.CARD)
    cards: list[Card] = []
    seen: set[int] = set()
    for index, text in enumerate(texts):
        try:
            card = parse_card(text)
        except RuleError as error:
            raise error.with_field(f"[{index}]") from None
        if card in seen:
            raise RuleError(f"card {card} appears twice", rule=Rule.CARD_ONCE, field=f"[{index}]")
        seen.add(card)
        cards.append(card)
    return tuple(cards)


# How a card is written, for a refusal that does not repeat what was typed.
CARD_CODE = "write the rank (23456789TJQKA) then the suit (cdhs)"


def parse_keyed_cards(texts: object, *, count: int, owner: str) -> tuple[Card, ...]:
    """The ``count`` cards the house dealer keyed for ``owner`` ("the flop", "seat 3"), as
    ``parse_cards`` reads them; a refusal names the card's place (``[1]``, "card 2 keyed
    for seat 3"), never what was typed: a typed card may be someone's hole card, secret
    until the showdown (docs/rules.md §2.3, §2.6)."""
    if texts is None:
        raise RuleError(f"no cards were keyed for {owner}: {count} are needed", rule=Rule.CARD)
    if not isinstance(texts, list | tuple):
        raise RuleError(f"the cards keyed for {owner} must be a list of {count}", rule=Rule.CARD)
    if len(texts) != count:
        raise RuleError(
            f"{count} cards are needed for {owner}, {len(texts)} were keyed", rule=Rule.CARD
        )
    cards: list[Card] = []
    for index, text in enumerate(texts):
        try:
            card = parse_card(text)
        except RuleError:
            raise RuleError(
                f"card {index + 1} keyed for {owner} is not a card: {CARD_CODE}",
                rule=Rule.CARD,
                field=f"[{index}]",
            ) from None
        if card in cards:
            raise RuleError(
                f"cards {cards.index(card) + 1} and {index + 1} keyed for {owner} are the same "
                "card",
                rule=Rule.CARD_ONCE,
                field=f"[{index}]",
            )
        cards.append(card)
    return tuple(cards)


def ensure_keyed_once(groups: Iterable[tuple[str, str, Iterable[Card]]]) -> None:
    """No card twice among ``groups`` of (where, field, cards), e.g. ("on the board", ...),
    ("keyed for seat 3", "hands.3", ...): a refusal names the field and both places the card
    is in, never the card (docs/rules.md §1.2, §2.6)."""
    first: dict[Card, str] = {}
    for where, field, cards in groups:
        for card in cards:
            if card in first:
                raise RuleError(
                    f"a card {where} is also {first[card]}", rule=Rule.CARD_ONCE, field=field
                )
            first[card] = where


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise if any card appears twice (phevaluator would silently accept it)."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise RuleError(f"card {card} appears twice", rule=Rule.CARD_ONCE)
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]
