"""The action against the bank before "no more bets" (wagers/rules/layout.py ``exposure``,
``action_against_the_bank``; docs/rules.md §6.2, §7.2-§7.3, §7.5): at worst, the most the
bank can lose on a layout, every bettor's largest possible win added up; in the likely case,
every hand winning with less than Three of a Kind; and what of each a bank could not pay in
settlement order.

Hand-worked rows first, then properties: no deal of a layout pays more than its exposure,
the bank never loses more than the part of it the bank covers, nothing goes unpaid beyond
what the exposure says could, and a bank at least the exposure covers every wager; the
likely case never owes, nor leaves uncovered, more than the worst, and a deal where every
hand wins with a pair settles exactly as the likely case says.
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
from wagers.rules.layout import Alarm, action_against_the_bank, exposure, largest_win, likely_case
from wagers.rules.resolution import Outcome
from wagers.rules.showdown import SeatHand, play_out
from wagers.rules.wagers import Stakes

# Pure rules, microseconds an example, so wider than the default 100: MAIN (300) for the
# properties over a whole table, FAST (500) for the cheapest, searching wider in the same time.
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
    assert sum(win.amount for win in found.wins) == found.owed


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


# The likely case (docs/rules.md §7.5): (layout, player-dealer seat, bank, options) -> (owed,
# paid, uncovered, collected, winning wagers, of which some part unpaid, the alarm). Cents.
LIKELY_ROWS = {
    # The layout: $10 and $25 Antes against a $300 bank, $1 chips. Every hand wins:
    # $10 + $40 and $25 + $100 = $175, covered; at worst ($5,050 + $12,625) it is not.
    "$10 and $25 Antes against $300": (
        {1: [bet(1_000)], 2: [bet(2_500)]}, 6, 30_000, options(chip=100),
        (17_500, 17_500, 0, 0, 4, 0, Alarm.WORST),
    ),
    # The Blind pushes and the Trips and the Bad Beat lose: collected, $10 of them.
    "trips and bad beat lose": (
        {1: [bet(1_000, trips=500, bad_beat=500)]}, 6, 10_000_000, options(),
        (5_000, 5_000, 0, 1_000, 2, 0, Alarm.COVERED),
    ),
    # A $30 bank, seats 1 then 2: seat 1's $5 Ante and $20 Play are paid ($5 left), its $20
    # Trips is collected ($25 left), which pays seat 2's $5 and $20: nothing uncovered.
    "a trips collected pays a later seat": (
        {1: [bet(500, trips=2_000)], 2: [bet(500)]}, 6, 3_000, options(),
        (5_000, 5_000, 0, 2_000, 4, 0, Alarm.WORST),
    ),
    # A $50 bank pays seat 1's $10 and $40; seat 2's two wagers go unpaid.
    "short even in the likely case": (
        {1: [bet(1_000)], 2: [bet(1_000)]}, 6, 5_000, options(),
        (10_000, 5_000, 5_000, 0, 4, 2, Alarm.LIKELY),
    ),
    # A Trips-only backline bettor loses its Trips; the seat wins $10 + $40.
    "backline trips only": (
        {2: [bet(1_000), bet(trips=500)]}, 1, 1_000_000, options(),
        (5_000, 5_000, 0, 500, 2, 0, Alarm.COVERED),
    ),
    # The backline bettor plays the seat's multiple of its own Ante: $5 + $20.
    "backline ante and blind": (
        {2: [bet(1_000), bet(500)]}, 1, 1_000_000, options(),
        (7_500, 7_500, 0, 0, 4, 0, Alarm.COVERED),
    ),
    # Only 3x before the flop: $10 + $30.
    "3x only": ({1: [bet(1_000)]}, 6, 1_000_000, options(multiples=(3,)),
                (4_000, 4_000, 0, 0, 2, 0, Alarm.COVERED)),
    # A bank of exactly the likely case covers it; at worst the Blind's $5,000 goes unpaid.
    "a bank of the likely case": (
        {1: [bet(1_000)]}, 6, 5_000, options(), (5_000, 5_000, 0, 0, 2, 0, Alarm.WORST),
    ),
    "a cent short": (
        {1: [bet(1_000)]}, 6, 4_999, options(), (5_000, 4_999, 1, 0, 2, 1, Alarm.LIKELY),
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(LIKELY_ROWS))
def test_the_likely_case_row_by_row(name):
    layout, player_dealer, bank, opts, expected = LIKELY_ROWS[name]
    action = action_against_the_bank(bank, player_dealer, layout, options=opts)
    likely = action.likely
    assert (
        likely.owed, likely.paid, likely.uncovered, likely.collected, likely.wagers,
        likely.uncovered_wagers, action.alarm,
    ) == expected  # fmt: skip
    assert sum(win.amount for win in likely.wins) == likely.owed
    assert action.worst == exposure(bank, player_dealer, layout, options=opts)


def test_every_hand_winning_with_a_pair_settles_as_the_likely_case():
    """Seats 1, 2 and 3 each beat the player-dealer's pair of twos with a higher pair after a
    4x Play: their Antes and Plays win, the Blinds push, every Trips and Bad Beat loses,
    exactly as the likely case says, wager by wager, and so does the backline bettor."""
    opts = options()
    stakes = {
        1: Stakes(ante=1_000, blind=1_000, play=4_000, trips=500, bad_beat=500),
        2: Stakes(ante=2_500, blind=2_500, play=10_000),
        3: Stakes(ante=500, blind=500, play=2_000, trips=1_000),
    }
    behind = (Stakes(ante=500, blind=500, play=2_000, trips=200),)
    holes = {1: "Ah Ad", 2: "Qs Qc", 3: "Js Jd"}
    seats = [
        SeatHand(seat, cards(holes[seat]), stake, backline=behind if seat == 1 else ())
        for seat, stake in stakes.items()
    ]
    layout = {
        seat: [bet(s.ante, trips=s.trips, bad_beat=s.bad_beat)]
        + ([bet(500, trips=200)] if seat == 1 else [])
        for seat, s in stakes.items()
    }
    for bank in (1_000_000, 20_000, 3_000):  # covered, then short
        hand = play_out(6, cards("2c 3d"), cards("Kc 9d 7h 5s 2h"), seats, bank, opts)
        assert hand.dealer_qualifies
        assert all(seat.value.category is Category.ONE_PAIR for seat in hand.seats)
        likely = action_against_the_bank(bank, 6, layout, options=opts).likely
        lines = hand.settlement.lines
        assert sum(line.paid for line in lines) == likely.paid
        assert sum(line.unpaid_uncovered for line in lines) == likely.uncovered
        assert sum(line.collected for line in lines) == likely.collected
        assert sum(line.paid + line.unpaid_uncovered for line in lines) == likely.owed


def test_the_likely_case_of_one_bettor():
    won = likely_case(bet(1_000, trips=500, bad_beat=500), 4, GameOptions())
    assert [(k.value, r.outcome, r.payout) for k, r in won.items()] == [
        ("ante", Outcome.WIN, 1_000),
        ("play", Outcome.WIN, 4_000),
        ("blind", Outcome.PUSH, 0),
        ("trips", Outcome.LOSE, 0),
        ("bad_beat", Outcome.LOSE, 0),
    ]
    assert likely_case(bet(trips=500), 4, GameOptions()) == {
        kind: resolution
        for kind, resolution in likely_case(bet(trips=500), 3, GameOptions()).items()
    }


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
    largest = {(win.seat, win.bettor): win.amount for win in found.wins}
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


def layouts(opts: GameOptions, player_dealer: int) -> st.SearchStrategy:
    """Seats other than the player-dealer's, each with one to three bettors."""
    chip = opts.chip_unit
    seats = [seat for seat in range(1, 7) if seat != player_dealer]
    amount = st.builds(lambda k: chip * k, st.integers(0, 20_000))
    bettor = st.builds(
        lambda ante, trips, bad_beat: bet(ante, trips=trips, bad_beat=bad_beat),
        amount,
        amount,
        amount if opts.bad_beat_paytable else st.just(0),
    ).filter(lambda b: b.ante or b.trips)
    return st.dictionaries(st.sampled_from(seats), st.lists(bettor, min_size=1, max_size=3))


