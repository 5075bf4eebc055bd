"""The fees of one hand, fixed at "no more bets" (docs/rules.md §9.4).

Only the wagers placed before the deal and the schedule in force go in: never
cards, decisions or outcomes, so a fee cannot depend on how the hand ends, and
a wager that later gets no action keeps its fee (no rebate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from cardroom.money import dollars

from .schedule import Basis, Schedule

TABLE_ACTION = "table_action"


class Payer(StrEnum):
    PLAYER = "player"
    BACKLINE = "backline"
    PLAYER_DEALER = "player_dealer"


@dataclass(frozen=True, slots=True)
class Wagered:
    """One bettor's wagers on a seat at "no more bets" (bettor 0 is the seated player)."""

    seat: int
    bettor: int
    payer_id: int
    squares: Mapping[str, int]  # ante, blind, trips, bad_beat -> cents

    @property
    def total(self) -> int:
        return sum(self.squares.values())


@dataclass(frozen=True, slots=True)
class FeeLine:
    """One fee: who pays, for which square (or the table action), at which rate."""

    payer: Payer
    payer_id: int
    seat: int
    bettor: int  # the bettor whose wager it is charged on (0 for the table action)
    square: str  # a betting square, or "table_action"
    wager: int  # the wager (or total table action) the rate was chosen by
    rate_position: int
    amount: int


@dataclass(frozen=True, slots=True)
class Assessment:
    lines: tuple[FeeLine, ...]
    table_action: int

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)

    def by_payer(self) -> dict[int, int]:
        owed: dict[int, int] = {}
        for line in self.lines:
            owed[line.payer_id] = owed.get(line.payer_id, 0) + line.amount
        return owed


def assess(
    schedule: Schedule,
    wagered: Sequence[Wagered],
    *,
    player_dealer_id: int,
    player_dealer_seat: int,
) -> Assessment:
    """Every fee of the hand, in seat order; zero fees are not lines.

    Players (seated and backline) pay their rate's player fee on each charged square
    they wagered; the player-dealer pays either the per-square fee on each of those
    squares or, once, the fee on the total table action (all wagers placed before the deal).
    """
    lines: list[FeeLine] = []
    ordered = sorted(wagered, key=lambda w: (w.seat, w.bettor))
    for bet in ordered:
        payer = Payer.PLAYER if bet.bettor == 0 else Payer.BACKLINE
        for square in schedule.charged_squares:
            amount = bet.squares.get(square, 0)
            if not amount:
                continue
            rate = schedule.player_rate(amount)
            if rate is None:  # validation makes the ranges cover the table limits
                raise ValueError(f"no collection rate for a wager of {dollars(amount)}")
            if rate.player_fee:
                lines.append(
                    FeeLine(
                        payer,
                        bet.payer_id,
                        bet.seat,
                        bet.bettor,
                        square,
                        amount,
                        rate.position,
                        rate.player_fee,
                    )
                )
            if schedule.basis is Basis.PER_BETTING_SQUARE and rate.player_dealer_fee:
                lines.append(
                    FeeLine(
                        Payer.PLAYER_DEALER,
                        player_dealer_id,
                        bet.seat,
                        bet.bettor,
                        square,
                        amount,
                        rate.position,
                        rate.player_dealer_fee,
                    )
                )
    action = sum(bet.total for bet in ordered)
    if schedule.basis is Basis.TOTAL_TABLE_ACTION and action:
        rate = schedule.action_rate(action)
        if rate is None:
            raise ValueError(f"no collection rate for a table action of {dollars(action)}")
        if rate.player_dealer_fee:
            lines.append(
                FeeLine(
                    Payer.PLAYER_DEALER,
                    player_dealer_id,
                    player_dealer_seat,
                    0,
                    TABLE_ACTION,
                    action,
                    rate.position,
                    rate.player_dealer_fee,
                )
            )
    return Assessment(tuple(lines), action)


def shortfalls(assessment: Assessment, balances: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """(payer id, fees owed, chips held) for each payer whose chips do not cover the fees."""
    return [
        (payer, owed, balances.get(payer, 0))
        for payer, owed in assessment.by_payer().items()
        if owed > balances.get(payer, 0)
    ]
