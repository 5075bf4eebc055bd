"""Settling a round's money with the rules core, and returning it when a round is void.

``settle_round_money`` runs docs/rules.md §7 (``wagers.rules.showdown.play_out``)
over the stored cards (none for a hand mucked at a card-entry table, §2.3), decisions and
bets, stores every settlement line in order, and posts one ledger transaction per line plus
the bank's return, all inside the caller's transaction and under its table lock.
"""

from __future__ import annotations

from decimal import Decimal

from tables import options as table_options
from tables.rules.cards import parse_card
from wagers.models import Bet, PlayerDealerBank, SettlementLine, TransactionKind
from wagers.rules.postings import (
    Role,
    bank_return_legs,
    settlement_legs,
    void_bank_legs,
    void_bet_legs,
)
from wagers.rules.showdown import SeatHand, play_out
from wagers.rules.wagers import Stakes

from .ledger import Posting, legs_of, post_all
from .round_lock import RoundState
from .wagering import round_accounts_of


def _stakes(bet: Bet) -> Stakes:
    return Stakes(
        ante=bet.ante_cents,
        blind=bet.blind_cents,
        play=bet.play_cents,
        trips=bet.trips_cents,
        bad_beat=bet.bad_beat_cents,
    )


def _cards(codes) -> tuple:
    return tuple(parse_card(code) for code in codes)


def settle_round_money(state: RoundState, folded_seats: set[int], *, by) -> list[SettlementLine]:
    """Settle the round ``state`` holds: its bets (by seat and bettor) and bank as read with
    the lock (``lock_round_state``)."""
    round_, bank = state.round, state.bank
    if bank is None:
        raise PlayerDealerBank.DoesNotExist("PlayerDealerBank matching query does not exist.")
    by_seat: dict[int, list[Bet]] = {}
    for bet in state.bets:
        by_seat.setdefault(bet.hand.seat, []).append(bet)
    seats = [
        SeatHand(
            seat=seat,
            hole=None if (hole := seat_bets[0].hand.hole) is None else _cards(hole),
            stakes=_stakes(seat_bets[0]),
            folded=seat in folded_seats,
            backline=tuple(_stakes(bet) for bet in seat_bets[1:]),
        )
        for seat, seat_bets in by_seat.items()
    ]
    outcome = play_out(
        round_.player_dealer_seat,
        _cards(round_.dealer_hole),
        _cards(round_.board),
        seats,
        bank.amount_cents,
        table_options.game_options(round_.options),
    )
    settlement = outcome.settlement
    wagers_account, bank_account = round_accounts_of(state)
    accounts = {
        Role.ROUND_WAGERS: wagers_account,
        Role.ROUND_BANK: bank_account,
        Role.PLAYER_DEALER: bank.account,
    }
    postings = []
    for line in settlement.lines:
        bet = by_seat[line.seat][line.bettor]
        postings.append(
            Posting(
                TransactionKind.SETTLEMENT,
                legs_of(
                    settlement_legs(line.stake, line.collected, line.paid, line.wager.value),
                    {**accounts, Role.BETTOR: bet.account},
                ),
                round_id=round_.pk,
                memo=f"#{line.order} seat {line.seat} {line.bettor_label} {line.wager.value}",
            )
        )
    line_postings = list(postings)
    if settlement.remaining_bank:  # an exhausted bank has nothing to return
        postings.append(
            Posting(
                TransactionKind.BANK_RETURNED,
                legs_of(
                    bank_return_legs(bank.amount_cents, settlement.player_dealer_net), accounts
                ),
                round_id=round_.pk,
                memo=f"bank {bank.amount_cents} {settlement.player_dealer_net:+d}",
            )
        )
    post_all(postings, by=by)
    lines = SettlementLine.objects.bulk_create(
        [
            SettlementLine(
                round=round_,
                order=line.order,
                settlement_pass=line.pass_.value,
                seat=line.seat,
                bettor=line.bettor,
                bet=by_seat[line.seat][line.bettor],
                wager=line.wager.value,
                stake_cents=line.stake,
                outcome=line.outcome.value,
                paid_cents=line.paid,
                collected_cents=line.collected,
                returned_uncovered_cents=line.returned_uncovered,
                unpaid_uncovered_cents=line.unpaid_uncovered,
                rounded_off_cents=Decimal(line.rounded_off.numerator)
                / Decimal(line.rounded_off.denominator),
                transaction=posting.transaction,
            )
            for line, posting in zip(settlement.lines, line_postings, strict=True)
        ]
    )
    bank.net_cents = settlement.player_dealer_net
    bank.exhausted = settlement.exhausted
    bank.save(update_fields=["net_cents", "exhausted"])
    return lines


def return_round_money(state: RoundState, *, by) -> None:
    """A void round: every wager back to its bettor, the bank back to the player-dealer
    (the round's money as read with the lock, ``lock_round_state``)."""
    round_ = state.round
    wagers_account, bank_account = round_accounts_of(state)
    postings = [
        Posting(
            TransactionKind.VOID_RETURN,
            legs_of(
                void_bet_legs(bet.total),
                {Role.ROUND_WAGERS: wagers_account, Role.BETTOR: bet.account},
            ),
            round_id=round_.pk,
            memo=f"seat {bet.hand.seat} bettor {bet.bettor}",
        )
        for bet in state.bets  # by seat and bettor, the order of ``Bet``'s own
        if bet.total
    ]
    bank = state.bank
    if bank is not None:
        postings.append(
            Posting(
                TransactionKind.VOID_RETURN,
                legs_of(
                    void_bank_legs(bank.amount_cents),
                    {Role.ROUND_BANK: bank_account, Role.PLAYER_DEALER: bank.account},
                ),
                round_id=round_.pk,
                memo="bank",
            )
        )
    post_all(postings, by=by)
