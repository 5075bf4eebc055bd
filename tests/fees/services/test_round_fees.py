"""Fees in a round through the real services: assessment, waivers, void, versions, the drop."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext

from cardroom.errors import Rule, RuleError, State, StateError
from fees.models import FeeLine, FeeWaiver, RoundFeeSchedule
from fees.rules.assessment import Wagered, assess
from fees.selectors import (
    engine_schedule,
    fee_lines,
    round_fees,
    round_schedule,
    schedule_in_force,
)
from fees.services import schedules, waivers
from rounds import services as rounds
from tables.services import floor
from tests.builders.fees import ACTION, STANDARD, differences, table_schedule
from tests.builders.floor import advance, give_button
from tests.builders.money import Wager, money_table, place, play_round, start
from wagers.models import Account, AccountKind, LedgerTransaction, TransactionKind
from wagers.services.ledger import Leg, drop_account, post

pytestmark = pytest.mark.django_db

WAGERS = [Wager(2, 1_000, trips=500), Wager(3, 5_000), Wager(2, 1_000, behind=0)]


def fee_table(staff, **options):
    return money_table(
        staff, {1: 100_000, 2: 100_000, 3: 100_000}, backliners=[50_000], deal_mode="rng", **options
    )


def drop_of(mt) -> int:
    return Account.objects.get(kind=AccountKind.DROP, table=mt.table).balance_cents


def lines_of(round_):
    return [
        (fl.payer_kind, fl.seat, fl.bettor, fl.square, fl.amount_cents) for fl in fee_lines(round_)
    ]


def test_fees_are_posted_from_each_payer_to_the_drop_at_no_more_bets(staff, clock):
    mt = fee_table(staff)
    table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    before = mt.chip_balances()
    round_ = play_round(mt, pd_seat=1, bank=50_000, wagers=WAGERS, until=State.NO_MORE_BETS)
    assert lines_of(round_) == [
        ("player", 2, 0, "ante", 50),
        ("player_dealer", 2, 0, "ante", 25),
        ("player", 2, 0, "blind", 50),
        ("player_dealer", 2, 0, "blind", 25),
        ("player", 2, 0, "trips", 50),
        ("player_dealer", 2, 0, "trips", 25),
        ("backline", 2, 1, "ante", 50),
        ("player_dealer", 2, 1, "ante", 25),
        ("backline", 2, 1, "blind", 50),
        ("player_dealer", 2, 1, "blind", 25),
        ("player", 3, 0, "ante", 100),
        ("player_dealer", 3, 0, "ante", 50),
        ("player", 3, 0, "blind", 100),
        ("player_dealer", 3, 0, "blind", 50),
    ]
    after = mt.chip_balances()
    seat1, seat2, seat3 = (mt.seated[s].pk for s in (1, 2, 3))
    behind = mt.backliners[0].pk
    assert before[seat2] - after[seat2] == 2_500 + 150
    assert before[seat3] - after[seat3] == 10_000 + 200
    assert before[behind] - after[behind] == 2_000 + 100
    assert before[seat1] - after[seat1] == 50_000 + 225  # the bank and the dealer's fees
    assert drop_of(mt) == 675 == round_fees(round_).collected
    transactions = LedgerTransaction.objects.filter(round=round_, kind=TransactionKind.FEE)
    assert transactions.count() == 14
    assert list(differences()) == []


def test_fees_do_not_change_with_the_outcome_and_uncovered_wagers_get_no_rebate(staff, clock):
    mt = fee_table(staff)
    table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    round_ = play_round(mt, pd_seat=1, bank=100, wagers=WAGERS, until=State.NO_MORE_BETS)
    assessed = lines_of(round_)
    drop = drop_of(mt)
    # A bank of 100 cannot cover wagers of thousands: some get no action, whatever the cards.
    round_ = advance(round_, State.SETTLED, by=mt.staff.dealer, rng=random.Random(5))
    uncovered = round_.settlement_lines.filter(
        Q(returned_uncovered_cents__gt=0) | Q(unpaid_uncovered_cents__gt=0)
    )
    assert uncovered.exists()
    assert lines_of(round_) == assessed and drop_of(mt) == drop
    assert list(differences()) == []


def test_no_schedule_no_fees(staff, clock):
    mt = fee_table(staff)
    round_ = play_round(mt, pd_seat=1, bank=50_000, wagers=WAGERS)
    assert round_schedule(round_) is None
    assert not RoundFeeSchedule.objects.filter(round=round_).exists()
    assert not FeeLine.objects.filter(round=round_).exists()
    assert list(differences()) == []


def test_each_hand_uses_the_version_in_force_at_its_start(staff, clock):
    mt = fee_table(staff)
    first = table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    hand1 = start(mt, 1, 50_000)
    place(mt, hand1, WAGERS)
    clock.advance(seconds=1)
    second = schedules.create_version(
        schedule_id=first.schedule_id,
        rates=[dict(r, player_fee_cents=r["player_fee_cents"] * 3) for r in STANDARD],
        player_dealer_basis="per_betting_square",
        by=staff.supervisor,
    )
    assert second.number == 2
    clock.advance(seconds=1)
    hand1 = advance(hand1, State.SETTLED, by=mt.staff.dealer)  # assessed after v2 took effect
    hand2 = play_round(mt, pd_seat=2, bank=50_000, wagers=[Wager(3, 1_000)])
    frozen1, frozen2 = round_schedule(hand1), round_schedule(hand2)
    assert frozen1.version_id == first.pk and frozen1.schedule["version_id"] == first.pk
    assert frozen2.version_id == second.pk and frozen2.schedule["version_id"] == second.pk
    assert (frozen1.schedule["number"], frozen2.schedule["number"]) == (1, 2)
    assert {fl.version_id for fl in fee_lines(hand1)} == {first.pk}
    assert [fl.amount_cents for fl in fee_lines(hand2) if fl.payer_kind == "player"] == [150, 150]
    assert [
        fl.amount_cents for fl in fee_lines(hand1) if fl.seat == 3 and fl.payer_kind == "player"
    ] == [100, 100]
    assert list(differences()) == []


def test_a_version_in_force_is_never_edited(staff, clock):
    mt = fee_table(staff)
    version = table_schedule(mt.table, by=staff.supervisor)
    with pytest.raises(StateError, match="never edited"):
        schedules.refuse_edit(version)
    with pytest.raises(RuleError, match="never in the past"):
        schedules.create_version(
            schedule_id=version.schedule_id,
            rates=STANDARD,
            player_dealer_basis="per_betting_square",
            by=staff.supervisor,
            effective_at=clock.moment.replace(year=2025),
        )


def test_a_limit_class_schedule_applies_unless_the_table_has_its_own(staff, clock):
    mt = fee_table(staff)
    other = fee_table(staff)
    shared = schedules.create_schedule(
        name="$5-$500 tables",
        class_minimum_cents=500,
        class_maximum_cents=50_000,
        by=staff.supervisor,
    )
    class_version = schedules.create_version(
        schedule_id=shared.pk,
        rates=ACTION,
        player_dealer_basis="total_table_action",
        by=staff.supervisor,
    )
    own = table_schedule(other.table, by=staff.supervisor)
    clock.advance(seconds=1)
    assert schedule_in_force(mt.table, clock.moment) == class_version
    assert schedule_in_force(other.table, clock.moment) == own
    round_ = play_round(mt, pd_seat=1, bank=50_000, wagers=WAGERS, until=State.NO_MORE_BETS)
    dealer = [fl for fl in fee_lines(round_) if fl.payer_kind == "player_dealer"]
    assert [(fl.square, fl.wager_cents, fl.amount_cents) for fl in dealer] == [
        ("table_action", 14_500, 300)
    ]
    advance(round_, State.SETTLED, by=mt.staff.dealer)
    floor.change_table_options(
        table_id=mt.table.pk, changes={"maximum_cents": 100_000}, by=staff.supervisor
    )
    clock.advance(seconds=1)
    mt.table.refresh_from_db()
    assert schedule_in_force(mt.table, clock.moment) is None  # no class for the new limits


def test_a_table_schedule_for_other_limits_stops_the_next_hand(staff, clock):
    mt = fee_table(staff)
    table_schedule(mt.table, by=staff.supervisor)
    floor.change_table_options(
        table_id=mt.table.pk, changes={"maximum_cents": 100_000}, by=staff.supervisor
    )
    clock.advance(seconds=1)
    with pytest.raises(StateError, match="file a new version") as caught:
        start(mt, 1, 50_000)
    assert caught.value.state is State.FEE_SCHEDULE_MISMATCH
    assert caught.value.rule is Rule.FEE_SCHEDULE_LIMITS


def test_a_payer_without_the_chips_for_the_fee_stops_no_more_bets(staff, clock):
    mt = money_table(staff, {1: 100_000, 2: 2_000, 3: 100_000}, deal_mode="rng")
    table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    round_ = play_round(
        mt,
        pd_seat=1,
        bank=50_000,
        wagers=[Wager(2, 1_000), Wager(3, 1_000)],
        until=State.WAGERING,
    )
    with pytest.raises(RuleError) as caught:
        rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    message = caught.value.message
    assert "seat 2" in message and "owes $1.00 in collection fees" in message
    assert caught.value.rule is Rule.FEE_COLLECTION and caught.value.field == "fees"
    round_.refresh_from_db()
    assert round_.state == State.WAGERING
    assert not FeeLine.objects.exists() and drop_account(mt.table).balance_cents == 0
    from tests.builders.floor import bring_chips

    bring_chips(mt.table.pk, mt.seated[2], 100, by=staff.dealer)  # a buy-in, then it goes on
    round_ = rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    assert round_.state == State.NO_MORE_BETS and mt.chips(mt.seated[2]) == 0


def test_a_waiver_before_the_deal_gives_the_fee_back_and_is_refused_after(staff, clock):
    mt = fee_table(staff)
    table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    round_ = play_round(mt, pd_seat=1, bank=50_000, wagers=WAGERS, until=State.NO_MORE_BETS)
    line = fee_lines(round_).filter(seat=3, square="ante", payer_kind="player").get()
    chips = mt.chips(mt.seated[3])
    drop = drop_of(mt)
    with pytest.raises(RuleError):
        waivers.waive_fee(fee_line_id=line.pk, reason="  ", by=staff.supervisor)
    waiver = waivers.waive_fee(
        fee_line_id=line.pk, reason="regular's birthday", by=staff.supervisor
    )
    assert (
        waiver.waived_by == staff.supervisor and waiver.reversal.reverses_id == line.transaction_id
    )
    assert mt.chips(mt.seated[3]) == chips + 100 and drop_of(mt) == drop - 100
    with pytest.raises(StateError, match="already waived"):
        waivers.waive_fee(fee_line_id=line.pk, reason="again", by=staff.supervisor)
    round_ = advance(round_, State.PREFLOP, by=mt.staff.dealer)
    other = fee_lines(round_).filter(seat=2, square="ante", payer_kind="player").get()
    with pytest.raises(StateError, match="before the hand is dealt") as caught:
        waivers.waive_fee(fee_line_id=other.pk, reason="too late", by=staff.supervisor)
    assert caught.value.state == State.PREFLOP
    advance(round_, State.SETTLED, by=mt.staff.dealer)
    totals = round_fees(round_)
    assert (totals.assessed, totals.waived, totals.collected) == (675, 100, 575)
    assert FeeWaiver.objects.count() == 1 and list(differences()) == []


def test_a_voided_hand_returns_its_fees(staff, clock):
    mt = fee_table(staff)
    table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    before = mt.chip_balances()
    round_ = play_round(mt, pd_seat=1, bank=50_000, wagers=WAGERS, until=State.NO_MORE_BETS)
    line = fee_lines(round_).first()
    waivers.waive_fee(fee_line_id=line.pk, reason="comp", by=staff.supervisor)
    round_ = advance(round_, State.PREFLOP, by=mt.staff.dealer)
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal: card exposed")
    round_.refresh_from_db()
    assert mt.chip_balances() == before and drop_of(mt) == 0
    assert round_fees(round_).returned == 625 and round_fees(round_).collected == 0
    assert list(differences()) == []


def test_verify_ledger_sees_chips_in_the_drop_that_no_fee_explains(staff, clock):
    mt = fee_table(staff)
    player = mt.seated[2]
    from wagers.services.chips import chip_account

    post(
        TransactionKind.FEE,
        [Leg(chip_account(player, mt.table), -100), Leg(drop_account(mt.table), 100)],
        by=staff.dealer,
    )
    # A fee transaction no fee line explains: both its legs, and the drop it fills.
    assert [d.check for d in differences()] == [
        "fee line disagrees with its transaction",
        "fee line disagrees with its transaction",
        "drop differs from the fees kept",
    ]


def test_the_engine_recomputes_the_stored_lines(staff, clock):
    mt = fee_table(staff)
    table_schedule(mt.table, by=staff.supervisor, rates=ACTION, basis="total_table_action")
    clock.advance(seconds=1)
    round_ = play_round(mt, pd_seat=1, bank=50_000, wagers=WAGERS, until=State.NO_MORE_BETS)
    bets = [
        Wagered(
            b.hand.seat,
            b.bettor,
            b.player_id,
            {
                "ante": b.ante_cents,
                "blind": b.blind_cents,
                "trips": b.trips_cents,
                "bad_beat": b.bad_beat_cents,
            },
        )
        for b in round_.hands.all().first().bets.model.objects.filter(hand__round=round_)
    ]
    expected = assess(
        engine_schedule(round_schedule(round_).schedule),
        bets,
        player_dealer_id=round_.player_dealer_id,
        player_dealer_seat=round_.player_dealer_seat,
    )
    assert [(fl.payer.value, fl.seat, fl.square, fl.amount) for fl in expected.lines] == [
        (fl.payer_kind, fl.seat, fl.square, fl.amount_cents) for fl in fee_lines(round_)
    ]


def _queries_per_round(staff, clock, *, with_schedule: bool, wagers) -> tuple[int, int]:
    """Queries of start_round and close_wagering for a table's second hand (the drop exists)."""
    mt = fee_table(staff)
    if with_schedule:
        table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    play_round(mt, pd_seat=1, bank=50_000, wagers=wagers)
    give_button(mt.table.pk, 2, by=mt.staff.dealer)
    with CaptureQueriesContext(connection) as started:
        round_ = rounds.start_round(table_id=mt.table.pk, by=staff.dealer)
    rounds.post_bank(round_id=round_.pk, amount=50_000, by=staff.dealer)
    place(
        mt,
        round_,
        [
            Wager(3 if w.seat == 2 else w.seat, w.ante, w.trips, w.bad_beat, w.behind)
            for w in wagers
        ],
    )
    with CaptureQueriesContext(connection) as closed:
        rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    return len(started), len(closed)


def test_assessment_costs_a_fixed_number_of_queries(staff, clock):
    few = [Wager(3, 1_000)]
    many = [Wager(3, 1_000, trips=500), Wager(3, 1_000, behind=0)]
    start_without, close_without = _queries_per_round(staff, clock, with_schedule=False, wagers=few)
    start_few, close_few = _queries_per_round(staff, clock, with_schedule=True, wagers=few)
    start_many, close_many = _queries_per_round(staff, clock, with_schedule=True, wagers=many)
    # start_round: the version in force with its rates, one query (with or without a
    # schedule); with a schedule, one insert more: the frozen schedule (RoundFeeSchedule).
    # close_wagering: one read of the wagers replaces the bank and hands checks; with fees the
    # posting (transactions, entries and balances: one statement on PostgreSQL, three
    # elsewhere) and the fee lines: 2 (4), whatever the bettors.
    assert (start_few, close_few) == (start_many, close_many)
    assert close_few - close_without == (2 if connection.vendor == "postgresql" else 4)
    assert start_few == start_without + 1
