"""The action against the bank before "no more bets" (wagers/rules/layout.py ``exposure``):
the most the bank can lose on a layout, every bettor's largest possible win added up, and
what of it a bank could not pay in settlement order (docs/rules.md §6.2, §7.2-§7.3).

Hand-worked rows first, then properties: no deal of a layout pays more than its exposure,
the bank never loses more than the part of it the bank covers, nothing goes unpaid beyond
what the exposure says could, and a bank at least the exposure covers every wager.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import FULL_DECK
from tables.rules.hands import Category
from tables.rules.options import GameOptions
from tables.rules.paytables import (
    BAD_BEAT_CATEGORIES,
    BAD_BEAT_PAYTABLES,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    PayTable,
    custom_paytable,
)
from tests.builders.rules import cards
from wagers.rules.layout import exposure, largest_win
from wagers.rules.resolution import Outcome
from wagers.rules.showdown import SeatHand, play_out
from wagers.rules.wagers import Stakes

MAIN = settings(max_examples=300, deadline=None)
FAST = settings(max_examples=500, deadline=None)


def options(trips="UTH-01", bad_beat="option-1", chip=1, multiples=(3, 4)) -> GameOptions:
    return GameOptions(
        trips_paytable=TRIPS_PAYTABLES[trips] if isinstance(trips, str) else trips,
        bad_beat_paytable=BAD_BEAT_PAYTABLES[bad_beat] if isinstance(bad_beat, str) else bad_beat,
        chip_unit=chip,
        allowed_preflop_multiples=multiples,
    )


def bet(ante=0, trips=0, bad_beat=0) -> Stakes:
    return Stakes(ante=ante, blind=ante, trips=trips, bad_beat=bad_beat)


# The Trips table of a variant approved elsewhere (docs/rules.md §6.2), and one whose top odds
# are not a whole number, at a table of $5 chips.
VARIANT_TRIPS = custom_paytable(
    "custom",
    {"royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
     "flush": 6, "straight": 5, "three_of_a_kind": 3},
    TRIPS_CATEGORIES,
)  # fmt: skip
HALVES_TRIPS = custom_paytable(
    "custom",
    {"royal_flush": "12.5", "straight_flush": "10", "four_of_a_kind": "8", "full_house": "6",
     "flush": "5", "straight": "4", "three_of_a_kind": "1"},
    TRIPS_CATEGORIES,
)  # fmt: skip

# (layout, player-dealer seat, bank, options) -> (exposure, paid, uncovered, wagers,
# wagers with an unpaid part). Amounts in cents, worked by hand in the comments.
ROWS = {
    # $10 Ante and Blind: Ante $10 + 4x Play $40 + Blind $10 at 500 to 1 = $5,050.
    "ante and blind": (
        {1: [bet(1_000)]}, 6, 1_000_000, options(), (505_000, 505_000, 0, 3, 0),
    ),
    # ... + Trips $5 at 50 to 1 ($250) + Bad Beat $5 at 10,000 to 1 ($50,000) = $55,300.
    "trips and bad beat at their top odds": (
        {1: [bet(1_000, trips=500, bad_beat=500)]}, 6, 10_000_000, options(),
        (5_530_000, 5_530_000, 0, 5, 0),
    ),
    # UTH-04 tops at 50 to 1 too; Bad Beat option 2 at 7,500 to 1: $5,050 + $250 + $37,500.
    "UTH-04 and option 2": (
        {1: [bet(1_000, trips=500, bad_beat=500)]}, 6, 10_000_000,
        options(trips="UTH-04", bad_beat="option-2"), (4_280_000, 4_280_000, 0, 5, 0),
    ),
    # A table with no Bad Beat: $5,050 + Trips $250.
    "no bad beat offered": (
        {1: [bet(1_000, trips=500)]}, 6, 10_000_000, options(bad_beat=None),
        (530_000, 530_000, 0, 4, 0),
    ),
    # Only 3x before the flop: $10 + $30 + $5,000.
    "3x only": (
        {1: [bet(1_000)]}, 6, 1_000_000, options(multiples=(3,)), (504_000, 504_000, 0, 3, 0),
    ),
    # A backline bettor with Trips only ($5 at 50 to 1) behind seat 2: $5,050 + $250.
    "backline trips only": (
        {2: [bet(1_000), bet(trips=500)]}, 1, 1_000_000, options(), (530_000, 530_000, 0, 4, 0),
    ),
    # A backline bettor with Ante and Blind plays the seat's multiple of its own Ante: $5 +
    # $20 + $2,500 = $2,525 beside the seat's $5,050.
    "backline ante and blind": (
        {2: [bet(1_000), bet(500)]}, 1, 1_000_000, options(), (757_500, 757_500, 0, 6, 0),
    ),
    # The variant's Trips tops at 100 to 1: $5,050 + $500.
    "a custom trips table": (
        {1: [bet(1_000, trips=500)]}, 6, 1_000_000, options(trips=VARIANT_TRIPS),
        (555_000, 555_000, 0, 4, 0),
    ),
    # $5 chips: Trips $5 at 12.5 to 1 is $62.50, paid $60 (rounded down to the chip, §6.3);
    # $5 + $20 + $2,500 + $60 = $2,585.
    "rounded down to the chip": (
        {1: [bet(500, trips=500)]}, 6, 1_000_000, options(trips=HALVES_TRIPS, chip=500),
        (258_500, 258_500, 0, 4, 0),
    ),
    # A $30 bank, the player-dealer at seat 4: seat 5 is paid first, its Ante ($5) and Play
    # ($20), then $5 of its Blind; the rest of the Blind and seat 1's three wagers go unpaid.
    "a short bank in settlement order": (
        {1: [bet(1_000)], 5: [bet(500)]}, 4, 3_000, options(),
        (757_500, 3_000, 754_500, 6, 4),
    ),
    # A bank of exactly the exposure covers it; one cent less leaves a cent of the Blind.
    "a bank of the exposure": (
        {1: [bet(1_000)]}, 6, 505_000, options(), (505_000, 505_000, 0, 3, 0),
    ),
    "a cent short": ({1: [bet(1_000)]}, 6, 504_999, options(), (505_000, 504_999, 1, 3, 1)),
    # An Ante alone stands for an Ante and its equal Blind (what the layout showed before).
    "an ante alone": ({1: [1_000]}, 6, 1_000_000, options(), (505_000, 505_000, 0, 3, 0)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ROWS))
def test_the_most_the_bank_can_lose_row_by_row(name):
    layout, player_dealer, bank, opts, expected = ROWS[name]
    found = exposure(bank, player_dealer, layout, options=opts)
    assert (found.owed, found.paid, found.uncovered, found.wagers, found.uncovered_wagers) == (
        expected
    )
    assert sum(win.amount for win in found.largest_wins) == found.owed


def test_the_largest_multiple_can_be_given_and_the_options_default_to_the_rules():
    assert exposure(1_000_000, 6, {1: [1_000]}, 3).owed == 504_000
    assert exposure(1_000_000, 6, {1: [1_000]}).owed == 505_000  # [3, 4]: 4x
    assert largest_win(bet(1_000, trips=500, bad_beat=500), 4, GameOptions()) == 5_530_000


def test_one_seat_reaches_its_exposure_with_a_royal_flush_over_a_straight_flush():
    """The exposure is reached: seat 1's Royal Flush in hearts beats the player-dealer's
    Straight Flush to the queen, so every wager pays its top, the Bad Beat on the
    player-dealer's beaten hand; the backline bettor, on the same hand, too."""
    opts = options()
    seat = SeatHand(
        seat=1,
        hole=cards("Ah Kh"),
        stakes=Stakes(ante=1_000, blind=1_000, play=4_000, trips=500, bad_beat=500),
        backline=(Stakes(ante=500, blind=500, play=2_000, trips=200),),
    )
    layout = {1: [bet(1_000, trips=500, bad_beat=500), bet(500, trips=200)]}
    bank = 10_000_000
    found = exposure(bank, 6, layout, options=opts)
    hand = play_out(6, cards("9h 8h"), cards("Qh Jh Th 2c 3d"), [seat], bank, opts)
    assert hand.dealer.category is Category.STRAIGHT_FLUSH and hand.dealer_qualifies
    assert hand.seats[0].value.category is Category.ROYAL_FLUSH
    paid = sum(line.paid for line in hand.settlement.lines)
    # $55,300 for the seat; $5 + $20 + $2,500 + Trips $2 at 50 to 1 ($100) behind it.
    assert paid == found.owed == 5_530_000 + 262_500
    assert -hand.settlement.player_dealer_net == found.paid == found.owed


