"""The enumerated figures against play (docs/rules.md §13): a million deals, each played out
by the real settlement core (``play_out``), agree with the exact Trips and Bad Beat figures
within four standard errors: the house edge, and how often each hand category comes up.

The deals are drawn with a fixed seed, in two processes (the machine has two cores), so the
run is the same every time; a wrong count or a wrong resolution would show as a gap of many
standard errors, not as a flaky failure.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

from tables.rules.hands import Category
from tables.rules.options import GameOptions
from tables.rules.paytables import BAD_BEAT_PAYTABLES, TRIPS_PAYTABLES
from wagers.rules.gamemath import (
    bad_beat_math,
    losing_hand_probabilities,
    seven_card_probabilities,
    trips_math,
)
from wagers.rules.resolution import HandResult
from wagers.rules.showdown import SeatHand, play_out
from wagers.rules.wagers import Stakes, WagerKind

DEALS = 1_000_000
WORKERS = 2
STAKE = 100
OPTIONS = GameOptions(
    trips_paytable=TRIPS_PAYTABLES["UTH-03"], bad_beat_paytable=BAD_BEAT_PAYTABLES["option-2"]
)


def _play(seed: int, deals: int) -> tuple[int, int, int, int, Counter, Counter]:
    """Deal ``deals`` hands; sum each wager's result (and its square), count the categories."""
    rng = random.Random(seed)
    deck = list(range(52))
    stakes = Stakes(trips=STAKE, bad_beat=STAKE)
    trips = trips_square = bad_beat = bad_beat_square = 0
    seven_card: Counter = Counter()
    losing: Counter = Counter()
    for _ in range(deals):
        cards = rng.sample(deck, 9)
        outcome = play_out(
            6, cards[2:4], cards[4:], [SeatHand(1, (cards[0], cards[1]), stakes)], 10**12, OPTIONS
        )
        for line in outcome.settlement.lines:
            result = (line.paid - line.collected) // STAKE  # the odds pay whole units here
            if line.wager is WagerKind.TRIPS:
                trips, trips_square = trips + result, trips_square + result * result
            else:
                bad_beat, bad_beat_square = bad_beat + result, bad_beat_square + result * result
        seat = outcome.seats[0]
        seven_card[seat.value.category] += 1
        if seat.result is HandResult.WIN:
            losing[outcome.dealer.category] += 1
        elif seat.result is HandResult.LOSE:
            losing[seat.value.category] += 1
    return trips, trips_square, bad_beat, bad_beat_square, seven_card, losing


def _run() -> tuple[list[int], Counter, Counter]:
    share = DEALS // WORKERS
    with ProcessPoolExecutor(WORKERS) as pool:
        parts = list(pool.map(_play, range(2026, 2026 + WORKERS), [share] * WORKERS))
    sums = [sum(part[i] for part in parts) for i in range(4)]
    seven_card = sum((part[4] for part in parts), Counter())
    losing = sum((part[5] for part in parts), Counter())
    return sums, seven_card, losing


def _standard_errors(observed: Fraction, expected: Fraction, variance: float) -> float:
    return abs(float(observed - expected)) / math.sqrt(variance / DEALS)


def test_a_million_deals_played_out_agree_with_the_exact_figures():
    (trips, trips_square, bad_beat, bad_beat_square), seven_card, losing = _run()
    # The house edge: the bettor's mean result per unit is minus the edge, within four of
    # the standard errors the exact variance gives a mean of a million deals.
    for total, square, figures, spread_within in (
        (trips, trips_square, trips_math(OPTIONS.trips_paytable), 0.1),
        (bad_beat, bad_beat_square, bad_beat_math(OPTIONS.bad_beat_paytable), None),
    ):
        mean = Fraction(total, DEALS)
        assert _standard_errors(mean, -figures.house_edge, float(figures.variance)) < 4
        if spread_within is not None:
            # Trips's spread too. (Bad Beat's is mostly its 7,500-to-1 straight flush, seen
            # about four times in a million deals: too few for its sample variance to say much.)
            sample_variance = float(Fraction(square, DEALS) - mean**2)
            assert abs(sample_variance / float(figures.variance) - 1) < spread_within
    # Every category's frequency, for both counts.
    for counted, probabilities in (
        (seven_card, seven_card_probabilities()),
        (losing, losing_hand_probabilities()),
    ):
        assert set(counted) <= set(probabilities)
        for category, probability in probabilities.items():
            observed = Fraction(counted[category], DEALS)
            variance = float(probability * (1 - probability)) or 1.0
            assert _standard_errors(observed, probability, variance) < 4, category.label
    # The sample is big enough to see the common categories to a small fraction of themselves.
    assert seven_card[Category.ONE_PAIR] > 400_000 and losing[Category.THREE_OF_A_KIND] > 20_000
