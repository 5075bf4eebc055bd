"""``manage.py verify_ledger``: recompute every balance and check every round's money against
its record: every transaction leg by leg, every bank return, every fee, every void, every
chip movement against its cage slip; and every settled hand played again from its cards,
wagers and decisions."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from fees import verification as fee_checks
from wagers import recomputation, verification

CHECKS = {
    **verification.CHECKS,
    **fee_checks.CHECKS,
    "settled hands played again": recomputation.SETTLED_HANDS,
}


class Command(BaseCommand):
    help = (
        "Recompute every account balance from its entries, check every transaction balances, "
        "compare every transaction of every round leg by leg with the bet, bank, settlement "
        "line or fee line it was posted from and every chip movement with its cage slip, "
        "play every settled hand again from its cards, wagers and decisions; exit non-zero "
        "on any difference."
    )

    def handle(self, *args, **options):
        started = time.perf_counter()
        found = list(verification.differences(CHECKS))
        seconds = time.perf_counter() - started
        checked = ", ".join(f"{n} {what}" for what, n in verification.counts().items())
        if found:
            names = verification.describe(found, {"fee line": fee_checks.fee_line_names})
            for text in names:
                self.stderr.write(f"DIFFERENCE {text}")
            raise CommandError(
                f"{len(found)} difference(s) in the ledger ({checked}; {seconds:.2f} s)"
            )
        self.stdout.write(f"ledger verified: {checked}; no differences ({seconds:.2f} s)")