# --- Properties ----------------------------------------------------------------------------


def _custom(categories) -> st.SearchStrategy[PayTable]:
    """A pay table given in full: exact odds up to 100,000 to 1 with four decimals."""
    odds = st.builds(lambda n: Fraction(n, 10_000), st.integers(1, 10**9))
    return st.lists(odds, min_size=len(categories), max_size=len(categories)).map(
        lambda given: PayTable("custom", tuple(zip(categories, given, strict=True)))
    )


@st.composite
def game_options(draw) -> GameOptions:
    return GameOptions(
        trips_paytable=draw(
            st.one_of(st.sampled_from(list(TRIPS_PAYTABLES.values())), _custom(TRIPS_CATEGORIES))
        ),
        bad_beat_paytable=draw(
            st.one_of(
                st.none(),
                st.sampled_from(list(BAD_BEAT_PAYTABLES.values())),
                _custom(BAD_BEAT_CATEGORIES),
            )
        ),
        chip_unit=draw(st.sampled_from([1, 5, 25, 100, 500])),
        allowed_preflop_multiples=draw(st.sampled_from([(3, 4), (4,), (3,)])),
    )


@st.composite
def dealt_hands(draw):
    """A complete hand as the rules allow it: options, the player-dealer's seat, one to five
    seats with backline bettors, every decision, the cards, and a bank."""
    opts = draw(game_options())
    chip = opts.chip_unit
    player_dealer = draw(st.integers(1, 6))
    others = [seat for seat in range(1, 7) if seat != player_dealer]
    seats = draw(st.lists(st.sampled_from(others), min_size=1, max_size=5, unique=True))
    deck = list(draw(st.permutations(FULL_DECK)))

    def chips(low=1, high=400):
        return chip * draw(st.integers(low, high))

    def optional():
        return draw(st.one_of(st.just(0), st.builds(lambda k: chip * k, st.integers(1, 200))))

    hands, layout = [], {}
    for index, seat in enumerate(seats):
        ante = chips()
        opening = bet(ante, trips=optional(), bad_beat=optional() if opts.bad_beat_paytable else 0)
        folded = draw(st.booleans())
        multiple = 0 if folded else draw(st.sampled_from([*opts.allowed_preflop_multiples, 2, 1]))
        behind = []
        for _ in range(draw(st.integers(0, 2))):
            behind_ante = optional()
            behind.append(bet(behind_ante, trips=optional() if behind_ante else chips(1, 200)))
        layout[seat] = [opening, *behind]
        hands.append(
            SeatHand(
                seat=seat,
                hole=(deck[2 * index], deck[2 * index + 1]),
                stakes=Stakes(**{**_as_dict(opening), "play": ante * multiple}),
                folded=folded,
                backline=tuple(
                    Stakes(**{**_as_dict(b), "play": b.ante * multiple}) for b in behind
                ),
            )
        )
    used = 2 * len(seats)
    bank = chip * draw(st.integers(1, 2_000_000))
    dealt = (deck[used : used + 2], deck[used + 2 : used + 7])
    return opts, player_dealer, hands, layout, dealt, bank


