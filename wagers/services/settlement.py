"""Settling a round's money with the rules core, and returning it when a round is void.

``settle_round_money`` settles the hand by its game's rules (``games.interface.Game.settle``:
Ultimate Texas Hold'em's docs/rules.md §7 over the stored cards, none for a hand mucked at a
card-entry table, §2.3, the decisions and the bets; EZ Baccarat's §14.5-§14.6 over the coup),
stores every settlement line in order, and posts one ledger transaction per line plus the
bank's return, all inside the caller's transaction and under its table lock. Every game's
wagers are settled by the one coverage law (``wagers.rules.settlement.apply_coverage``).
"""

from __future__ import annotations

from decimal import Decimal

from games.interface import RoundCards, SeatWagers
from games.registry import game as game_of_key
from tables import options as table_options
from wagers.models import Bet, PlayerDealerBank, SettlementLine, TransactionKind
from wagers.rules.postings import (
    Role,
    bank_return_legs,
    settlement_legs,
    void_bank_legs,
    void_bet_legs,
)

from .ledger import Posting, legs_of, post_all
from .round_lock import RoundState
from .wagering import round_accounts_of


def round_cards(round_) -> RoundCards:
    """A round's cards as stored, for its game's settlement."""
    return RoundCards(
        dealer_hole=tuple(round_.dealer_hole or ()),
        board=tuple(round_.board or ()),
        player=tuple(round_.player_cards or ()),
        banker=tuple(round_.banker_cards or ()),
    )


def settle_round_money(state: RoundState, folded_seats: set[int], *, by) -> list[SettlementLine]:
    """Settle the round ``state`` holds: its bets (by seat and bettor) and bank as read with
    the lock (``lock_round_state``)."""
    round_, bank = state.round, state.bank
    if bank is None:
        raise PlayerDealerBank.DoesNotExist("PlayerDealerBank matching query does not exist.")
    by_seat: dict[int, list[Bet]] = {}
    for bet in state.bets:
        by_seat.setdefault(bet.hand.seat, []).append(bet)
    game = game_of_key(round_.options.get("game"))
    seats = [
        SeatWagers(
            seat=seat,
            bettors=tuple(game.stakes_of(bet) for bet in seat_bets),
            hole=None if (hole := seat_bets[0].hand.hole) is None else tuple(hole),
            folded=seat in folded_seats,
        )
        for seat, seat_bets in by_seat.items()
    ]
    settlement = game.settle(
        table_options.rules_options(round_.options),
        round_.player_dealer_seat,
        bank.amount_cents,
        seats,
        round_cards(round_),
    )
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
