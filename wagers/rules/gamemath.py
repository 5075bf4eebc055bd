"""Game math (docs/rules.md §13): what each wager is worth, exactly.

The counts that do not depend on a pay table (the seven-card hands by category, the Bad Beat
deals by the losing hand, the base game's sums under optimal play for each starting hand)
were enumerated once by ``scripts/game_math_counts.py`` over every deal and are kept in
``gamemath_counts.json`` beside this module. From them, any pay table's figures are exact
fractions of integers; a standard deviation is the one figure that is a square root, given
as a decimal to 20 significant digits.

Signs: a house edge is the player-dealer's expected gain per unit wagered (the bettor's
expected loss), positive when the wager favours the bank. Variances are of the bettor's
result per unit wagered.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from functools import cache, cached_property
from pathlib import Path

from tables.rules.hands import Category
from tables.rules.options import GameOptions
from tables.rules.paytables import BLIND, PayTable

from .resolution import BAD_BEAT_MINIMUM, DEALER_QUALIFIES_WITH
from .wagers import Stakes

COUNTS_FILE = Path(__file__).with_name("gamemath_counts.json")
SIGNIFICANT_DIGITS = 20
_CONTEXT = Context(prec=SIGNIFICANT_DIGITS + 5)
RANKS = "AKQJT98765432"  # high first, as a starting hand is named ("AKs", "T9o", "77")


@cache
def counts() -> dict:
    """The enumerated counts (read once per process)."""
    return json.loads(COUNTS_FILE.read_text(encoding="utf-8"))


def decimal(value: Fraction, digits: int = SIGNIFICANT_DIGITS) -> Decimal:
    """An exact fraction as a decimal of ``digits`` significant digits (half-even)."""
    context = Context(prec=digits, rounding=ROUND_HALF_EVEN)
    return context.divide(Decimal(value.numerator), Decimal(value.denominator))


def square_root(value: Fraction, digits: int = SIGNIFICANT_DIGITS) -> Decimal:
    """The square root of a non-negative fraction, to ``digits`` significant digits."""
    context = Context(prec=digits + 5)
    root = context.sqrt(context.divide(Decimal(value.numerator), Decimal(value.denominator)))
    return Context(prec=digits, rounding=ROUND_HALF_EVEN).plus(root)


@dataclass(frozen=True)
class PayLine:
    """One row of a pay table: the hand, its odds to 1, and how often it happens."""

    category: Category
    odds: Fraction
    probability: Fraction

    @property
    def return_share(self) -> Fraction:
        """What this row pays back per unit wagered, on average (odds times probability)."""
        return self.odds * self.probability


@dataclass(frozen=True)
class WagerMath:
    """A side wager's figures under one pay table (Trips, Bad Beat)."""

    paytable: PayTable
    lines: tuple[PayLine, ...]
    house_edge: Fraction
    variance: Fraction
    hit_frequency: Fraction

    @cached_property
    def std_dev(self) -> Decimal:
        return square_root(self.variance)


def _side_wager(table: PayTable, probabilities: dict[Category, Fraction]) -> WagerMath:
    lines = tuple(
        PayLine(category, odds, probabilities.get(category, Fraction(0)))
        for category, odds in table.odds
    )
    hit = sum((line.probability for line in lines), Fraction(0))
    mean = sum((line.return_share for line in lines), Fraction(0)) - (1 - hit)
    square = sum((line.odds**2 * line.probability for line in lines), Fraction(0)) + (1 - hit)
    return WagerMath(table, lines, -mean, square - mean**2, hit)


def seven_card_probabilities() -> dict[Category, Fraction]:
    """The final seven-card hand's category over all 133,784,560 hands."""
    data = counts()["seven_card_hands"]
    total = data["total"]
    return {Category.from_label(k): Fraction(n, total) for k, n in data["categories"].items()}


def losing_hand_probabilities() -> dict[Category, Fraction]:
    """The losing hand's category over all 2,781,381,002,400 deals (ties apart)."""
    data = counts()["bad_beat_deals"]
    total = data["total"]
    return {Category.from_label(k): Fraction(n, total) for k, n in data["losing_hand"].items()}