def _as_dict(stakes: Stakes) -> dict[str, int]:
    return {"ante": stakes.ante, "blind": stakes.blind, "trips": stakes.trips,
            "bad_beat": stakes.bad_beat}  # fmt: skip


@MAIN
@given(hand=dealt_hands())
def test_no_deal_pays_more_than_the_exposure(hand):
    opts, player_dealer, hands, layout, (dealer_hole, board), bank = hand
    found = exposure(bank, player_dealer, layout, options=opts)
    settled = play_out(player_dealer, dealer_hole, board, hands, bank, opts).settlement
    lines = settled.lines
    # Every payout the hand makes, before the bank's limit, is within the exposure, bettor
    # by bettor and in all; what the bank pays and loses is within what it covers of it.
    payouts = defaultdict(int)
    for line in lines:
        if line.outcome is Outcome.WIN:
            payouts[(line.seat, line.bettor)] += line.paid + line.unpaid_uncovered
    largest = {(win.seat, win.bettor): win.amount for win in found.largest_wins}
    for bettor, amount in payouts.items():
        assert amount <= largest[bettor]
    assert sum(payouts.values()) <= found.owed
    assert -settled.player_dealer_net <= found.paid
    # Nothing goes unpaid beyond what the exposure says could; with a bank of at least the
    # exposure, nothing at all.
    assert sum(line.unpaid_uncovered for line in lines) <= found.uncovered
    if bank >= found.owed:
        assert found.uncovered == 0
        assert not any(line.unpaid_uncovered for line in lines)


@FAST
@given(
    opts=game_options(),
    player_dealer=st.integers(1, 6),
    data=st.data(),
    bank=st.integers(1, 10**10),
)
def test_the_uncovered_part_is_what_the_bank_cannot_pay(opts, player_dealer, data, bank):
    chip = opts.chip_unit
    seats = [seat for seat in range(1, 7) if seat != player_dealer]
    amount = st.builds(lambda k: chip * k, st.integers(0, 20_000))
    bettor = st.builds(
        lambda ante, trips, bad_beat: bet(ante, trips=trips, bad_beat=bad_beat),
        amount,
        amount,
        amount if opts.bad_beat_paytable else st.just(0),
    ).filter(lambda b: b.ante or b.trips)
    layout = data.draw(
        st.dictionaries(st.sampled_from(seats), st.lists(bettor, min_size=1, max_size=3))
    )
    found = exposure(bank, player_dealer, layout, options=opts)
    assert found.uncovered >= 0
    assert found.paid == min(bank, found.owed)
    assert found.paid + found.uncovered == found.owed
    assert (found.uncovered == 0) is (bank >= found.owed)
    assert 0 <= found.uncovered_wagers <= found.wagers
    assert (found.uncovered_wagers == 0) is (found.uncovered == 0)
    multiple = max(opts.allowed_preflop_multiples)
    assert found.owed == sum(
        largest_win(stakes, multiple, opts) for bettors in layout.values() for stakes in bettors
    )
    # More bank never leaves more uncovered.
    assert exposure(bank + chip, player_dealer, layout, options=opts).uncovered <= found.uncovered
