"""Benchmark: our hand evaluator adapter against raw phevaluator (docs/benchmarks.md).

Times ``tables.rules.hands.evaluate`` (the adapter: count and duplicate checks,
then phevaluator's ``evaluate_7cards``, then the category and a ``HandValue``)
against ``phevaluator.evaluator.evaluate_7cards`` called directly, both over the
same pre-generated list of random seven-card hands (fixed seed; generation is
not timed). Each is run ``--repeats`` times, interleaved, and the best (fastest)
run of each is reported, with the ratio adapter/raw. Target: ratio >= 0.7.

    cd /work/main && python bench/hand_evaluation.py [--hands N] [--repeats R]

``--breakdown`` also times the adapter's steps one by one, to see where the
difference from raw phevaluator goes. The script prints figures only; it
asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from phevaluator import _pheval  # private native module, --breakdown only
from phevaluator.evaluator import evaluate_7cards

from tables.rules.cards import FULL_DECK
from tables.rules.hands import _CATEGORY_OF_RANK, HandValue, evaluate

TARGET_RATIO = 0.7


def random_hands(count: int, seed: int) -> list[tuple[int, ...]]:
    """``count`` random hands of seven distinct cards (``Card``, an ``int`` subclass)."""
    rng = random.Random(seed)
    return [tuple(rng.sample(FULL_DECK, 7)) for _ in range(count)]


def run_adapter(hands, evaluate=evaluate):
    for cards in hands:
        evaluate(cards)


def run_raw(hands, evaluate_7cards=evaluate_7cards):
    for cards in hands:
        evaluate_7cards(*cards)


# The adapter's steps, one at a time (--breakdown).


def run_native(hands, native=_pheval.evaluate_7cards):
    """phevaluator's C function without its Python wrapper (Card.to_id x 7)."""
    for cards in hands:
        native(*cards)


def run_raw_checks(hands, evaluate_7cards=evaluate_7cards):
    """Raw plus the adapter's count and duplicate checks."""
    for cards in hands:
        if len(cards) != 7 or len(set(cards)) != 7:
            raise ValueError(cards)
        evaluate_7cards(*cards)


def run_raw_value(hands, evaluate_7cards=evaluate_7cards, categories=_CATEGORY_OF_RANK):
    """Raw plus the category lookup and a new (frozen, slotted) HandValue."""
    for cards in hands:
        strength = evaluate_7cards(*cards)
        HandValue(strength, categories[strength])


def run_raw_cached_value(hands, evaluate_7cards=evaluate_7cards):
    """Raw plus a lookup in a table of the 7,462 possible HandValues (no construction)."""
    values = _VALUES
    for cards in hands:
        values[evaluate_7cards(*cards)]


_VALUES = (None, *(HandValue(rank, _CATEGORY_OF_RANK[rank]) for rank in range(1, 7463)))


# Possible adapters (--breakdown), for the engineer who owns tables/rules/hands.py.


def checked_cached(cards, evaluate_7cards=evaluate_7cards, values=_VALUES):
    """The same checks, and a HandValue looked up instead of built."""
    if len(cards) != 7 or len(set(cards)) != 7:
        raise ValueError(cards)
    return values[evaluate_7cards(*cards)]


def unchecked_cached(cards, evaluate_7cards=evaluate_7cards, values=_VALUES):
    """No per-hand duplicate check (the round's cards checked once, as deal() and the
    calculator already do), and a HandValue looked up instead of built."""
    return values[evaluate_7cards(*cards)]


def checked_native_cached(cards, native=_pheval.evaluate_7cards, values=_VALUES):
    """The same checks, the native function without its wrapper, a looked-up HandValue."""
    if len(cards) != 7 or len(set(cards)) != 7:
        raise ValueError(cards)
    return values[native(*cards)]


def _looped(function):
    def run(hands):
        for cards in hands:
            function(cards)

    run.__name__ = f"run_{function.__name__}"
    return run


def best_time(functions, hands, repeats: int) -> list[float]:
    """The fastest of ``repeats`` runs of each function (runs interleaved)."""
    best = [float("inf")] * len(functions)
    for _ in range(repeats):
        for index, function in enumerate(functions):
            start = time.perf_counter()
            function(hands)
            best[index] = min(best[index], time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per run")
    parser.add_argument("--repeats", type=int, default=7, help="runs of each; the best counts")
    parser.add_argument("--seed", type=int, default=20261121, help="seed of the hand generator")
    parser.add_argument(
        "--breakdown", action="store_true", help="also time the adapter's steps one by one"
    )
    args = parser.parse_args(argv)

    hands = random_hands(args.hands, args.seed)
    agree = all(evaluate(cards).strength == evaluate_7cards(*cards) for cards in hands)
    print(
        f"Python {platform.python_version()} on {platform.machine()}; "
        f"{args.hands:,} random 7-card hands (seed {args.seed}), best of {args.repeats} runs"
    )
    print(f"adapter and raw agree on every hand: {'yes' if agree else 'NO'}")

    adapter, raw = best_time((run_adapter, run_raw), hands, args.repeats)
    ratio = raw / adapter  # (hands/s of the adapter) / (hands/s of raw)
    print(f"adapter  tables.rules.hands.evaluate        {args.hands / adapter:>12,.0f} hands/s")
    print(f"raw      phevaluator evaluate_7cards(*ids)  {args.hands / raw:>12,.0f} hands/s")
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    print(f"ratio adapter/raw: {ratio:.2f} ({verdict} the target of {TARGET_RATIO})")

    if args.breakdown:
        steps = (
            ("native   _pheval.evaluate_7cards (no wrapper)", run_native),
            ("raw      evaluate_7cards", run_raw),
            ("raw + count/duplicate checks", run_raw_checks),
            ("raw + category + new HandValue", run_raw_value),
            ("raw + cached HandValue lookup", run_raw_cached_value),
            ("adapter  evaluate (all of it)", run_adapter),
            ("possible: checks + cached HandValue", _looped(checked_cached)),
            ("possible: no per-hand check + cached HandValue", _looped(unchecked_cached)),
            ("possible: checks + native + cached HandValue", _looped(checked_native_cached)),
        )
        times = best_time([function for _, function in steps], hands, args.repeats)
        print("breakdown (ns per hand, best run):")
        for (label, _), seconds in zip(steps, times, strict=True):
            print(f"  {label:<48} {seconds / args.hands * 1e9:>7.0f} ns")


if __name__ == "__main__":
    main()
