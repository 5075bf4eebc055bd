"""``verify_ledger``'s parts timed on the database of ``DATABASE_URL`` (a simulated floor).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_verify \\
        .venv/bin/python bench/verify_ledger.py [--runs 3]

Each part runs alone in its own read-only snapshot, ``--runs`` times, and the command once
whole: the SQL checks it ran before cage slips and hands played again (money and fees, leg
by leg); the cage slips' checks; every settled hand played again (``wagers.recomputation``).
Prints the seconds of each run and the differences found (a clean floor: none).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

import django

django.setup()

from rounds.management.commands.verify_ledger import CHECKS  # noqa: E402
from wagers import recomputation, verification  # noqa: E402

SLIPS = {name for name in CHECKS if "cage slip" in name}
PLAYED_AGAIN = {
    name for name, check in CHECKS.items() if isinstance(check, verification.Recomputation)
}
PARTS = {
    "SQL checks of before (money, fees, leg by leg)": {
        name: check for name, check in CHECKS.items() if name not in SLIPS | PLAYED_AGAIN
    },
    "cage slips (leg by leg, currency, kind, account)": {name: CHECKS[name] for name in SLIPS},
    "every settled hand played again": {name: CHECKS[name] for name in PLAYED_AGAIN},
    "the whole command": CHECKS,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    counts = verification.counts()
    floor = ", ".join(f"{n:,} {what}" for what, n in counts.items())
    print(f"{floor} (hands played again in batches of {recomputation.BATCH})")
    for part, checks in PARTS.items():
        seconds, found = [], 0
        for _ in range(runs):
            started = time.perf_counter()
            found = len(verification.differences(checks))
            seconds.append(time.perf_counter() - started)
        timings = ", ".join(f"{s:.2f}" for s in seconds)
        print(f"{part}: {timings} s; {found} difference(s)")


if __name__ == "__main__":
    main()
