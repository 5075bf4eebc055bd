"""``manage.py verify_ledger``: recompute every balance and every round's conservation."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from fees import verification as fee_checks
from wagers import verification


class Command(BaseCommand):
    help = (
        "Recompute every account balance from its entries, check every transaction balances and "
        "every finished round conserved its chips; exit non-zero on any difference."
    )

    def handle(self, *args, **options):
        started = time.perf_counter()
        found = list(verification.differences({**verification.CHECKS, **fee_checks.CHECKS}))
        seconds = time.perf_counter() - started
        checked = ", ".join(f"{n} {what}" for what, n in verification.counts().items())
        for check, row_id, amount in found:
            self.stderr.write(f"DIFFERENCE {check}: id {row_id}, off by {amount} cents")
        if found:
            raise CommandError(
                f"{len(found)} difference(s) in the ledger ({checked}; {seconds:.2f} s)"
            )
        self.stdout.write(f"ledger verified: {checked}; no differences ({seconds:.2f} s)")
