"""Money under concurrency: two threads, each with its own database connection, released
together by a barrier, on PostgreSQL with real commits. Each scenario runs five times.

(a) the same round settled twice at once: one settlement, the other refused (409);
(b) a wager racing "no more bets": it lands before and is in the hand, or it is refused;
(c) buy-ins, wagers, the bank and cash-outs racing on one account never overdraw it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from cardroom.errors import RuleError, State, StateError
from rounds import services as rounds
from tables.models import DealMode, Hand, RoundTransition
from tests.builders.floor import PLAY_4X, advance, give_button
from tests.builders.money import (
    MoneyTable,
    Wager,
    all_balances,
    calculator_lines,
    money_table,
    place,
    start,
    stored_lines,
)
from tests.concurrency import race
from wagers.models import (
    NON_NEGATIVE_KINDS,
    Account,
    Bet,
    LedgerTransaction,
    PlayerDealerBank,
    SettlementLine,
    TransactionKind,
)
from wagers.services import chips, wagering
from wagers.services.chips import chip_account
from wagers.verification import differences

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

REPEATS = 5
OK, FAILED = "ok", "failed"


def together(*calls: Callable[[], Any]) -> list[tuple[str, Any]]:
    """Each call's ``(OK, answer)`` or ``(FAILED, error)``, the calls raced (``race``)."""
    return [(OK, o.value) if o.error is None else (FAILED, o.error) for o in race(*calls)]


def _round_in_showdown(mt: MoneyTable, rng: random.Random):
    round_ = start(mt, None, 5_000)
    seats = sorted(seat for seat in mt.seated if seat != round_.player_dealer_seat)
    place(mt, round_, [Wager(seat, 500, trips=500) for seat in seats])
    return advance(
        round_, State.SHOWDOWN, by=mt.staff.dealer, plans=dict.fromkeys(seats, PLAY_4X), rng=rng
    )


def test_the_same_round_settled_twice_at_once_settles_once(staff):
    mt = money_table(staff, dict.fromkeys((1, 2, 3, 4), 200_000), deal_mode=DealMode.RNG)
    rng = random.Random(5)
    for _ in range(REPEATS):
        round_ = _round_in_showdown(mt, rng)
        balances = all_balances()

        results = together(
            lambda r=round_: rounds.settle(round_id=r.pk, by=staff.dealer),
            lambda r=round_: rounds.settle(round_id=r.pk, by=staff.dealer),
        )

        outcomes = sorted(kind for kind, _ in results)
        assert outcomes == [FAILED, OK], results
        error = next(value for kind, value in results if kind == FAILED)
        assert isinstance(error, StateError), repr(error)
        assert error.state == State.SETTLED
        round_.refresh_from_db()
        assert round_.state == State.SETTLED
        lines = stored_lines(round_)
        assert lines == calculator_lines(round_)  # one set of lines, in order
        assert SettlementLine.objects.filter(round=round_).count() == len(lines)
        settlements = LedgerTransaction.objects.filter(
            round=round_, kind=TransactionKind.SETTLEMENT
        )
        assert settlements.count() == len(lines)
        bank = PlayerDealerBank.objects.get(round=round_)
        returned = LedgerTransaction.objects.filter(
            round=round_, kind=TransactionKind.BANK_RETURNED
        )
        assert returned.count() == (1 if bank.amount_cents + bank.net_cents else 0)
        assert RoundTransition.objects.filter(round=round_, to_state="settled").count() == 1
        pd_account = chip_account(round_.player_dealer, mt.table)
        assert all_balances()[pd_account.pk] == (
            balances[pd_account.pk] + bank.amount_cents + bank.net_cents
        )
        assert list(differences()) == []


