"""The math sheet of a table's options (docs/rules.md §13), in the words of the floor and of
the Bureau's reviewer: each wager's pay table with how often each line pays, the figures of
each wager, and the strategy card a dealer reads.

One model for every place the sheet is shown: the console's game math page
(``templates/console/game_math.html``) and the fee filing's page per table
(``reports/math_sheet.py``). The figures are the game math core's
(``wagers.rules.gamemath``), written by ``cardroom.figures``; nothing here computes one.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from cardroom.figures import number, odds, one_in, percent
from games.interface import Game
from tables.rules.hands import Category
from tables.rules.options import GameOptions
from tables.rules.paytables import BLIND, PayTable, paytable_label
from wagers.rules.gamemath import (
    FLOP_DECISION,
    RANKS,
    RIVER_DECISION,
    BaseGameMath,
    StartingHand,
    WagerMath,
    game_math,
)

TWO_CARD_DEALS = 1_326

HOUSE_EDGE = (
    "the player-dealer's expected gain per $1 wagered, over many hands (what the bettor "
    "loses on average)"
)
HIT_FREQUENCY = "how often the wager pays"
STD_DEV = "how far one wager's result typically lands from the average, in dollars per $1"

TRIPS_ABOUT = (
    "Pays on the player's own best five of seven cards, three of a kind or better, whatever "
    "the player-dealer holds; below three of a kind it loses."
)
BAD_BEAT_ABOUT = (
    "Pays on the hand that loses the showdown, the player's or the player-dealer's, from "
    "three of a kind up; a tie, a fold, or a beaten hand below three of a kind loses. How "
    "often is per hand dealt."
)
NOT_OFFERED = (
    "Not offered at this table: its options sheet has no Bad Beat pay table, so no Bad Beat "
    "wager is taken."
)
BLIND_ABOUT = (
    "Pays when the player's hand beats the player-dealer's with a straight or better; a "
    "winning hand below a straight, or a tie, pushes; it loses when the hand loses or folds. "
    "The same table at every table."
)
BASE_GAME_ABOUT = (
    "The Ante, the Blind and the Play together, played by the strategy card, per $1 of Ante."
)
CHART_LAYOUT = (
    "Pairs on the diagonal, suited hands above it, offsuit hands below it; T is a ten. "
    "Read the higher card down the left and the lower across the top for a suited hand, the "
    "other way round for an offsuit hand."
)


@dataclass(frozen=True)
class Figure:
    term: str  # "House edge"
    value: str  # "3.4979%"
    meaning: str  # what it says, in words


@dataclass(frozen=True)
class PayRow:
    hand: str  # "Royal flush"
    pays: str  # "50 to 1"
    how_often: str  # "1 in 30,940" ("" where the core has no chance for the line)
    chance: str  # "0.0032%"


@dataclass(frozen=True)
class WagerSheet:
    title: str  # "Trips", "Bad Beat", "Blind"
    paytable: str  # "UTH-03", "option-1", "fixed"
    hand_heading: str  # "Player's hand", "Losing hand"
    about: str
    rows: tuple[PayRow, ...]
    figures: tuple[Figure, ...]

    @property
    def chances(self) -> bool:
        """Whether the rows say how often they pay (the Blind's do not: its lines pay only
        when the hand also wins, which the core does not break down)."""
        return any(row.how_often for row in self.rows)


@dataclass(frozen=True)
class ChartCell:
    hand: str  # "AKs", "T9o", "77"
    kind: str  # "pair", "suited", "offsuit"
    multiple: int  # the Play multiple to raise, 0 to check
    combos: int

    @property
    def raises(self) -> bool:
        return self.multiple > 0

    @property
    def mark(self) -> str:
        return f"{self.multiple}x" if self.raises else "check"

    @property
    def words(self) -> str:
        """The cell as read aloud: ``AKs: raise 4x``, ``72o: check``."""
        return f"{self.hand}: raise {self.multiple}x" if self.raises else f"{self.hand}: check"


@dataclass(frozen=True)
class StrategyCard:
    ranks: str  # "AKQJT98765432", the grid's rows and columns
    grid: tuple[tuple[ChartCell, ...], ...]  # 13 rows of 13
    preflop: str
    flop: str
    river: str
    legend: tuple[tuple[str, str], ...]  # (mark, meaning)
    layout: str
    raising: str  # "Raise with 52 of the 169 starting hands (40.1% of deals)."

    @property
    def rows(self) -> tuple[tuple[str, tuple[ChartCell, ...]], ...]:
        """Each row of the grid with its rank, for the row's heading."""
        return tuple(zip(self.ranks, self.grid, strict=True))

    @property
    def cells(self) -> tuple[ChartCell, ...]:
        return tuple(cell for row in self.grid for cell in row)


