"""EZ Baccarat's game math, exactly (docs/rules.md §14.8, docs/game-math.md).

Every coup is counted over every sequence of cards drawn without replacement from a full shoe
(the "off the top" figures): the number of ordered sequences of six distinct cards, each coup
counted once for every way the cards it does not use can follow it. The enumeration runs over
the cards' point values (ten classes: 16 cards worth 0 per deck, 4 of each other value) with
integer weights, the products of the counts left, so a shoe of 8 decks is counted exactly in
about a second; the counts depend only on the shoe and are kept per deck count. Every pay is
applied afterwards, as exact fractions.

Signs and conventions: a house edge is the bettor's expected loss per unit wagered (the
player-dealer's expected gain), positive when the wager favours the bank. For Player and Banker
a push (a tie, the Banker's Dragon 7) is a hand like any other: it counts in the denominator,
as the published EZ Baccarat figures count it; ``house_edge_per_resolved`` gives the edge per
hand that does not push. The hit frequency is the probability that the wager pays; the standard
deviation is that of the bettor's result per unit wagered (a square root: a decimal to 20
significant digits; its square, the variance, is exact).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache, cached_property

from wagers.rules.gamemath import decimal, square_root

from .coup import BANKER_DRAWS, BANKER_DRAWS_ON, NATURALS, PLAYER_DRAWS_ON
from .options import BaccaratOptions
from .points import CARDS_PER_DECK_BY_POINTS, POINTS
from .wagers import BaccaratWager

CARDS_IN_A_COUP = 6  # the most a coup uses: every count is of sequences of six cards


@dataclass(frozen=True)
class CoupCounts:
    """How many ordered sequences of six cards from a shoe give each result.

    ``dragon_7`` (the Banker hand wins with three cards totalling 7) is counted within
    ``banker``; ``panda_8`` (the Player hand wins with three cards totalling 8) within
    ``player``.
    """

    sequences: int
    player: int
    banker: int
    tie: int
    dragon_7: int
    panda_8: int


def falling(n: int, k: int) -> int:
    """n (n - 1) ... (n - k + 1): the ordered ways to draw k cards from n."""
    product = 1
    for i in range(k):
        product *= n - i
    return product


def count_coups(composition: Sequence[int]) -> CoupCounts:
    """Count every coup dealt from a shoe holding ``composition[v]`` cards worth ``v`` points.

    Exactly: each sequence of point values is weighted by the ordered ways to draw such cards
    (the product of the counts left as each is drawn), then by the ways the cards the coup does
    not use can follow it, so every count is of sequences of six distinct cards.
    """
    counts = list(composition)
    if len(counts) != len(POINTS) or min(counts) < 0:
        raise ValueError("a composition gives a count, zero or more, for each point value 0-9")
    size = sum(counts)
    if size < CARDS_IN_A_COUP:
        raise ValueError(f"a shoe of {size} cards cannot deal every coup")
    after = {k: falling(size - k, CARDS_IN_A_COUP - k) for k in (4, 5, 6)}
    # sums[k][result] for coups of k cards, result: 0 player, 1 banker, 2 tie, 3 dragon 7
    # (a banker win), 4 panda 8 (a player win)
    sums = {k: [0, 0, 0, 0, 0] for k in (4, 5, 6)}

    def settle(k: int, weight: int, player: int, banker: int, p3: bool, b3: bool) -> None:
        row = sums[k]
        if player > banker:
            row[0] += weight
            if p3 and player == 8:
                row[4] += weight
        elif banker > player:
            row[1] += weight
            if b3 and banker == 7:
                row[3] += weight
        else:
            row[2] += weight

    values = range(len(POINTS))
    # The Player's two cards and the Banker's two: the order within a hand changes neither its
    # total nor the weight, so each pair of values is taken once, counted twice if different.
    for p1 in values:
        for p2 in range(p1, 10):
            w_p = counts[p1] * (counts[p2] - (p1 == p2)) * (1 if p1 == p2 else 2)
            if not w_p:
                continue
            counts[p1] -= 1
            counts[p2] -= 1
            player = (p1 + p2) % 10
            for b1 in values:
                for b2 in range(b1, 10):
                    w4 = w_p * counts[b1] * (counts[b2] - (b1 == b2)) * (1 if b1 == b2 else 2)
                    if not w4:
                        continue
                    counts[b1] -= 1
                    counts[b2] -= 1
                    banker = (b1 + b2) % 10
                    if player in NATURALS or banker in NATURALS:
                        settle(4, w4, player, banker, False, False)
                    elif player in PLAYER_DRAWS_ON:
                        for p3 in values:
                            w5 = w4 * counts[p3]
                            if not w5:
                                continue
                            player3 = (player + p3) % 10
                            if p3 in BANKER_DRAWS[banker]:
                                counts[p3] -= 1
                                for b3 in values:
                                    w6 = w5 * counts[b3]
                                    if w6:
                                        settle(6, w6, player3, (banker + b3) % 10, True, True)
                                counts[p3] += 1
                            else:
                                settle(5, w5, player3, banker, True, False)
                    elif banker in BANKER_DRAWS_ON:
                        for b3 in values:
                            w5 = w4 * counts[b3]
                            if w5:
                                settle(5, w5, player, (banker + b3) % 10, False, True)
                    else:
                        settle(4, w4, player, banker, False, False)
                    counts[b1] += 1
                    counts[b2] += 1
            counts[p1] += 1
            counts[p2] += 1
    totals = [sum(sums[k][i] * after[k] for k in sums) for i in range(5)]
    counted = CoupCounts(falling(size, CARDS_IN_A_COUP), *totals)
    if counted.player + counted.banker + counted.tie != counted.sequences:
        raise AssertionError("the coups counted are not every sequence of the shoe")
    return counted


def composition(decks: int) -> tuple[int, ...]:
    """A full shoe of ``decks`` decks by point value: 16 per deck worth 0, 4 of each other."""
    return tuple(decks * n for n in CARDS_PER_DECK_BY_POINTS)


@cache
def shoe_counts(decks: int) -> CoupCounts:
    """The counts of a full shoe (computed once per deck count in a process)."""
    return count_coups(composition(decks))


@dataclass(frozen=True)
class Probabilities:
    """Each result's probability off the top of a full shoe."""

    player: Fraction
    banker: Fraction
    tie: Fraction
    dragon_7: Fraction
    panda_8: Fraction

    @classmethod
    def of(cls, counts: CoupCounts) -> Probabilities:
        n = counts.sequences
        return cls(
            Fraction(counts.player, n),
            Fraction(counts.banker, n),
            Fraction(counts.tie, n),
            Fraction(counts.dragon_7, n),
            Fraction(counts.panda_8, n),
        )


