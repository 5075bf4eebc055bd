"""Theo beside actual (docs/rules.md §13.5, §13.6): a hand's theo as it is stored, and the
comparison of a player-dealer's actual result with the theo of the same hands.

A hand's theo is the player-dealer's expected gain from the wagers on the layout when
"no more bets" is called (``gamemath.theo_of``: each wager times its house edge, the base
game per Ante), before fees and ignoring coverage; its spread is an upper bound on the
standard deviation of the hand's result. Both are kept in cents to ``PLACES`` decimals
(half-even). The actual result is the bank's settlement net, before fees.

Over many hands the spreads add as variances (hands are independent of one another): the
standard deviation of a sum of hands is the square root of the sum of their squares. A
result lies more than ``k`` standard deviations from theo when (actual - theo)^2 >
k^2 * variance, decided exactly, without a square root.

Plain Python (no Django), like the rest of the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction

from .gamemath import GameMath, Theo, theo_of
from .wagers import Stakes

PLACES = 4  # decimals of a cent kept for a hand's theo and spread
EDGE_PLACES = 12  # decimals kept for each house edge used
SHOWN_STD_DEVS = 2  # decimals of the difference in standard deviations
_CONTEXT = Context(prec=60, rounding=ROUND_HALF_EVEN)


def quantized(value: Fraction | Decimal | int, places: int = PLACES) -> Decimal:
    """``value`` as a decimal of ``places`` decimals, rounded half to even."""
    exact = value if isinstance(value, Fraction) else Fraction(value)
    quotient = _CONTEXT.divide(Decimal(exact.numerator), Decimal(exact.denominator))
    result = quotient.quantize(Decimal(1).scaleb(-places), ROUND_HALF_EVEN, _CONTEXT)
    return result.copy_abs() if result.is_zero() else result  # never "-0.00"


@dataclass(frozen=True)
class HandTheo:
    """A hand's theo as it is stored: the figures, the wagers they came from, the edges."""

    theo: Decimal  # cents, PLACES decimals: the player-dealer's expected gain
    std_dev: Decimal  # cents, PLACES decimals: an upper bound on the result's spread
    ante: int  # cents wagered on the layout, every bettor, by kind (the Blind equals the Ante)
    trips: int
    bad_beat: int
    base_game_edge: Decimal | None  # EDGE_PLACES decimals, per unit of Ante (None: not UTH)
    trips_edge: Decimal | None
    bad_beat_edge: Decimal | None  # None: the table offers no Bad Beat
    # Every square of the game wagered before "no more bets": its cents on the layout and the
    # house edge used (EDGE_PLACES decimals, as a string), by square name.
    squares: dict = field(default_factory=dict)


def hand_theo(layout: Iterable[Stakes], math: GameMath) -> HandTheo:
    """The theo of the wagers on the layout (every bettor, seated and backline) as stored."""
    layout = list(layout)
    figures: Theo = theo_of(layout, math)
    return HandTheo(
        theo=quantized(figures.theo),
        std_dev=quantized(figures.std_dev),
        ante=sum(stakes.ante for stakes in layout),
        trips=sum(stakes.trips for stakes in layout),
        bad_beat=sum(stakes.bad_beat for stakes in layout),
        base_game_edge=quantized(math.base_game.house_edge, EDGE_PLACES),
        trips_edge=quantized(math.trips.house_edge, EDGE_PLACES),
        bad_beat_edge=None
        if math.bad_beat is None
        else quantized(math.bad_beat.house_edge, EDGE_PLACES),
    )


def stored_theo(theo: Fraction, std_dev: Decimal, squares: Mapping[str, tuple]) -> HandTheo:
    """Any game's theo as it is stored (``games.interface.Game.theo``'s figures: the exact
    theo, the spread, each square's cents and house edge). Ultimate Texas Hold'em's own columns
    (the Ante, Trips and Bad Beat wagered and their edges) are filled from its squares; another
    game's are 0 and None, its squares named in ``squares``."""
    edges = {name: quantized(edge, EDGE_PLACES) for name, (_, edge) in squares.items()}
    cents = {name: wagered for name, (wagered, _) in squares.items()}
    return HandTheo(
        theo=quantized(theo),
        std_dev=quantized(std_dev),
        ante=cents.get("ante", 0),
        trips=cents.get("trips", 0),
        bad_beat=cents.get("bad_beat", 0),
        base_game_edge=edges.get("ante"),
        trips_edge=edges.get("trips"),
        bad_beat_edge=edges.get("bad_beat"),
        squares={name: {"cents": cents[name], "house_edge": str(edges[name])} for name in squares},
    )


@dataclass(frozen=True)
class Comparison:
    """A player-dealer's actual result beside the theo of the same hands.

    ``variance`` is the sum of the hands' squared spreads (cents squared).
    """

    hands: int
    theo: Decimal  # cents
    actual: int  # cents: the sum of the banks' results
    variance: Decimal  # cents squared

    @property
    def difference(self) -> Decimal:
        """Actual minus theo, in cents: above zero the player-dealer did better than theo."""
        return _CONTEXT.subtract(Decimal(self.actual), self.theo)

    @property
    def std_dev(self) -> Decimal:
        """The standard deviation of the hands' result, in cents (PLACES decimals)."""
        return quantized(_CONTEXT.sqrt(self.variance)) if self.variance > 0 else quantized(0)

    @property
    def std_devs(self) -> Decimal | None:
        """The difference in standard deviations (SHOWN_STD_DEVS decimals); None without a
        spread (no hand, or only hands without wagers)."""
        if self.variance <= 0:
            return None
        return quantized(
            _CONTEXT.divide(self.difference, _CONTEXT.sqrt(self.variance)), SHOWN_STD_DEVS
        )

    def beyond(self, std_devs: int | Decimal) -> bool:
        """Is the actual result more than ``std_devs`` standard deviations from theo? Exact:
        the squares are compared, no square root is taken."""
        if self.variance <= 0:
            return False
        bound = Decimal(std_devs)
        return _CONTEXT.multiply(self.difference, self.difference) > _CONTEXT.multiply(
            _CONTEXT.multiply(bound, bound), self.variance
        )

    def __add__(self, other: Comparison) -> Comparison:
        return Comparison(
            self.hands + other.hands,
            _CONTEXT.add(self.theo, other.theo),
            self.actual + other.actual,
            _CONTEXT.add(self.variance, other.variance),
        )


NO_HANDS = Comparison(0, Decimal(0), 0, Decimal(0))


def std_devs_text(value: Decimal | None) -> str:
    """The difference in standard deviations as people read it: ``3.27``, ``-0.50``; ``""``
    without a spread."""
    return "" if value is None else f"{value:.{SHOWN_STD_DEVS}f}"