@cache
def trips_math(table: PayTable) -> WagerMath:
    """Trips pays on the player's own seven cards, whatever the showdown (§13.2)."""
    return _side_wager(table, seven_card_probabilities())


@cache
def bad_beat_math(table: PayTable) -> WagerMath:
    """Bad Beat pays on the losing hand from three of a kind up; a tie loses (§13.3)."""
    paying = {
        category: probability
        for category, probability in losing_hand_probabilities().items()
        if category >= BAD_BEAT_MINIMUM
    }
    return _side_wager(table, paying)


@dataclass(frozen=True)
class StartingHand:
    """A starting hand's best pre-flop decision and what each choice is worth per Ante."""

    hand: str  # "AKs", "T9o", "77"
    combos: int  # how many of the 1,326 two-card deals it stands for
    multiple: int  # the Play multiple to raise, or 0 to check
    raise_value: Fraction  # the player's expectation per Ante raising the best allowed multiple
    check_value: Fraction  # ... checking, then playing the flop and river well

    @property
    def raises(self) -> bool:
        return self.multiple > 0


@dataclass(frozen=True)
class BaseGameMath:
    """Ante, Blind and Play together under optimal play, per unit of Ante (§13.4)."""

    house_edge: Fraction
    variance: Fraction
    average_play: Fraction  # the Play wagered per unit of Ante, on average
    starting_hands: tuple[StartingHand, ...]  # the 169, strongest first as named on a chart
    allowed_multiples: tuple[int, ...]

    @property
    def average_wager(self) -> Fraction:
        """Ante, Blind and Play wagered per unit of Ante, on average."""
        return 2 + self.average_play

    @property
    def element_of_risk(self) -> Fraction:
        return self.house_edge / self.average_wager

    @cached_property
    def std_dev(self) -> Decimal:
        return square_root(self.variance)


def _polynomial(coefficients: list[int], k: int) -> int:
    return sum(coefficient * k**power for power, coefficient in enumerate(coefficients))


@cache
def base_game_math(allowed_multiples: tuple[int, ...] = (3, 4)) -> BaseGameMath:
    """The base game under optimal play with the table's pre-flop multiples.

    The flop and river decisions do not depend on the pre-flop multiples; the pre-flop
    decision picks, per starting hand, the best of checking and raising each allowed
    multiple (on an exact tie, the choice that wagers less).
    """
    data = counts()["base_game"]
    if data["dealer_qualifies_with"] != DEALER_QUALIFIES_WITH.label:
        raise ValueError("the counts were made for another qualification rule")
    if {Category.from_label(k): Fraction(v) for k, v in data["blind_paytable"].items()} != dict(
        BLIND.odds
    ):
        raise ValueError("the counts were made for another Blind pay table")
    scale, completions = data["scale"], data["completions_per_hole_pair"]
    deals = 0
    total = total_square = total_play = 0
    hands = []
    for name, entry in data["hands"].items():
        combos = entry["combos"]
        check = entry["check"]
        best = (check["sum"], 0, check["sum_sq"], check["play_sum"])
        raising = None
        for k in sorted(allowed_multiples):
            value = _polynomial(entry["raise"]["sum"], k)
            if raising is None or value > raising[0]:
                raising = (value, k, _polynomial(entry["raise"]["sum_sq"], k), k * completions)
        assert raising is not None
        if raising[0] > best[0]:
            best = raising
        deals += combos
        total += combos * best[0]
        total_square += combos * best[2]
        total_play += combos * best[3]
        hands.append(
            StartingHand(
                name,
                combos,
                best[1],
                Fraction(raising[0], scale * completions),
                Fraction(check["sum"], scale * completions),
            )
        )
    mean = Fraction(total, deals * scale * completions)
    square = Fraction(total_square, deals * scale * scale * completions)
    return BaseGameMath(
        house_edge=-mean,
        variance=square - mean**2,
        average_play=Fraction(total_play, deals * completions),
        starting_hands=tuple(sorted(hands, key=_chart_order)),
        allowed_multiples=tuple(sorted(allowed_multiples)),
    )


