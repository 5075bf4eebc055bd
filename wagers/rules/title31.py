"""Title 31 at the table, in plain Python (docs/rules.md §10.7; 31 CFR 1021.311, .313).

A patron's currency in and currency out are totalled over the gaming day across the whole
cardroom, apart (never netted). A transaction that would take either total over $10,000 is
a reportable transaction: it is taken only once the patron's identification is recorded
(``title31.identification``), and a Currency Transaction Report is then due, filed within 15
days. The floor is warned before that point (the warning level is a setting).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars

CTR_THRESHOLD_CENTS = 1_000_000  # more than $10,000 (exactly $10,000 is not reportable)
CTR_DAYS_TO_FILE = 15  # 31 CFR 1010.306(a)(1): within 15 days after the transaction
CASH_IN, CASH_OUT = "in", "out"
DIRECTION_WORDS = {CASH_IN: "cash in", CASH_OUT: "cash out"}


@dataclass(frozen=True)
class Totals:
    """A patron's currency over one gaming day, in cents."""

    cash_in: int = 0
    cash_out: int = 0

    def of(self, direction: str) -> int:
        return self.cash_in if direction == CASH_IN else self.cash_out

    def plus(self, direction: str, amount: int) -> Totals:
        if direction == CASH_IN:
            return Totals(self.cash_in + amount, self.cash_out)
        return Totals(self.cash_in, self.cash_out + amount)

    @property
    def reportable(self) -> bool:
        return self.cash_in > CTR_THRESHOLD_CENTS or self.cash_out > CTR_THRESHOLD_CENTS

    def over(self) -> list[str]:
        """Which totals are over $10,000, in words: ``["cash in"]``."""
        return [DIRECTION_WORDS[d] for d in (CASH_IN, CASH_OUT) if self.of(d) > CTR_THRESHOLD_CENTS]


def ctr_due_on(gaming_day: date) -> date:
    """The last day a CTR for ``gaming_day``'s transactions may be filed."""
    return gaming_day + timedelta(days=CTR_DAYS_TO_FILE)


def check(before: Totals, direction: str, amount: int, *, identified: bool, patron: str) -> Totals:
    """The totals after a currency transaction of ``amount`` cents, or a RuleError
    (``title31.identification``) when it would take a total over $10,000 and the patron's
    identification is not recorded: nothing is taken until it is."""
    after = before.plus(direction, amount)
    words = DIRECTION_WORDS[direction]
    if after.of(direction) > CTR_THRESHOLD_CENTS and not identified:
        raise RuleError(
            f"{patron}'s {words} today would be {dollars(after.of(direction))} with this "
            f"{dollars(amount)}, over $10,000: record the patron's identification (ID type and "
            f"number) first; a Currency Transaction Report is due",
            rule=Rule.CTR_IDENTIFICATION,
            field="player",
        )
    return after


def approaching(totals: Totals, warning: int) -> list[str]:
    """The totals at or above the warning level and not over $10,000, in words."""
    return [
        DIRECTION_WORDS[d]
        for d in (CASH_IN, CASH_OUT)
        if warning <= totals.of(d) <= CTR_THRESHOLD_CENTS
    ]


def structuring(amounts: list[int], *, mtl: int, ctr_warning: int) -> bool:
    """Several cash transactions just under the thresholds in a day (structuring), for a
    compliance officer to review, never a filing: two or more each within 10% under a
    threshold (the MTL's or the CTR's), or three or more each under the MTL's that together
    reach the warning level."""
    near = [a for a in amounts if _just_under(a, mtl) or _just_under(a, CTR_THRESHOLD_CENTS)]
    return len(near) >= 2 or (len(amounts) >= 3 and sum(amounts) >= ctr_warning and
                              all(a < mtl for a in amounts))  # fmt: skip


def _just_under(amount: int, threshold: int) -> bool:
    return threshold * 9 // 10 <= amount < threshold
