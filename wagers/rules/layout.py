"""What the layout puts at stake before the tap (docs/rules.md §4.3, §7.2-§7.3).

- A Play is the Ante times the multiple, taken from the bettor's chips at the table: the
  seated player's and each backline bettor's (who plays the seat's multiple of their own
  Ante). A multiple any of them cannot cover is refused (rule wagers.chips_in_front).
- The action against the bank: if every hand on the layout beats a qualifying
  player-dealer with its largest Play (Ante and Play even money; Blind, Trips and Bad Beat
  neither paid nor taken), the bank pays in settlement order until it is exhausted
  (``apply_coverage``); what it cannot pay goes unpaid, uncovered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from .resolution import Outcome, Resolution
from .settlement import apply_coverage, settlement_order
from .wagers import WagerKind


def play_stake(ante: int, multiple: int) -> int:
    """The Play of a bettor with ``ante`` cents on the Ante, at ``multiple`` times."""
    return ante * multiple


def play_covered(ante: int, multiple: int, chips: int) -> bool:
    """Whether ``chips`` cents at the table cover the Play (a bettor with no Ante has none)."""
    return play_stake(ante, multiple) <= chips


class Bettor(NamedTuple):
    """One bettor of a seat as the layout shows it: the Ante, chips at the table, a name."""

    ante: int
    chips: int
    name: str


def play_shortfall(bettors: Sequence[Bettor], multiple: int) -> Bettor | None:
    """The first bettor of a seat (the seated player, then the backline) who cannot cover
    a Play of ``multiple`` times their Ante, or None when every one can."""
    for bettor in bettors:
        if bettor.ante and not play_covered(bettor.ante, multiple, bettor.chips):
            return bettor
    return None


class Exposure(NamedTuple):
    """The bank against the layout if every hand wins at even money with its largest Play."""

    bank: int
    owed: int  # what the winning wagers would be owed in all
    paid: int  # what the bank would pay: never more than the bank (rule §7.2)
    uncovered: int  # what would go unpaid, uncovered
    wagers: int  # winning wagers counted
    uncovered_wagers: int  # of which some part would go unpaid


def exposure(
    bank: int,
    player_dealer_seat: int,
    antes: Mapping[int, Iterable[int]],
    largest_multiple: int,
) -> Exposure:
    """``antes[seat]`` lists the seat's bettors' Antes (the seated player first). Reuses the
    settlement order and the coverage rule, so the figures are what settlement would do."""
    resolutions = {}
    for seat, seat_antes in antes.items():
        bettors = []
        for ante in seat_antes:
            won = {}
            if ante:
                play = play_stake(ante, largest_multiple)
                won[WagerKind.ANTE] = Resolution(WagerKind.ANTE, ante, Outcome.WIN, ante)
                won[WagerKind.PLAY] = Resolution(WagerKind.PLAY, play, Outcome.WIN, play)
            bettors.append(won)
        resolutions[seat] = bettors
    lines = apply_coverage(bank, settlement_order(player_dealer_seat, resolutions, ())).lines
    return Exposure(
        bank=bank,
        owed=sum(line.paid + line.unpaid_uncovered for line in lines),
        paid=sum(line.paid for line in lines),
        uncovered=sum(line.unpaid_uncovered for line in lines),
        wagers=len(lines),
        uncovered_wagers=sum(1 for line in lines if line.unpaid_uncovered),
    )