@dataclass(frozen=True)
class WagerFigures:
    """One wager's figures. ``payouts`` are (result per unit wagered, probability) for every
    result: a win pays its odds, a loss is -1, a push 0."""

    wager: BaccaratWager
    payouts: tuple[tuple[int, Fraction], ...]

    @cached_property
    def mean(self) -> Fraction:
        return sum((value * p for value, p in self.payouts), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return -self.mean

    @property
    def hit_frequency(self) -> Fraction:
        return sum((p for value, p in self.payouts if value > 0), Fraction(0))

    @property
    def push_frequency(self) -> Fraction:
        return sum((p for value, p in self.payouts if value == 0), Fraction(0))

    @property
    def house_edge_per_resolved(self) -> Fraction:
        """The house edge per hand that does not push (the same when a wager never pushes)."""
        return self.house_edge / (1 - self.push_frequency)

    @cached_property
    def variance(self) -> Fraction:
        return sum((value**2 * p for value, p in self.payouts), Fraction(0)) - self.mean**2

    @cached_property
    def std_dev(self) -> Decimal:
        return square_root(self.variance)


@dataclass(frozen=True)
class BaccaratMath:
    """The figures of every wager of a table's options, and the probabilities behind them."""

    decks: int
    probabilities: Probabilities
    wagers: dict[BaccaratWager, WagerFigures]

    def __getitem__(self, kind: BaccaratWager) -> WagerFigures:
        return self.wagers[kind]


def figures(options: BaccaratOptions) -> BaccaratMath:
    """Each wager's exact figures for the table's deck count and pays."""
    p = Probabilities.of(shoe_counts(options.decks))
    player_loses = p.banker
    banker_wins = p.banker - p.dragon_7
    rows = {
        BaccaratWager.PLAYER: ((1, p.player), (0, p.tie), (-1, player_loses)),
        BaccaratWager.BANKER: ((1, banker_wins), (0, p.tie + p.dragon_7), (-1, p.player)),
        BaccaratWager.TIE: ((options.tie_pays, p.tie), (-1, 1 - p.tie)),
        BaccaratWager.DRAGON_7: ((options.dragon_7_pays, p.dragon_7), (-1, 1 - p.dragon_7)),
        BaccaratWager.PANDA_8: ((options.panda_8_pays, p.panda_8), (-1, 1 - p.panda_8)),
    }
    return BaccaratMath(
        options.decks,
        p,
        {kind: WagerFigures(kind, payouts) for kind, payouts in rows.items()},
    )


def _figure(value: Fraction) -> str:
    return format(decimal(value), "f")


def figures_json(math: BaccaratMath) -> dict[str, dict[str, str]]:
    """The ``game_math`` command's answer for this game: per wager, ``house_edge``,
    ``hit_frequency`` and ``std_dev`` as decimal strings of 20 significant digits."""
    return {
        kind.value: {
            "house_edge": _figure(wager.house_edge),
            "hit_frequency": _figure(wager.hit_frequency),
            "std_dev": format(wager.std_dev, "f"),
        }
        for kind, wager in math.wagers.items()
    }
