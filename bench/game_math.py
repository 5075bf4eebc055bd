"""Benchmark: ``game_math`` per call (docs/benchmarks.md, "Game math").

Times, in one fresh process: the first call (reading the enumerated counts and solving the
base game's pre-flop decisions for the table's multiples), then repeated calls for the named
pay tables (answered from the per-table cache), then calls with custom pay tables never seen
before (each one computed: the Trips and Bad Beat figures from the counts, standard
deviations by Decimal square roots), then ``manage.py game_math`` end to end (a new Python
process: Django's start-up included). Target: well under a second per call.

    cd /work/main && .venv/bin/python bench/game_math.py [--calls N]

The one-off enumeration that made the counts is timed by ``bench/game_math_counts.py``.
The script prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

from wagers.rules.calculator import parse_options  # noqa: E402
from wagers.rules.gamemath import game_math, game_math_json  # noqa: E402

TARGET_SECONDS = 1.0


def _custom(n: int) -> dict:
    """A Trips and a Bad Beat table not seen before (odds differ with ``n``)."""
    return {
        "trips_paytable": {
            "royal_flush": 100 + n, "straight_flush": 40, "four_of_a_kind": 20,
            "full_house": 7, "flush": 6, "straight": 5, "three_of_a_kind": 3,
        },
        "bad_beat_paytable": {
            "straight_flush": 5000 + n, "four_of_a_kind": 400, "full_house": 40,
            "flush": 25, "straight": 20, "three_of_a_kind": 9,
        },
    }  # fmt: skip


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    calls = parser.parse_args().calls

    first = _timed(lambda: game_math_json(game_math(parse_options({}))))
    print(f"first call (counts read, base game solved): {first * 1000:8.1f} ms")
    named = [
        {"trips_paytable": trips, "bad_beat_paytable": bad_beat, "allowed_preflop_multiples": m}
        for trips in ("UTH-01", "UTH-02", "UTH-03", "UTH-04")
        for bad_beat in ("option-1", "option-2", None)
        for m in ([3, 4], [4], [3])
    ]
    for options in named:  # warm each once
        game_math_json(game_math(parse_options(options)))
    seconds = _timed(
        lambda: [
            game_math_json(game_math(parse_options(named[i % len(named)]))) for i in range(calls)
        ]
    )
    print(f"named pay tables, warm:                     {seconds / calls * 1000:8.3f} ms a call")
    seconds = _timed(
        lambda: [game_math_json(game_math(parse_options(_custom(i)))) for i in range(calls)]
    )
    print(f"custom pay tables, each new:                {seconds / calls * 1000:8.3f} ms a call")
    command = [sys.executable, "manage.py", "game_math", "--options", "-"]
    seconds = _timed(
        lambda: subprocess.run(
            command,
            input=json.dumps(_custom(0)).encode(),
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
    )
    print(f"manage.py game_math (a new process):        {seconds * 1000:8.1f} ms")
    print(f"target: under {TARGET_SECONDS:.0f} s a call")


if __name__ == "__main__":
    main()
