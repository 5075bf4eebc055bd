"""The fee engine (fees/rules), table-driven, without Django."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.errors import Rule, RuleError
from fees.rules.assessment import (
    TABLE_ACTION,
    Payer,
    Wagered,
    assess,
    least_player_dealer_fee,
    shortfalls,
)
from fees.rules.schedule import Basis, build_schedule
from tests.builders.rules import STANDARD

MIN, MAX = 500, 50_000
SQUARE_RATES = STANDARD
ACTION_RATES = [
    {
        "wager_from_cents": 500,
        "wager_to_cents": 10_000,
        "player_fee_cents": 100,
        "action_from_cents": 0,
        "action_to_cents": 9_999,
        "player_dealer_fee_cents": 100,
    },
    {
        "wager_from_cents": 10_001,
        "wager_to_cents": 50_000,
        "player_fee_cents": 200,
        "action_from_cents": 10_000,
        "action_to_cents": 49_999,
        "player_dealer_fee_cents": 300,
    },
    {"action_from_cents": 50_000, "action_to_cents": None, "player_dealer_fee_cents": 500},
]
PD, PD_SEAT = 99, 1


def schedule(rates=SQUARE_RATES, basis="per_betting_square", **extra):
    return build_schedule(basis=basis, rates=rates, table_minimum=MIN, table_maximum=MAX, **extra)


def bet(seat, ante, trips=0, bad_beat=0, bettor=0, payer=None):
    return Wagered(
        seat,
        bettor,
        payer or seat * 10 + bettor,
        {"ante": ante, "blind": ante, "trips": trips, "bad_beat": bad_beat},
    )


# --- Bracket edges: per betting square ------------------------------------------------------


@pytest.mark.parametrize(
    ("wager", "player_fee", "dealer_fee", "position"),
    [
        (500, 50, 25, 1),  # the table minimum
        (2_500, 50, 25, 1),  # top of the first bracket
        (2_501, 100, 50, 2),  # one cent above it
        (10_000, 100, 50, 2),
        (10_001, 200, 100, 3),
        (50_000, 200, 100, 3),  # the table maximum
    ],
)
def test_per_square_bracket_edges(wager, player_fee, dealer_fee, position):
    result = assess(schedule(), [bet(2, wager)], player_dealer_id=PD, player_dealer_seat=PD_SEAT)
    assert [
        (fl.payer, fl.square, fl.wager, fl.rate_position, fl.amount) for fl in result.lines
    ] == [
        (Payer.PLAYER, "ante", wager, position, player_fee),
        (Payer.PLAYER_DEALER, "ante", wager, position, dealer_fee),
        (Payer.PLAYER, "blind", wager, position, player_fee),
        (Payer.PLAYER_DEALER, "blind", wager, position, dealer_fee),
    ]
    assert result.by_payer() == {20: 2 * player_fee, PD: 2 * dealer_fee}


def test_each_square_is_rated_by_its_own_wager():
    result = assess(
        schedule(),
        [bet(3, 20_000, trips=500, bad_beat=1_000)],
        player_dealer_id=PD,
        player_dealer_seat=PD_SEAT,
    )
    player = {(fl.square): fl.amount for fl in result.lines if fl.payer is Payer.PLAYER}
    assert player == {"ante": 200, "blind": 200, "trips": 50, "bad_beat": 50}


def test_backline_bettors_pay_their_own_fees_and_the_player_dealer_pays_on_their_squares():
    result = assess(
        schedule(),
        [
            bet(2, 1_000),
            bet(2, 0, trips=3_000, bettor=1, payer=7),
            bet(2, 5_000, bettor=2, payer=8),
        ],
        player_dealer_id=PD,
        player_dealer_seat=PD_SEAT,
    )
    owed = result.by_payer()
    assert owed[7] == 100  # a Trips-only backline bettor: one square, bracket 2
    assert owed[8] == 200  # ante + blind, bracket 2
    assert owed[20] == 100
    assert owed[PD] == 25 * 2 + 50 + 50 * 2
    assert {fl.payer for fl in result.lines if fl.payer_id in (7, 8)} == {Payer.BACKLINE}


def test_charged_squares_leave_others_free():
    result = assess(
        schedule(charged_squares=("ante", "trips")),
        [bet(2, 1_000, trips=1_000, bad_beat=1_000)],
        player_dealer_id=PD,
        player_dealer_seat=PD_SEAT,
    )
    assert {fl.square for fl in result.lines} == {"ante", "trips"}


def test_zero_fees_make_no_lines():
    rates = [
        dict(SQUARE_RATES[0], player_fee_cents=0, player_dealer_fee_cents=0),
        *SQUARE_RATES[1:],
    ]
    result = assess(schedule(rates), [bet(2, 500)], player_dealer_id=PD, player_dealer_seat=PD_SEAT)
    assert result.lines == () and result.total == 0


# --- Total table action ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("antes", "action", "dealer_fee", "position"),
    [
        ([500], 1_000, 100, 1),
        ([2_500, 2_499], 9_998, 100, 1),
        ([2_500, 2_500], 10_000, 300, 2),  # the action bracket edge
        ([10_000, 14_999], 49_998, 300, 2),
        ([25_000], 50_000, 500, 3),  # "and above"
        ([50_000, 50_000, 50_000], 300_000, 500, 3),
    ],
)
def test_total_table_action_brackets(antes, action, dealer_fee, position):
    bets = [bet(seat, ante) for seat, ante in enumerate(antes, start=2)]
    result = assess(
        schedule(ACTION_RATES, "total_table_action"),
        bets,
        player_dealer_id=PD,
        player_dealer_seat=PD_SEAT,
    )
    dealer = [fl for fl in result.lines if fl.payer is Payer.PLAYER_DEALER]
    assert [(fl.square, fl.wager, fl.rate_position, fl.amount, fl.seat) for fl in dealer] == [
        (TABLE_ACTION, action, position, dealer_fee, PD_SEAT)
    ]
    assert result.table_action == action
    players = [fl for fl in result.lines if fl.payer is Payer.PLAYER]
    assert len(players) == 2 * len(antes)


def test_shortfalls_name_each_payer_who_cannot_pay():
    result = assess(
        schedule(), [bet(2, 1_000), bet(3, 1_000)], player_dealer_id=PD, player_dealer_seat=PD_SEAT
    )
    assert shortfalls(result, {20: 100, 30: 99, PD: 100}) == [(30, 100, 99)]


# --- The least the player-dealer owes, when the bank is posted (docs/rules.md §9.4) ----------

# A per-square schedule whose cheapest player-dealer fee is not the first rate's, and one on
# total table action whose fees fall with the action: the least is taken over every rate a
# hand can still reach, not the first.
CHEAPER_LATER = [
    dict(STANDARD[0], player_dealer_fee_cents=75),
    dict(STANDARD[1], player_dealer_fee_cents=10),
    STANDARD[2],
]
FALLING = [
    dict(ACTION_RATES[0], player_dealer_fee_cents=400),
    dict(ACTION_RATES[1], player_dealer_fee_cents=300),
    ACTION_RATES[2],
]


def least(rates, basis, wagered, chip=100, **extra):
    return least_player_dealer_fee(
        schedule(rates, basis, **extra),
        wagered,
        player_dealer_id=PD,
        player_dealer_seat=PD_SEAT,
        chip_unit=chip,
    )


@pytest.mark.parametrize(
    ("rates", "basis", "wagered", "extra", "owed"),
    [
        # Nobody has wagered: a seat's Ante and Blind at the table minimum, $0.25 on each.
        (SQUARE_RATES, "per_betting_square", [], {}, 50),
        # The Blind is not charged: one square.
        (SQUARE_RATES, "per_betting_square", [], {"charged_squares": ("ante", "trips")}, 25),
        # No opening square a hand must wager is charged: nothing is owed for certain.
        (SQUARE_RATES, "per_betting_square", [], {"charged_squares": ("trips",)}, 0),
        # The second rate's fee is the least, $0.10 a square.
        (CHEAPER_LATER, "per_betting_square", [], {}, 20),
        # Wagers on the layout: their fees, $0.25 + $0.25 + $0.50 + $0.50 + Trips $0.25.
        (SQUARE_RATES, "per_betting_square", [bet(2, 1_000), bet(3, 5_000, trips=500)], {}, 175),
        # On total table action: the least hand's $10 is in the first range, $1.00.
        (ACTION_RATES, "total_table_action", [], {}, 100),
        # $100 of action is in the second range; $500 in the last.
        (ACTION_RATES, "total_table_action", [bet(2, 5_000)], {}, 300),
        (ACTION_RATES, "total_table_action", [bet(2, 25_000)], {}, 500),
        # Falling fees: a fuller layout could owe less, so the least is the last range's.
        (FALLING, "total_table_action", [], {}, 300),
        (FALLING, "total_table_action", [bet(2, 25_000)], {}, 500),
    ],
)  # fmt: skip
def test_the_least_the_player_dealer_owes(rates, basis, wagered, extra, owed):
    assert least(rates, basis, wagered, **extra) == owed


def test_a_rate_no_wager_in_whole_chips_reaches_is_left_out():
    # $5 chips: the $25.01-$29.99 rate holds no whole-chip wager, so its $0.01 is never owed.
    rates = [
        dict(STANDARD[0]),
        {"wager_from_cents": 2_501, "wager_to_cents": 2_999, "player_fee_cents": 0,
         "player_dealer_fee_cents": 1},
        dict(STANDARD[1], wager_from_cents=3_000),
        STANDARD[2],
    ]  # fmt: skip
    assert least(rates, "per_betting_square", [], chip=500) == 50
    assert least(rates, "per_betting_square", [], chip=1) == 2


def _pd_fee(rates, basis, wagered) -> int:
    lines = assess(
        schedule(rates, basis), wagered, player_dealer_id=PD, player_dealer_seat=PD_SEAT
    ).lines
    return sum(line.amount for line in lines if line.payer is Payer.PLAYER_DEALER)


WAGER = st.integers(5, 500).map(lambda k: k * 100)  # $5 to $500 in $1 chips
OPTIONAL = st.one_of(st.just(0), WAGER)


@st.composite
def layouts(draw, seats=(2, 3, 4, 5, 6)):
    """Seats with their Ante and Blind, and backline bettors behind them."""
    wagered = []
    for seat in draw(st.lists(st.sampled_from(seats), max_size=3, unique=True)):
        wagered.append(bet(seat, draw(WAGER), trips=draw(OPTIONAL), bad_beat=draw(OPTIONAL)))
        for bettor in range(1, draw(st.integers(0, 2)) + 1):
            wagered.append(bet(seat, draw(OPTIONAL), trips=draw(WAGER), bettor=bettor))
    return wagered


# 300: pure arithmetic, microseconds an example; four schedules by two layouts, so a wider
# search than the default 100 meets each pairing many times.
@settings(max_examples=300, deadline=None)
@given(
    rates=st.sampled_from([(SQUARE_RATES, "per_betting_square"),
                           (CHEAPER_LATER, "per_betting_square"),
                           (ACTION_RATES, "total_table_action"),
                           (FALLING, "total_table_action")]),
    now=layouts(seats=(2, 3)),
    later=layouts(seats=(4, 5, 6)),
)  # fmt: skip
def test_no_hand_dealt_from_the_layout_owes_less(rates, now, later):
    """Whatever is wagered after the bank is posted, the player-dealer owes at least the
    least at "no more bets"; with nothing more wagered, exactly that on a schedule whose
    fees grow with the wager (a dealt hand has at least one seat)."""
    table_rates, basis = rates
    floor = least(table_rates, basis, now)
    dealt = now + later
    if dealt:
        assert _pd_fee(table_rates, basis, dealt) >= floor
    if now and table_rates in (SQUARE_RATES, ACTION_RATES):
        assert _pd_fee(table_rates, basis, now) == floor


@pytest.mark.parametrize(
    ("rates", "basis"),
    [(SQUARE_RATES, "per_betting_square"), (CHEAPER_LATER, "per_betting_square"),
     (ACTION_RATES, "total_table_action"), (FALLING, "total_table_action")],
)  # fmt: skip
def test_the_least_is_reached_by_some_hand(rates, basis):
    """Nothing wagered yet: some one-seat hand owes exactly the least (the floor is tight)."""
    floor = least(rates, basis, [])
    owed = {_pd_fee(rates, basis, [bet(2, ante * 100)]) for ante in range(5, 501)}
    owed |= {_pd_fee(rates, basis, [bet(2, 50_000, trips=50_000, bad_beat=50_000)])}
    assert min(owed) == floor


# --- Validation refusals --------------------------------------------------------------------


def refused(rates, basis="per_betting_square", **extra) -> RuleError:
    with pytest.raises(RuleError) as caught:
        schedule(rates, basis, **extra)
    return caught.value


def test_a_sixth_rate_is_refused():
    six = [
        {
            "wager_from_cents": lo,
            "wager_to_cents": hi,
            "player_fee_cents": 100,
            "player_dealer_fee_cents": 0,
        }
        for lo, hi in [
            (500, 999),
            (1_000, 1_999),
            (2_000, 2_999),
            (3_000, 3_999),
            (4_000, 4_999),
            (5_000, 50_000),
        ]
    ]
    error = refused(six)
    assert error.field == "rates" and error.rule == Rule.FEE_RATES and "five" in error.message
    assert schedule([*six[:4], dict(six[4], wager_to_cents=50000)]).rates  # five is fine


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"player_fee_cents": "5%"}, "rates[0].player_fee_cents"),
        ({"player_dealer_fee_cents": "2 percent"}, "rates[0].player_dealer_fee_cents"),
        ({"player_fee_cents": 0.05}, "rates[0].player_fee_cents"),
        ({"player_fee_percent": 5}, "rates[0].player_fee_percent"),
    ],
)
def test_percentage_like_input_is_refused(change, field):
    error = refused([dict(SQUARE_RATES[0], **change), *SQUARE_RATES[1:]])
    assert error.rule == Rule.FEES_FLAT and error.field == field
    assert "percentage" in error.message or "flat" in error.message


@pytest.mark.parametrize(
    ("rates", "field", "words"),
    [
        (
            [dict(SQUARE_RATES[0], wager_to_cents=3_000), *SQUARE_RATES[1:]],
            "rates[1].wager",
            "overlap",
        ),
        ([dict(SQUARE_RATES[0], wager_to_cents=2_000), *SQUARE_RATES[1:]], "rates[1].wager", "gap"),
        ([SQUARE_RATES[0], SQUARE_RATES[1]], "rates", "cover"),  # stops short of the maximum
        (
            [dict(SQUARE_RATES[0], wager_from_cents=100), *SQUARE_RATES[1:]],
            "rates[0].wager",
            "outside",
        ),
        (
            [*SQUARE_RATES[:2], dict(SQUARE_RATES[2], wager_to_cents=60_000)],
            "rates[2].wager",
            "outside",
        ),
        (
            [dict(SQUARE_RATES[0], player_fee_cents=-50), *SQUARE_RATES[1:]],
            "rates[0].player_fee_cents",
            "negative",
        ),
        (
            [dict(SQUARE_RATES[0], wager_to_cents=400), *SQUARE_RATES[1:]],
            "rates[0].wager",
            "ends before",
        ),
        ([], "rates", "at least one"),
    ],
)
def test_ranges_and_amounts_are_refused(rates, field, words):
    error = refused(rates)
    assert error.field == field and words in error.message


def test_a_key_that_is_not_part_of_a_rate_is_refused_not_ignored():
    # "player_dealer_fee" (no _cents) would otherwise file a player-dealer fee of nothing.
    misspelt = {k: v for k, v in SQUARE_RATES[0].items() if k != "player_dealer_fee_cents"}
    error = refused([dict(misspelt, player_dealer_fee=25), *SQUARE_RATES[1:]])
    assert error.field == "rates[0].player_dealer_fee" and error.rule == Rule.FEE_RATES
    assert "not part of a collection rate" in error.message


def test_an_action_range_without_its_start_is_refused():
    rates = [*ACTION_RATES, {"action_to_cents": 90_000}]  # its start forgotten, no fee
    error = refused(rates, "total_table_action")
    assert error.field == "rates[3].action_from_cents" and "starts" in error.message


def test_action_ranges_are_checked_too():
    gap = [ACTION_RATES[0], dict(ACTION_RATES[1], action_from_cents=10_500), ACTION_RATES[2]]
    assert "gap" in refused(gap, "total_table_action").message
    closed = [*ACTION_RATES[:2], dict(ACTION_RATES[2], action_to_cents=90_000)]
    assert "no upper end" in refused(closed, "total_table_action").message
    late = [dict(ACTION_RATES[0], action_from_cents=5_000), *ACTION_RATES[1:]]
    assert "start at or below" in refused(late, "total_table_action").message
    assert refused(ACTION_RATES, "per_betting_square").field == "rates[0].action_from_cents"


def test_basis_and_squares_are_checked():
    assert refused(SQUARE_RATES, "percentage_of_pot").field == "player_dealer_basis"
    assert refused(SQUARE_RATES, charged_squares=("play",)).field == "charged_squares"
    assert schedule(SQUARE_RATES).basis is Basis.PER_BETTING_SQUARE


def test_the_engine_imports_no_django():
    import subprocess
    import sys

    code = (
        "import sys, fees.rules.schedule, fees.rules.assessment; "
        "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
