"""Simulate complete rounds on PostgreSQL through the real services, then verify the ledger.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_bench \\
        .venv/bin/python bench/simulate_rounds.py --tables 10 --rounds 10000 --processes 2

Tables are independent (each round locks only its own table), so the run is
split over ``--processes`` worker processes, each simulating its share of the
tables with ``manage.py simulate`` (DEBUG off, as in production). It prints
rounds per second over the whole run (tables file a collection schedule unless
``--no-fees``), the queries per round each worker
counted (overall, and for its first and its last 100 rounds, to show they do
not grow with the rounds stored), and the seconds ``verify_ledger`` takes.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANAGE = [sys.executable, str(ROOT / "manage.py")]
FIGURES = re.compile(r"simulated (\d+) rounds .* ([\d.]+) queries per round")


def _env() -> dict[str, str]:
    env = dict(os.environ, DEBUG="false")
    env.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
    return env


def _simulate(tables: int, rounds: int, prefix: str, seed: int, fees: bool) -> subprocess.Popen:
    command = [
        *MANAGE,
        "simulate",
        f"--tables={tables}",
        f"--rounds={rounds}",
        f"--seed={seed}",
        f"--prefix={prefix}",
        *([] if fees else ["--no-fees"]),
    ]
    return subprocess.Popen(command, env=_env(), stdout=subprocess.PIPE, text=True, cwd=ROOT)


def run_batch(
    tables: int, rounds: int, processes: int, tag: str, fees: bool = True
) -> tuple[int, float, list[str]]:
    started = time.perf_counter()
    workers = [
        _simulate(tables // processes, rounds // processes, f"{tag}{n}", seed=n + 1, fees=fees)
        for n in range(processes)
    ]
    outputs = [worker.communicate()[0].strip() for worker in workers]
    seconds = time.perf_counter() - started
    if any(worker.returncode for worker in workers):
        sys.exit("a simulation failed:\n" + "\n".join(outputs))
    played = sum(int(FIGURES.search(out).group(1)) for out in outputs)
    return played, seconds, outputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--no-fees",
        dest="fees",
        action="store_false",
        help="tables without a collection schedule (the cost of fees is the difference)",
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL database for this benchmark")
    subprocess.run([*MANAGE, "migrate", "-v0"], env=_env(), check=True, cwd=ROOT)
    played, seconds, outputs = run_batch(
        args.tables, args.rounds, args.processes, f"B{int(time.time())}-", fees=args.fees
    )
    started = time.perf_counter()
    verify = subprocess.run(
        [*MANAGE, "verify_ledger"], env=_env(), capture_output=True, text=True, cwd=ROOT
    )
    verify_seconds = time.perf_counter() - started
    fees = "with collection fees" if args.fees else "without fees"
    print(f"{args.processes} processes, {args.tables} tables, {fees}, PostgreSQL, DEBUG off")
    print(f"{played} rounds in {seconds:.1f} s = {played / seconds:.1f} rounds/s")
    for out in outputs:
        print(f"  worker: {out}")
    print(
        f"verify_ledger: {verify_seconds:.1f} s, exit {verify.returncode}: {verify.stdout.strip()}"
    )
    if verify.returncode:
        print(verify.stderr[-2000:])


if __name__ == "__main__":
    main()