def test_a_wager_racing_no_more_bets_lands_before_or_is_refused(staff):
    mt = money_table(staff, dict.fromkeys((1, 2, 3, 4), 200_000), deal_mode=DealMode.RNG)
    rng = random.Random(9)
    landed = refused = 0
    for _ in range(REPEATS):
        round_ = start(mt, None, 5_000)
        seats = sorted(seat for seat in mt.seated if seat != round_.player_dealer_seat)
        first, late = seats[0], seats[-1]
        place(mt, round_, [Wager(first, 500)])
        late_player = mt.seated[late]
        chips_before = mt.chips(late_player)

        results = together(
            lambda r=round_, s=late: wagering.place_bet(
                round_id=r.pk, seat=s, ante=500, blind=500, trips=500, by=staff.dealer
            ),
            lambda r=round_: rounds.close_wagering(round_id=r.pk, by=staff.dealer),
        )

        (bet_kind, bet_value), (close_kind, close_value) = results
        assert close_kind == OK, close_value
        closed_at = RoundTransition.objects.get(round=round_, to_state="no_more_bets").at
        late_bets = Bet.objects.filter(hand__round=round_, player=late_player)
        if bet_kind == OK:
            landed += 1
            bet = late_bets.get()
            assert bet.placed_at <= closed_at
            assert mt.chips(late_player) == chips_before - 1_500
        else:
            refused += 1
            assert isinstance(bet_value, StateError), repr(bet_value)
            assert not late_bets.exists()
            assert not Hand.objects.filter(round=round_, seat=late).exists()
            assert mt.chips(late_player) == chips_before
        # The deal gives cards to exactly the hands whose wagers landed.
        round_ = rounds.deal(round_id=round_.pk, by=staff.dealer, rng=rng)
        dealt = set(
            Hand.objects.filter(round=round_, hole__isnull=False).values_list("seat", flat=True)
        )
        assert dealt == set(
            Bet.objects.filter(hand__round=round_, bettor=0).values_list("hand__seat", flat=True)
        )
        assert not Bet.objects.filter(hand__round=round_, placed_at__gt=closed_at).exists()
        rounds.void_round(round_id=round_.pk, by=staff.dealer, reason="test over")
        assert list(differences()) == []
    assert landed + refused == REPEATS


def test_concurrent_first_buy_ins_make_one_account_with_both(staff):
    for _ in range(REPEATS):
        mt = money_table(staff, {1: 0, 2: 0})
        player = mt.seated[1]

        buy_in = partial(
            chips.buy_in, table_id=mt.table.pk, player_id=player.pk, currency=True, by=staff.dealer
        )
        results = together(partial(buy_in, amount=1_000), partial(buy_in, amount=2_500))

        assert [kind for kind, _ in results] == [OK, OK], results
        (account,) = Account.objects.filter(player=player, table=mt.table)
        assert account.balance_cents == 3_500
        assert list(differences()) == []


def _race_on_one_account(staff, spend: Callable[[Any], Any], seat: int) -> None:
    """``spend`` and a cash-out each take 1,500 of the player's 2,000 chips: one must lose."""
    for _ in range(REPEATS):
        mt = money_table(staff, {1: 2_000, 2: 2_000}, deal_mode=DealMode.RNG)
        give_button(mt.table.pk, 1, by=mt.staff.dealer)
        round_ = rounds.start_round(table_id=mt.table.pk, by=staff.dealer)
        if seat != 1:
            rounds.post_bank(round_id=round_.pk, amount=2_000, by=staff.dealer)
        player = mt.seated[seat]

        results = together(
            partial(spend, round_),
            partial(
                chips.cash_out,
                table_id=mt.table.pk,
                player_id=player.pk,
                amount=1_500,
                currency=True,
                by=staff.dealer,
            ),
        )

        kinds = sorted(kind for kind, _ in results)
        assert kinds == [FAILED, OK], results
        # Refused for want of chips, or (the spend first) because its chips are in play.
        error = next(value for kind, value in results if kind == FAILED)
        assert isinstance(error, RuleError | StateError), repr(error)
        assert mt.chips(player) == 500
        assert not Account.objects.filter(balance_cents__lt=0, kind__in=NON_NEGATIVE_KINDS).exists()
        assert list(differences()) == []


def test_a_wager_racing_a_cash_out_never_overdraws(staff):
    _race_on_one_account(
        staff,
        lambda round_: wagering.place_bet(
            round_id=round_.pk, seat=2, ante=500, blind=500, trips=500, by=staff.dealer
        ),
        seat=2,
    )


def test_the_bank_racing_a_cash_out_never_overdraws(staff):
    _race_on_one_account(
        staff,
        lambda round_: rounds.post_bank(round_id=round_.pk, amount=1_500, by=staff.dealer),
        seat=1,
    )