@dataclass(frozen=True)
class MathSheet:
    options: tuple[tuple[str, str], ...]  # the options the sheet is for, as the floor names them
    trips: WagerSheet
    bad_beat: WagerSheet | None  # None: the table offers no Bad Beat
    blind: WagerSheet
    base_game: tuple[Figure, ...]
    base_game_about: str
    card: StrategyCard
    not_offered: str = NOT_OFFERED  # said in the Bad Beat's place when there is none


def hand_words(category: Category) -> str:
    """``Category.THREE_OF_A_KIND`` -> ``Three of a kind``."""
    return category.label.replace("_", " ").capitalize()


def paytable_name(table: PayTable) -> str:
    return paytable_label(table.name)


def multiples_words(multiples) -> str:
    return " or ".join(f"{multiple}x" for multiple in multiples)


def _house_edge(value: Fraction, per: str = "per $1 wagered") -> str:
    meaning = HOUSE_EDGE.replace("per $1 wagered", per)
    if value < 0:
        meaning += "; below zero, the bettor's expected gain"
    return meaning


def _side_wager(title: str, about: str, heading: str, math: WagerMath) -> WagerSheet:
    rows = tuple(
        PayRow(hand_words(line.category), odds(line.odds), one_in(line.probability),
               percent(line.probability))
        for line in math.lines
    )  # fmt: skip
    figures = (
        Figure("House edge", percent(math.house_edge), _house_edge(math.house_edge)),
        Figure(
            "Hit frequency",
            f"{percent(math.hit_frequency)} ({one_in(math.hit_frequency)})",
            HIT_FREQUENCY,
        ),
        Figure("Standard deviation", f"{number(math.std_dev)} per $1 wagered", STD_DEV),
    )
    return WagerSheet(title, paytable_name(math.paytable), heading, about, rows, figures)


def _blind() -> WagerSheet:
    rows = tuple(PayRow(hand_words(category), odds(o), "", "") for category, o in BLIND.odds)
    return WagerSheet("Blind", "fixed", "Player's winning hand", BLIND_ABOUT, rows, ())


def _base_game(base: BaseGameMath) -> tuple[Figure, ...]:
    per_ante = "per $1 of Ante"
    return (
        Figure(
            "House edge per Ante",
            percent(base.house_edge),
            _house_edge(base.house_edge, per_ante) + ", counting the Ante, the Blind and the Play",
        ),
        Figure(
            "Element of risk",
            percent(base.element_of_risk),
            "the same gain per $1 of everything the player wagers (Ante, Blind and Play)",
        ),
        Figure(
            "Standard deviation per Ante",
            f"{number(base.std_dev)} per $1 of Ante",
            "how far one hand's result typically lands from the average, in dollars per $1 of Ante",
        ),
        Figure(
            "Average total wagered per Ante",
            f"{number(base.average_wager)} per $1 of Ante",
            f"the Ante, the Blind and the average Play ({number(base.average_play)} per $1 of "
            "Ante) together",
        ),
    )


def _cell(hands: dict[str, StartingHand], name: str, kind: str) -> ChartCell:
    hand = hands[name]
    return ChartCell(hand.hand, kind, hand.multiple, hand.combos)