# Options, a player-dealer's seat, and a layout drawn from them (``layouts``).
A_LAYOUT = {"opts": game_options(), "player_dealer": st.integers(1, 6), "data": st.data()}


@FAST
@given(**A_LAYOUT, bank=st.integers(1, 10**10))
def test_the_uncovered_part_is_what_the_bank_cannot_pay(opts, player_dealer, data, bank):
    chip = opts.chip_unit
    layout = data.draw(layouts(opts, player_dealer))
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


@FAST
@given(**A_LAYOUT, bank=st.integers(1, 10**8))
def test_the_likely_case_is_within_the_worst(opts, player_dealer, data, bank):
    layout = data.draw(layouts(opts, player_dealer))
    action = action_against_the_bank(bank, player_dealer, layout, options=opts)
    likely, worst = action.likely, action.worst
    # Within what the layout can pay, and never more uncovered than at worst.
    assert 0 <= likely.owed <= worst.owed
    assert 0 <= likely.uncovered <= worst.uncovered
    assert likely.uncovered_wagers <= worst.uncovered_wagers
    at_worst = {(win.seat, win.bettor): win.amount for win in worst.wins}
    for win in likely.wins:
        assert win.amount <= at_worst[(win.seat, win.bettor)]
    # Paid or unpaid, every payout is accounted for; the bank loses at most itself, and
    # collects only the Trips and Bad Beat stakes, which all lose in this case.
    assert likely.paid + likely.uncovered == likely.owed
    assert likely.paid - likely.collected <= bank
    bonuses = sum(b.trips + b.bad_beat for bettors in layout.values() for b in bettors)
    assert 0 <= likely.collected <= bonuses
    # The likely case wins each bettor its Ante and the largest Play, at even money.
    multiple = max(opts.allowed_preflop_multiples)
    antes = sum(b.ante for bettors in layout.values() for b in bettors)
    assert likely.owed == antes * (1 + multiple)
    # The alarm: the likely case short, or only the worst, or neither.
    assert (action.alarm is Alarm.LIKELY) is (likely.uncovered > 0)
    assert (action.alarm is Alarm.COVERED) is (worst.uncovered == 0)
