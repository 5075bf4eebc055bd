"""The one small interface every game of the room offers (docs/architecture.md, "Adding a game").

A game is one package of plain Python under ``games/``. It describes itself twice, in two
layers, because the floor sits below the money layer (import-linter's ``layers``):

- ``Listing`` (the package's ``listing`` module, listed in ``games.catalog``): what the floor
  needs of it: its name, its seats, its own options with their labels and defaults, how a
  table's sheet becomes the rules core's options, and the console's tablet. It imports only
  the floor's rules (``tables.rules``) and the kernel's plain modules.
- ``Game`` (the package's ``game`` module, listed in ``games.registry``): the rest: its betting
  squares, its steps between "no more bets" and the showdown, its cards, the settlement
  calculator, the exact game math. The money layer, the fees, the round lifecycle, the
  calculator, the ``game_math`` command and the console read it.

Nothing of the apps tests a game's name: what differs between games is here; what is the same
for every game (the button and the rotation, the coverage-limited settlement, the fee engine,
the ledger's postings, the theo) is written once in the apps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tables.rules.options import OptionLabel


@dataclass(frozen=True)
class Dealt:
    """A hand dealt from a shoe: each hand's cards by name (EZ Baccarat: ``player``,
    ``banker``), the cards in dealing order, and the shoe after it (its JSON form)."""

    hands: Mapping[str, tuple[str, ...]]
    cards: tuple[str, ...]
    shoe: Mapping[str, Any] | None
    cut_card_out: bool


@dataclass(frozen=True)
class ShoeKeeping:
    """How a game that keeps a shoe across hands deals from it (``Listing.shoe``).

    - ``new(sheet, rng)``: a shuffled, burned shoe for a table's sheet, as JSON.
    - ``deal(shoe)``: the next hand dealt from the top of a shoe by the game's rules.
    - ``keyed(cards, decks, already)``: a hand keyed at a card-entry table, in dealing order,
      checked against the game's rules and against what a shoe of ``decks`` can hold after
      the cards ``already`` dealt from it (a RuleError naming the card's index otherwise).
    """

    new: Callable[[Mapping[str, Any], Any], Mapping[str, Any]]
    deal: Callable[[Mapping[str, Any]], Dealt]
    keyed: Callable[[Sequence[str], int, Sequence[str]], Dealt]


@dataclass(frozen=True)
class Listing:
    """A game as the floor sees it.

    - ``key``: the stored value of ``Table.game`` and the calculator's ``options.game``.
    - ``name``: the game as the floor names it ("EZ Baccarat"), on the floor map, the board,
      the waitlists, the reports and the PDFs.
    - ``seat_counts``: the seat counts a table of the game may have; ``default_seats``.
    - ``own_options``: the options of a table's sheet that are this game's alone (beside the
      limits, the chip, the deal, the seats and the rotation policy every table has);
      ``own_defaults`` the defaults of those that are no column of the table;
      ``option_labels`` their names in the floor's words (and the seats', for a game of
      several seat counts).
    - ``sheet``: the rules core's options from a table's sheet as a round freezes it (a
      RuleError naming the sheet's field when it breaks a rule of the game).
    - ``tablet``: the console's template of the dealer's tablet at a table of this game.
    - ``shoe``: for a game that keeps a shoe across hands, how it deals from it; None for a
      game dealt from a fresh deck each hand.
    - ``option_choices``: the values an own option may take when they are a short list (EZ
      Baccarat's decks: 6 or 8), for the console's forms to offer; any other own option is a
      whole number, or an amount when its name ends in ``_cents``.
    - ``option_units``: the unit an own option is counted in, as the sheet shows its value
      ("to 1", "decks", "cards from the end").
    """

    key: str
    name: str
    seat_counts: tuple[int, ...]
    default_seats: int
    own_options: tuple[str, ...]
    own_defaults: Mapping[str, Any]
    option_labels: Mapping[str, OptionLabel]
    sheet: Callable[[Mapping[str, Any]], Any]
    tablet: str
    shoe: ShoeKeeping | None = None
    option_choices: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    option_units: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Square:
    """A betting square of the layout: its JSON name (the calculator's, the fee schedules',
    the settlement lines'), its name on the layout, the ``Bet`` column holding its stake, and
    whether it is a base wager (a bettor makes one) or a side wager."""

    name: str
    label: str
    column: str
    base: bool


@dataclass(frozen=True)
class Game:
    """A game as the money layer and the round lifecycle see it.

    - ``listing``: the floor's part (above).
    - ``squares``: the betting squares, in settlement order within a seat.
    - ``steps``: the round's states between "no more bets" and the showdown (Ultimate Texas
      Hold'em: the deal and its streets; EZ Baccarat: none, the coup is dealt at the showdown).
    - ``cards``: ``"deck"`` (a shuffled deck per hand) or ``"shoe"`` (a shoe kept across hands).
    - ``settle_request``: the settlement calculator for one hand in the game's JSON format.
    - ``game_math``: the exact figures of each wager for the calculator's ``options`` object;
      ``sheet_math`` the same for a table's sheet; both JSON.
    """

    listing: Listing
    squares: tuple[Square, ...]
    steps: tuple[str, ...]
    cards: str
    settle_request: Callable[[object], dict[str, Any]]
    game_math: Callable[[object], dict[str, Any]]
    sheet_math: Callable[[Mapping[str, Any]], dict[str, Any]]

    @property
    def key(self) -> str:
        return self.listing.key

    @property
    def name(self) -> str:
        return self.listing.name

    @property
    def base_squares(self) -> tuple[Square, ...]:
        return tuple(square for square in self.squares if square.base)

    @property
    def side_squares(self) -> tuple[Square, ...]:
        return tuple(square for square in self.squares if not square.base)

    def __str__(self) -> str:
        return self.name
