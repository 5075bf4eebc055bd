"""The wagers of EZ Baccarat (docs/rules.md §14.4): the five squares, one bettor's wagers and
the rules they are checked against before the coup is dealt.

Every bettor makes one base wager, on Player or on Banker (not both), and may add the side
wagers Tie, Dragon 7 and Panda 8. Each wager is in whole chips and within the table's minimum
and maximum (the room's rules, docs/rules.md §4.3-§4.4); each side wager is at most the side
wagers' maximum, which by default is the bettor's own base wager.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from wagers.rules.validation import check_chips, check_limits

from .options import BaccaratOptions


class BaccaratWager(Enum):
    # Members are singletons: hash by identity, not by Enum's hash of the name in Python.
    __hash__ = object.__hash__
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    DRAGON_7 = "dragon_7"
    PANDA_8 = "panda_8"

    @property
    def label(self) -> str:
        """The square as the layout names it: "Player", "Dragon 7"."""
        return self.value.replace("_", " ").title()


BASE_WAGERS = (BaccaratWager.PLAYER, BaccaratWager.BANKER)
SIDE_WAGERS = (BaccaratWager.TIE, BaccaratWager.DRAGON_7, BaccaratWager.PANDA_8)
# The betting squares a collection fee schedule can name for this game.
SQUARES = tuple(kind.value for kind in BaccaratWager)


@dataclass(frozen=True, slots=True)
class Stakes:
    """One bettor's wagers in cents."""

    player: int = 0
    banker: int = 0
    tie: int = 0
    dragon_7: int = 0
    panda_8: int = 0

    def of(self, kind: BaccaratWager) -> int:
        return getattr(self, kind.value)

    @property
    def base(self) -> BaccaratWager:
        """The base wager's square (the stakes are checked: exactly one is made)."""
        return BaccaratWager.PLAYER if self.player else BaccaratWager.BANKER

    @property
    def total(self) -> int:
        return self.player + self.banker + self.tie + self.dragon_7 + self.panda_8

    def in_settlement_order(self) -> tuple[tuple[BaccaratWager, int], ...]:
        """The wagers made (stake above zero), in the order a seat is settled: the base wager,
        then Tie, Dragon 7, Panda 8."""
        return tuple(
            (kind, self.of(kind)) for kind in (self.base, *SIDE_WAGERS) if self.of(kind) > 0
        )


def validate_stakes(stakes: Stakes, options: BaccaratOptions) -> None:
    """Check one bettor's wagers; a RuleError names the rule and the wager (field)."""
    for kind in BaccaratWager:
        check_chips(stakes.of(kind), options.chip_unit, label=kind.label, field=kind.value)
    if stakes.player and stakes.banker:
        raise RuleError(
            "a bettor makes one base wager, on Player or on Banker, not both",
            rule=Rule.BACCARAT_BASE_WAGER,
            field="banker",
        )
    if not stakes.player and not stakes.banker:
        raise RuleError(
            "a base wager on Player or on Banker is required",
            rule=Rule.BACCARAT_BASE_WAGER,
            field="player",
        )
    for kind in BaccaratWager:
        check_limits(
            stakes.of(kind),
            options.table_minimum,
            options.table_maximum,
            label=kind.label,
            field=kind.value,
        )
    base = stakes.of(stakes.base)
    maximum = options.side_wager_maximum
    for kind in SIDE_WAGERS:
        amount = stakes.of(kind)
        if maximum is None and amount > base:
            raise RuleError(
                f"the {kind.label} of {dollars(amount)} is above the bettor's "
                f"{stakes.base.label} wager of {dollars(base)}",
                rule=Rule.BACCARAT_SIDE_WAGERS,
                field=kind.value,
            )
        if maximum is not None and amount > maximum:
            raise RuleError(
                f"the {kind.label} of {dollars(amount)} is above the side wagers' maximum of "
                f"{dollars(maximum)}",
                rule=Rule.BACCARAT_SIDE_WAGERS,
                field=kind.value,
            )
