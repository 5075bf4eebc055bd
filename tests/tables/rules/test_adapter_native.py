"""The adapter calls phevaluator's compiled evaluator directly; it must agree with the wrapper."""

import random

from phevaluator.evaluator import evaluate_7cards

from tables.rules.cards import FULL_DECK
from tables.rules.hands import evaluate


def test_adapter_rank_equals_phevaluators_public_evaluate_7cards():
    rng = random.Random(7)
    for _ in range(20_000):
        cards = rng.sample(FULL_DECK, 7)
        assert evaluate(cards).strength == evaluate_7cards(*cards)
