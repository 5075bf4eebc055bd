"""Coverage-limited settlement (docs/rules.md §7.2-§7.3).

The player-dealer puts up a bank W and "may not win or lose more than the
original amount wagered". Wagers are settled in a fixed order (fold pass, then
showdown pass, each clockwise from the player-dealer's left; at a seat, its own
wagers then its backline bettors'). With N the player-dealer's running net:

- a losing stake s is collected up to W - N (the rest is returned, uncovered);
- a winning payout d is paid up to W + N (the rest is unpaid, uncovered);
- once a payment brings W + N to 0 the bank is exhausted, and every later
  wager gets no action: its stake is returned, nothing collected or paid.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import NamedTuple

from cardroom.errors import Rule, RuleError
from tables.rules.seats import clockwise_from_left_of

from .resolution import Outcome, Resolution
from .wagers import FOLD_ORDER, SHOWDOWN_ORDER, WagerKind, bettor_label


class SettlementPass(Enum):
    FOLD = "fold"
    SHOWDOWN = "showdown"


class PendingWager(NamedTuple):
    """A resolved wager waiting for its turn in the settlement order."""

    pass_: SettlementPass
    seat: int
    bettor: int
    resolution: Resolution


class SettlementLine(NamedTuple):
    """How one wager was settled, in its place in the order (1-based)."""

    order: int
    pass_: SettlementPass
    seat: int
    bettor: int
    wager: WagerKind
    stake: int
    outcome: Outcome
    paid: int
    collected: int
    returned_uncovered: int
    unpaid_uncovered: int
    rounded_off: Fraction = Fraction(0)

    @property
    def bettor_label(self) -> str:
        return bettor_label(self.bettor)

    @property
    def returned(self) -> int:
        """Chips handed back to the bettor: the stake less what was collected, plus the payout."""
        return self.stake - self.collected + self.paid


@dataclass(frozen=True)
class Settlement:
    bank: int
    lines: tuple[SettlementLine, ...]
    player_dealer_net: int
    exhausted: bool  # a payment emptied the bank; every later wager got no action

    @property
    def remaining_bank(self) -> int:
        """What the player-dealer takes back from the bank: W plus the net."""
        return self.bank + self.player_dealer_net


_WIN, _LOSE = Outcome.WIN, Outcome.LOSE
_FOLD_PASS, _SHOWDOWN_PASS = SettlementPass.FOLD, SettlementPass.SHOWDOWN


def apply_coverage(bank: int, ordered: Iterable[PendingWager]) -> Settlement:
    """Settle wagers in the given order against a bank of ``bank`` cents."""
    if isinstance(bank, bool) or not isinstance(bank, int) or bank <= 0:
        raise RuleError(
            f"the bank must be a whole number of cents above zero, not {bank!r}", rule=Rule.BANK
        )
    net = 0
    exhausted = False
    lines = []
    new_line = SettlementLine._make  # positional: this runs for every wager of every round
    for order, (pass_, seat, bettor, resolution) in enumerate(ordered, start=1):
        kind, stake, outcome, payout, rounded_off = resolution  # unpacking beats attributes
        paid = collected = returned_uncovered = unpaid_uncovered = 0
        if outcome is _LOSE:
            collected = 0 if exhausted else min(stake, bank - net)
            returned_uncovered = stake - collected
            net += collected
        elif outcome is _WIN:
            paid = 0 if exhausted else min(payout, bank + net)
            unpaid_uncovered = payout - paid
            net -= paid
            if paid and bank + net == 0:
                exhausted = True
        lines.append(
            new_line(
                (
                    order,
                    pass_,
                    seat,
                    bettor,
                    kind,
                    stake,
                    outcome,
                    paid,
                    collected,
                    returned_uncovered,
                    unpaid_uncovered,
                    rounded_off,
                )
            )
        )
    return Settlement(bank, tuple(lines), net, exhausted)


BettorResolutions = Sequence[Mapping[WagerKind, Resolution]]


def settlement_order(
    player_dealer_seat: int,
    resolutions: Mapping[int, BettorResolutions],
    folded_seats: Iterable[int],
) -> list[PendingWager]:
    """Put every resolved wager in settlement order.

    ``resolutions[seat]`` lists the seat's bettors: index 0 is the seated
    player, then its backline bettors in the order they stand. The fold pass
    takes each folded seat's losing wagers (Ante, Blind, Trips below Three of a
    Kind, Bad Beat); the showdown pass takes everything else, a folded seat
    having only its winning Trips left.
    """
    folded = set(folded_seats)
    if player_dealer_seat in resolutions:
        raise RuleError(
            f"seat {player_dealer_seat} is the player-dealer's and has no wagers of its own",
            rule=Rule.PLAYER_DEALER_SEAT,
        )
    seats = clockwise_from_left_of(player_dealer_seat, list(resolutions))
    fold_pass: list[PendingWager] = []
    showdown_pass: list[PendingWager] = []
    for seat in seats:
        for bettor, by_kind in enumerate(resolutions[seat]):
            for kind in FOLD_ORDER if seat in folded else ():
                resolution = by_kind.get(kind)
                if resolution is not None and resolution.outcome is _LOSE:
                    fold_pass.append(PendingWager(_FOLD_PASS, seat, bettor, resolution))
            for kind in SHOWDOWN_ORDER:
                resolution = by_kind.get(kind)
                if resolution is None:
                    continue
                if seat in folded and resolution.outcome is _LOSE:
                    continue  # already taken in the fold pass
                showdown_pass.append(PendingWager(_SHOWDOWN_PASS, seat, bettor, resolution))
    return fold_pass + showdown_pass