def strategy_card(base: BaseGameMath) -> StrategyCard:
    """The pre-flop chart as the usual 13 by 13 grid, and the flop and river in words."""
    hands = {hand.hand: hand for hand in base.starting_hands}
    grid = []
    for row, high in enumerate(RANKS):
        cells = []
        for column, other in enumerate(RANKS):
            if row == column:
                cells.append(_cell(hands, high + other, "pair"))
            elif column > row:  # above the diagonal: suited, the row's card the higher
                cells.append(_cell(hands, high + other + "s", "suited"))
            else:  # below: offsuit, the column's card the higher
                cells.append(_cell(hands, other + high + "o", "offsuit"))
        grid.append(tuple(cells))
    raising = sorted({hand.multiple for hand in base.starting_hands if hand.multiple}, reverse=True)
    legend = tuple((f"{m}x", f"raise: Play {m} times the Ante before the flop") for m in raising)
    legend += (("check", "check before the flop, then follow the flop and river below"),)
    raised = [hand for hand in base.starting_hands if hand.raises]
    combos = sum(hand.combos for hand in raised)
    if len(raising) == 1:
        (only,) = raising
        preflop = (
            f"Before the flop: raise {only}x (a Play of {only} times the Ante) with every hand "
            f"marked {only}x on the chart; check every other hand."
        )
    elif raising:
        preflop = (
            f"Before the flop: raise with every hand marked {multiples_words(raising)} on the "
            "chart, a Play of that many times the Ante; check every other hand."
        )
    else:
        preflop = (
            "Before the flop: check every hand; no starting hand is worth a raise of "
            f"{multiples_words(base.allowed_multiples)} with these odds."
        )
    return StrategyCard(
        ranks=RANKS,
        grid=tuple(grid),
        preflop=preflop,
        flop=FLOP_DECISION,
        river=RIVER_DECISION,
        legend=legend,
        layout=CHART_LAYOUT,
        raising=(
            f"Raise with {len(raised)} of the {len(hands)} starting hands "
            f"({percent(Fraction(combos, TWO_CARD_DEALS), decimals=1)} of deals); "
            if raised
            else f"Check all {len(hands)} starting hands; "
        )
        + f"the table allows {multiples_words(base.allowed_multiples)}.",
    )


def math_sheet(options: GameOptions) -> MathSheet:
    """The whole sheet for the options in force (``tables.options.game_options``)."""
    math = game_math(options)
    bad_beat = options.bad_beat_paytable
    return MathSheet(
        options=(
            ("Trips pay table", paytable_name(options.trips_paytable)),
            ("Bad Beat pay table", "not offered" if bad_beat is None else paytable_name(bad_beat)),
            ("Pre-flop Play", multiples_words(options.allowed_preflop_multiples)),
        ),
        trips=_side_wager("Trips", TRIPS_ABOUT, "Player's hand", math.trips),
        bad_beat=None
        if math.bad_beat is None
        else _side_wager("Bad Beat", BAD_BEAT_ABOUT, "Losing hand", math.bad_beat),
        blind=_blind(),
        base_game=_base_game(math.base_game),
        base_game_about=BASE_GAME_ABOUT,
        card=strategy_card(math.base_game),
    )


# --- A game described by its figures alone (EZ Baccarat: no decisions, no strategy card) ------


@dataclass(frozen=True)
class FigureRow:
    """One wager's figures in words: its exact house edge to 4 decimals of a percent, how
    often it wins, its standard deviation."""

    wager: str
    house_edge: str
    hit_frequency: str
    hits: str
    std_dev: str


@dataclass(frozen=True)
class FiguresSheet:
    """The math sheet of a game whose figures are each wager's (``Game.sheet_math``): the
    options they are for, then a row per wager in the layout's order."""

    game: str
    options: tuple[tuple[str, str], ...]
    rows: tuple[FigureRow, ...]
    about: str = (
        "Exact figures over every order of the cards drawn from a full shoe (off the top), per "
        "unit wagered: the house edge counts the hands that push like any other; a hit is a "
        "winning hand."
    )


def figures_sheet(game: Game, values: dict, options: tuple[tuple[str, str], ...]) -> FiguresSheet:
    """The figures sheet of ``game`` for a table's sheet ``values`` (a snapshot), with its
    options in words (``tables.options.own_option_words``)."""
    math = game.sheet_math(values)
    rows = []
    for square in game.squares:
        figures = math[square.name]
        hit = Decimal(figures["hit_frequency"])
        edge = figures.get("house_edge_percent") or percent(Decimal(figures["house_edge"]))
        rows.append(
            FigureRow(
                wager=square.label,
                house_edge=edge,
                hit_frequency=percent(hit),
                hits=one_in(hit),
                std_dev=number(Decimal(figures["std_dev"])),
            )
        )
    return FiguresSheet(game=game.name, options=options, rows=tuple(rows))
