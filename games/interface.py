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
    - ``action_labels``: the game's own words for an action of the tablet where they are not
      the first game's, as the audit trail and a refusal's heading name it (EZ Baccarat's
      showdown deals the coup: "deal the coup").
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
    action_labels: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Square:
    """A betting square of the layout: its JSON name (the calculator's, the fee schedules',
    the settlement lines'), its name on the layout, the ``Bet`` column holding its stake, and
    whether it is a base wager (a bettor makes one) or a side wager, and whether it is wagered
    before "no more bets" (every square but Ultimate Texas Hold'em's Play, made at a decision)."""

    name: str
    label: str
    column: str
    base: bool
    opening: bool = True  # wagered before "no more bets" (a fee can be charged on it)


@dataclass(frozen=True)
class SeatWagers:
    """A wagering seat of a round as stored, for the game's settlement: each bettor's stakes
    by square name (index 0 the seated player, then its backline bettors), and, for a game
    whose seats hold cards of their own (Ultimate Texas Hold'em), its hole cards (None: mucked)
    and whether it folded."""

    seat: int
    bettors: tuple[Mapping[str, int], ...]
    hole: tuple[str, ...] | None = None
    folded: bool = False


@dataclass(frozen=True)
class RoundCards:
    """A round's cards as stored, by what they are: the player-dealer's hole cards and the
    board (Ultimate Texas Hold'em), the Player and Banker hands (EZ Baccarat)."""

    dealer_hole: tuple[str, ...] = ()
    board: tuple[str, ...] = ()
    player: tuple[str, ...] = ()
    banker: tuple[str, ...] = ()


@dataclass(frozen=True)
class LayoutTheo:
    """The theo of the wagers on the layout at "no more bets" (docs/rules.md §13.5), exact:
    the player-dealer's expected gain (cents), an upper bound on its spread (cents), and each
    square's cents wagered with the house edge used (per unit wagered; Ultimate Texas Hold'em's
    base game per unit of Ante, the Ante standing for the Ante, the Blind and the Play)."""

    theo: Any  # Fraction
    std_dev: Any  # Decimal
    squares: Mapping[str, tuple[int, Any]]  # name -> (cents, house edge Fraction)


@dataclass(frozen=True)
class Game:
    """A game as the money layer and the round lifecycle see it.

    - ``listing``: the floor's part (above).
    - ``squares``: the betting squares, in settlement order within a seat.
    - ``steps``: the round's states between "no more bets" and the showdown (Ultimate Texas
      Hold'em: the deal and its streets; EZ Baccarat: none, the coup is dealt at the showdown).
    - ``cards``: ``"deck"`` (a shuffled deck per hand) or ``"shoe"`` (a shoe kept across hands).
    - ``settle_request``: the settlement calculator for one hand in the game's JSON format.
    - ``calculator_request(sheet, player_dealer_seat, bank, seats, cards)``: a settled hand as
      stored (the table's options sheet as the round froze it, the bank, the seats' wagers,
      the round's cards) in that format, so the calculator can open it and settle it again.
    - ``game_math``: the exact figures of each wager for the calculator's ``options`` object;
      ``sheet_math`` the same for a table's sheet; both JSON.
    - ``validate_wagers(squares, options, backline)``: one bettor's wagers by square name,
      checked against the game's rules and the rules core's ``options`` (a RuleError naming
      the square); ``backline`` for a bettor behind a seat.
    - ``backline(options)``: whether the table allows betting behind a seat.
    - ``least_hand``: the squares a seat must wager for a hand to be dealt, as groups of which
      a bettor wagers one square each (Ultimate Texas Hold'em: the Ante and the Blind; EZ
      Baccarat: Player or Banker), each at least the table minimum: the collection fee engine's
      floor on what the player-dealer will owe.
    - ``settle(options, player_dealer_seat, bank, seats, cards)``: every wager of the layout
      resolved on the round's cards and settled by the coverage law, in settlement order (a
      ``wagers.rules.settlement.Settlement``).
    - ``theo(options, layout)``: the theo of the wagers on the layout (each bettor's stakes by
      square name), a ``LayoutTheo``.
    - ``exposure(bank, player_dealer_seat, layout, options)``: the action on the layout against
      the bank while wagers are taken (docs/rules.md §7.5; ``layout``: each seat's bettors'
      stakes by square name), a ``wagers.rules.layout.BankAction``; None for a game whose
      tablet does not show it.
    """

    listing: Listing
    squares: tuple[Square, ...]
    steps: tuple[str, ...]
    cards: str
    settle_request: Callable[[object], dict[str, Any]]
    calculator_request: Callable[
        [Mapping[str, Any], int, int, Sequence[SeatWagers], RoundCards], dict[str, Any]
    ]
    game_math: Callable[[object], dict[str, Any]]
    sheet_math: Callable[[Mapping[str, Any]], dict[str, Any]]
    validate_wagers: Callable[[Mapping[str, int], Any, bool], None]
    backline: Callable[[Any], bool]
    least_hand: tuple[tuple[str, ...], ...]
    settle: Callable[[Any, int, int, Sequence[SeatWagers], RoundCards], Any]
    theo: Callable[[Any, Sequence[Mapping[str, int]]], LayoutTheo]
    exposure: Callable[[int, int, Mapping[int, Sequence[Mapping[str, int]]], Any], Any] | None = (
        None
    )

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

    @property
    def opening_squares(self) -> tuple[str, ...]:
        """The names of the squares wagered before "no more bets", in settlement order: what
        a bettor places while wagering is open, and what a collection fee is charged on."""
        return tuple(square.name for square in self.squares if square.opening)

    def stakes_of(self, bet: object) -> dict[str, int]:
        """A stored bet's stakes by square name (each square's ``column`` of the row)."""
        return {square.name: getattr(bet, square.column) for square in self.squares}

    def square(self, name: str) -> Square:
        """The square named ``name`` (a KeyError otherwise)."""
        for square in self.squares:
            if square.name == name:
                return square
        raise KeyError(name)

    def __str__(self) -> str:
        return self.name
