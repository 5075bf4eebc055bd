"""Benchmark: resolve and settle a full table in the pure core (docs/benchmarks.md).

Each round: the player-dealer at a random seat with a random bank, the five
other seats playing against it (one of them with a backline bettor), cards
dealt from a seeded shuffle in the `004` §7 order, wagers and decisions drawn
at random among those the rules allow (each round is checked with the core's
own validators before timing). The timed part is only
``wagers.rules.showdown.play_out`` over the pre-generated rounds; it is run
``--repeats`` times and the best run is reported, in rounds per second on one
core. Target: >= 20,000 rounds/second.

    cd /work/main && python bench/settle_table.py [--rounds N] [--repeats R]
                                                  [--stages] [--profile]

``--stages`` times each step of play_out alone (no profiler overhead);
``--profile`` also runs one pass under cProfile and prints the top functions.
The script prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.rules.decisions import Action, Decision, DecisionRecord, Street, legal_decisions
from tables.rules.deck import deal, shuffled_deck
from tables.rules.hands import evaluate
from tables.rules.options import GameOptions
from tables.rules.seats import SEATS
from wagers.rules.resolution import hand_result, resolve_stakes
from wagers.rules.settlement import apply_coverage, settlement_order
from wagers.rules.showdown import SeatHand, play_out
from wagers.rules.validation import (
    validate_backline_play,
    validate_opening_wagers,
    validate_play_amount,
)
from wagers.rules.wagers import Stakes

TARGET = 20_000
CHIP = 100  # a $1 chip: 3:2 on an odd number of dollars is rounded down, and recorded
OPTIONS = GameOptions(chip_unit=CHIP, table_minimum=500, table_maximum=100_000)
ANTES = (500, 1000, 1500, 2500, 5000, 10_000)  # cents
SIDE_BETS = (500, 1000, 2500, 5000)
BANKS = (5_000, 20_000, 50_000, 100_000, 250_000, 1_000_000)

# How often each legal choice is taken, by street (weights, in legal_decisions' order).
WEIGHTS = {
    Street.PREFLOP: {Action.CHECK: 5, Action.PLAY: 5},  # the Play weight is split 3x/4x
    Street.FLOP: {Action.CHECK: 6, Action.PLAY: 4},
    Street.RIVER: {Action.PLAY: 6, Action.FOLD: 4},
}


def random_play_multiple(rng: random.Random) -> int:
    """Walk the streets, choosing among legal decisions; 0 means the hand folded."""
    record = DecisionRecord()
    multiples = OPTIONS.allowed_preflop_multiples
    while record.next_street is not None:
        street = record.next_street
        choices = legal_decisions(record, street, multiples)
        plays = sum(1 for choice in choices if choice.action is Action.PLAY)
        weights = [
            WEIGHTS[street][choice.action] / (plays if choice.action is Action.PLAY else 1)
            for choice in choices
        ]
        decision: Decision = rng.choices(choices, weights)[0]
        record = record.then(decision, multiples)
    return record.play_multiple


def random_side_bet(rng: random.Random, chance: float) -> int:
    return rng.choice(SIDE_BETS) if rng.random() < chance else 0


def random_round(rng: random.Random) -> tuple:
    """The arguments of one play_out call: a full table, validated by the core's rules."""
    dealer_seat = rng.choice(SEATS)
    seats = [seat for seat in SEATS if seat != dealer_seat]
    dealt = deal(shuffled_deck(rng), dealer_seat, seats)
    backline_seat = rng.choice(seats)
    hands = []
    for seat in seats:
        multiple = random_play_multiple(rng)
        ante = rng.choice(ANTES)
        stakes = Stakes(
            ante=ante,
            blind=ante,
            play=ante * multiple,
            trips=random_side_bet(rng, 0.5),
            bad_beat=random_side_bet(rng, 0.3),
        )
        validate_opening_wagers(stakes, OPTIONS)
        validate_play_amount(stakes, OPTIONS, folded=multiple == 0)
        backline = ()
        if seat == backline_seat:
            behind_ante = rng.choice(ANTES)
            behind = Stakes(
                ante=behind_ante,
                blind=behind_ante,
                play=behind_ante * multiple,
                trips=random_side_bet(rng, 0.5),
            )
            validate_opening_wagers(behind, OPTIONS, backline=True)
            validate_backline_play(behind, stakes)
            backline = (behind,)
        hands.append(SeatHand(seat, dealt.hole_for(seat), stakes, multiple == 0, backline))
    bank = rng.choice(BANKS)
    return (dealer_seat, dealt.player_dealer, dealt.board, tuple(hands), bank, OPTIONS)


def run(rounds, play_out=play_out):
    for arguments in rounds:
        play_out(*arguments)