def _chart_order(hand: StartingHand) -> tuple[int, int, int]:
    high, low = RANKS.index(hand.hand[0]), RANKS.index(hand.hand[1])
    return (high, low, 0 if hand.hand.endswith("s") else 1)


# The strategy card's words for the decisions after the flop (§13.4). The pre-flop decision
# is the chart of ``BaseGameMath.starting_hands``; these two are how the optimum is found.
FLOP_DECISION = (
    "After checking pre-flop: bet 2x when betting is worth more than checking and then "
    "deciding the river well, counted over every turn and river card and every hand the "
    "player-dealer may hold; otherwise check."
)
RIVER_DECISION = (
    "After checking twice: play 1x unless folding loses less. Count the player-dealer's "
    "possible hands: with no pair, play when the qualifying hands that beat you are fewer "
    "than three times the hands you beat plus twice the hands you tie; with a pair or "
    "better, play when the hands that beat you are fewer than four times the qualifying "
    "hands you beat, plus three times the others you beat, plus twice the ties (from a "
    "straight up, add the Blind's odds to the four and the three)."
)


@dataclass(frozen=True)
class GameMath:
    """Every wager of a table's options sheet."""

    trips: WagerMath
    bad_beat: WagerMath | None
    base_game: BaseGameMath


def game_math(options: GameOptions) -> GameMath:
    return GameMath(
        trips=trips_math(options.trips_paytable),
        bad_beat=None
        if options.bad_beat_paytable is None
        else bad_beat_math(options.bad_beat_paytable),
        base_game=base_game_math(tuple(options.allowed_preflop_multiples)),
    )


def _figure(value: Fraction) -> str:
    return format(decimal(value), "f")


def game_math_json(math: GameMath) -> dict:
    """The ``game_math`` command's and API's answer: decimal strings of the exact figures."""

    def side(wager: WagerMath | None) -> dict | None:
        if wager is None:
            return None
        return {
            "house_edge": _figure(wager.house_edge),
            "std_dev": format(wager.std_dev, "f"),
            "hit_frequency": _figure(wager.hit_frequency),
        }

    base = math.base_game
    return {
        "trips": side(math.trips),
        "bad_beat": side(math.bad_beat),
        "base_game": {
            "house_edge": _figure(base.house_edge),
            "element_of_risk": _figure(base.element_of_risk),
            "std_dev": format(base.std_dev, "f"),
        },
    }


@dataclass(frozen=True)
class Theo:
    """The player-dealer's expected result from a layout, in cents, and its spread."""

    theo: Fraction  # the player-dealer's expected gain, before fees and ignoring coverage
    std_dev: Decimal  # an upper bound on the result's standard deviation, in cents


def theo_of(layout: Iterable[Stakes], math: GameMath) -> Theo:
    """Each wager times its house edge (the base game per Ante: the Ante stands for the
    Ante, the Blind and the Play to come), summed over the bettors on the layout.

    The spread is the sum of the wagers' standard deviations: the bettors share the
    player-dealer's hand and the board, so their results are not independent, and a sum of
    standard deviations bounds the spread whatever their correlation (§13.5).
    """
    theo = Fraction(0)
    spread = Decimal(0)
    base, trips, bad_beat = math.base_game, math.trips, math.bad_beat
    for stakes in layout:
        theo += stakes.ante * base.house_edge + stakes.trips * trips.house_edge
        spread += stakes.ante * base.std_dev + stakes.trips * trips.std_dev
        if stakes.bad_beat:
            if bad_beat is None:
                raise ValueError("a Bad Beat wager on a table that offers none")
            theo += stakes.bad_beat * bad_beat.house_edge
            spread += stakes.bad_beat * bad_beat.std_dev
    return Theo(theo, _CONTEXT.plus(spread))
