"""Benchmark: the exhaustive game-math script (scripts/game_math_counts.py).

Times the script's pieces on this machine: building the evaluator's tables (with numba's
compile of the script's functions), the evaluator on random seven-card hands, and the two
slices that the tests recompute (every monotone board; the hole pair As Ks on every flop of
three cards of one rank, with all their turn-river pairs); then prints the full run's time as
recorded in wagers/rules/gamemath_counts.json. ``--full`` also runs the full computation
(every board; a few minutes on 2 cores and about 1.5 GB of memory), writing nothing::

    cd /work/main && .venv/bin/python bench/game_math_counts.py [--full] [--hands N]
        [--boards N] [--flops N]

``--boards`` and ``--flops`` time only the first N of each slice (the suite's smoke run).

Each function is first called on a tiny input (numba compiles it then; that time is printed
apart), then timed. It prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import game_math_counts as gm  # noqa: E402


def timed(function, *args):
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="random hands to evaluate")
    parser.add_argument("--full", action="store_true", help="also run the full computation")
    parser.add_argument("--boards", type=int, help="time only the first N monotone boards")
    parser.add_argument("--flops", type=int, help="time only the first N trips flops")
    args = parser.parse_args(argv)

    _, seconds = timed(gm.tables)
    print(f"evaluator tables (plain Python): {seconds:.1f} s")

    rng = np.random.default_rng(20261121)
    hands = np.argpartition(rng.random((args.hands, 52)), 7, axis=1)[:, :7]
    boards = gm.monotone_boards()[: args.boards]
    flops = gm.trips_flops(gm.AKS)[: args.flops]
    start = time.perf_counter()
    gm.evaluate_hands(hands[:1])
    gm.boards_counts(boards[:1])
    gm.hole_on_flops(gm.AKS, flops[:1])
    print(f"numba compile (first calls, on one hand, one board, one flop): "
          f"{time.perf_counter() - start:.1f} s")  # fmt: skip

    _, seconds = timed(gm.evaluate_hands, hands)
    print(f"evaluator: {args.hands:,} random hands in {seconds:.2f} s "
          f"({args.hands / seconds / 1e6:.1f} M hands/s)")  # fmt: skip

    _, seconds = timed(gm.boards_counts, boards)
    print(f"monotone boards slice: {len(boards):,} boards in {seconds:.2f} s "
          f"({seconds / len(boards) * 1e6:.0f} us a board, 1,081 hole pairs each)")  # fmt: skip

    _, seconds = timed(gm.hole_on_flops, gm.AKS, flops)
    count = len(flops) * gm.N_TURN_RIVER
    print(f"base game trips flops slice (As Ks): {len(flops)} flops x 1,081 turn-river pairs "
          f"= {count:,} boards in {seconds:.2f} s")  # fmt: skip

    about = json.loads(gm.OUTPUT.read_text())["about"]
    seconds, machine = about["computed_in_seconds"], about["machine"]
    print(f"full run as recorded in {gm.OUTPUT.relative_to(ROOT)}: "
          f"{seconds:,} s on {machine} (numba {about['numba']})")  # fmt: skip

    if args.full:
        _, seconds = timed(gm.compute_full)
        print(f"full run: {gm.N_BOARDS:,} boards in {seconds:.0f} s "
              f"({seconds / gm.N_BOARDS * 1e6:.0f} us a board, wall clock)")  # fmt: skip


if __name__ == "__main__":
    main()