def stage_inputs(rounds):
    """play_out's intermediate values for every round, so each stage can be timed alone."""
    staged = []
    for dealer_seat, dealer_hole, board, hands, _bank, options in rounds:
        dealer = evaluate((*dealer_hole, *board))
        values = [evaluate((*hand.hole, *board)) for hand in hands]
        results = [
            hand_result(value, dealer, hand.folded)
            for hand, value in zip(hands, values, strict=True)
        ]
        resolutions = {
            hand.seat: [
                resolve_stakes(stakes, result, value, dealer, options)
                for stakes in (hand.stakes, *hand.backline)
            ]
            for hand, value, result in zip(hands, values, results, strict=True)
        }
        folded = tuple(hand.seat for hand in hands if hand.folded)
        ordered = settlement_order(dealer_seat, resolutions, folded)
        staged.append((dealer, values, results, resolutions, folded, ordered))
    return staged


def time_stages(rounds, repeats: int) -> list[tuple[str, float]]:
    """Best-of-``repeats`` seconds per round of each step of play_out, timed alone."""
    staged = stage_inputs(rounds)
    pairs = list(zip(rounds, staged, strict=True))

    def evaluate_hands():
        for (_, dealer_hole, board, hands, _, _), _ in pairs:
            evaluate((*dealer_hole, *board))
            for hand in hands:
                evaluate((*hand.hole, *board))

    def resolve():
        for (_, _, _, hands, _, options), (dealer, values, _, _, _, _) in pairs:
            for hand, value in zip(hands, values, strict=False):
                result = hand_result(value, dealer, hand.folded)
                for stakes in (hand.stakes, *hand.backline):
                    resolve_stakes(stakes, result, value, dealer, options)

    def order():
        for (dealer_seat, _, _, _, _, _), (_, _, _, resolutions, folded, _) in pairs:
            settlement_order(dealer_seat, resolutions, folded)

    def cover():
        for (_, _, _, _, bank, _), (_, _, _, _, _, ordered) in pairs:
            apply_coverage(bank, ordered)

    stages = (
        ("evaluate x6 (tables.rules.hands.evaluate)", evaluate_hands),
        ("hand_result + resolve_stakes x6 bettors", resolve),
        ("settlement_order", order),
        ("apply_coverage", cover),
        ("play_out (all of it)", lambda: run(rounds)),
    )
    best = {label: float("inf") for label, _ in stages}
    for _ in range(repeats):
        for label, function in stages:
            start = time.perf_counter()
            function()
            best[label] = min(best[label], time.perf_counter() - start)
    return [(label, best[label] / len(rounds)) for label, _ in stages]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per run")
    parser.add_argument("--repeats", type=int, default=7, help="runs; the best counts")
    parser.add_argument("--seed", type=int, default=20261121, help="seed of the deal generator")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one pass")
    parser.add_argument("--stages", action="store_true", help="time each step of play_out alone")
    parser.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    rounds = [random_round(rng) for _ in range(args.rounds)]

    outcomes = [play_out(*arguments) for arguments in rounds]  # untimed: a summary of the work
    folds = sum(hand.folded for arguments in rounds for hand in arguments[3])
    lines = sum(len(outcome.settlement.lines) for outcome in outcomes)
    exhausted = sum(outcome.settlement.exhausted for outcome in outcomes)
    print(
        f"Python {platform.python_version()} on {platform.machine()}; {args.rounds:,} rounds "
        f"(seed {args.seed}), 5 players + 1 backline bettor vs the player-dealer, "
        f"best of {args.repeats} runs"
    )
    print(
        f"per round: {lines / args.rounds:.1f} settlement lines, "
        f"{folds / args.rounds:.2f} folded seats; bank exhausted in "
        f"{exhausted / args.rounds:.1%} of rounds"
    )

    best = float("inf")
    for _ in range(args.repeats):
        start = time.perf_counter()
        run(rounds)
        best = min(best, time.perf_counter() - start)
    rate = args.rounds / best
    verdict = "meets" if rate >= TARGET else "BELOW"
    print(
        f"play_out: {rate:,.0f} rounds/s ({best / args.rounds * 1e6:.1f} us per round; "
        f"{verdict} the target of {TARGET:,})"
    )

    if args.stages:
        print("stages (us per round, best run, no profiler):")
        for label, seconds in time_stages(rounds, args.repeats):
            print(f"  {label:<44} {seconds * 1e6:>7.1f} us")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(rounds)
        profiler.disable()
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.top)
            print(f"--- cProfile, one pass, sorted by {order} ---")
            print(out.getvalue().split("\n", 6)[-1].rstrip())


if __name__ == "__main__":
    main()
