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


def _least_legal_wager(schedule: Schedule, chip_unit: int, low: int, high: int) -> int | None:
    """The least wager in whole chips within the table limits and ``low``..``high``."""
    start = max(low, schedule.table_minimum)
    least = -(-start // chip_unit) * chip_unit
    return least if least <= min(high, schedule.table_maximum) else None


def least_player_dealer_fee(
    schedule: Schedule,
    wagered: Sequence[Wagered],
    *,
    player_dealer_id: int,
    player_dealer_seat: int,
    chip_unit: int,
    least_hand: Sequence[Sequence[str]] = (("ante",), ("blind",)),
) -> int:
    """The least the player-dealer will owe at "no more bets" (cents), given the wagers
    already on the layout (``wagered``) and whatever is still to come (docs/rules.md §9.4).

    Wagers are only added until "no more bets" (§4.5), and a hand is dealt only once a seat
    has wagered its Ante and its equal Blind, each at least the table minimum, in whole chips
    (§4.1, §4.3, §4.4). So:

    - **per betting square**: the player-dealer's fees on the squares wagered so far (more
      wagers only add fees); with no seat wagered yet, the fees of the smallest a seat can
      wager: an Ante and a Blind at the rate whose player-dealer fee is the least among the
      rates that hold a legal wager, on each of the two squares the schedule charges;
    - **total table action**: the least player-dealer fee among the rates whose action range
      reaches the action so far, or an Ante and a Blind at the table minimum if more.

    ``least_hand`` is what a seat must wager for the hand to be dealt, in the game's words
    (``games.interface.Game.least_hand``): groups of squares of which a bettor wagers one each
    (Ultimate Texas Hold'em: the Ante, and the Blind; EZ Baccarat: Player or Banker). A group
    counts for the per-square floor only when the schedule charges each of its squares (the
    bettor may choose the one it does not). The amount is a floor: a fuller layout may owe
    more, never less.
    """
    if schedule.basis is Basis.PER_BETTING_SQUARE:
        if wagered:
            lines = assess(
                schedule,
                wagered,
                player_dealer_id=player_dealer_id,
                player_dealer_seat=player_dealer_seat,
            ).lines
            return sum(line.amount for line in lines if line.payer is Payer.PLAYER_DEALER)
        squares = sum(
            1 for group in least_hand if all(square in schedule.charged_squares for square in group)
        )
        fees = [
            rate.player_dealer_fee or 0
            for rate in schedule.rates
            if rate.wager is not None
            and _least_legal_wager(schedule, chip_unit, rate.wager.low, rate.wager.high) is not None
        ]
        return squares * min(fees, default=0)
    least = len(least_hand) * (
        _least_legal_wager(schedule, chip_unit, 0, schedule.table_maximum) or 0
    )
    action = max(sum(bet.total for bet in wagered), least)
    fees = [
        rate.player_dealer_fee or 0
        for rate in schedule.rates
        if rate.action is not None and (rate.action.high is None or rate.action.high >= action)
    ]
    return min(fees, default=0)


def largest_bank(held: int, owed: int, chip_unit: int) -> int:
    """The largest bank in whole chips that leaves ``owed`` of the ``held`` chips beside it
    (0: none does)."""
    return max(held - owed, 0) // chip_unit * chip_unit


def shortfalls(assessment: Assessment, balances: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """(payer id, fees owed, chips held) for each payer whose chips do not cover the fees."""
    return [
        (payer, owed, balances.get(payer, 0))
        for payer, owed in assessment.by_payer().items()
        if owed > balances.get(payer, 0)
    ]
