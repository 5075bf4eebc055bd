"""Pay tables as data, exact odds and payouts rounded down to the chip (docs/rules.md §6.2-§6.3)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

from cardroom.errors import Rule, RuleError
from tables.rules.hands import Category
from tables.rules.paytables import (
    BAD_BEAT_CATEGORIES,
    BAD_BEAT_PAYTABLES,
    BLIND,
    TRIPS_CATEGORIES,
    TRIPS_PAYTABLES,
    Payout,
    custom_paytable,
    parse_odds,
    payout,
    resolve_paytable,
)
from tests.builders.rules import lowest_paying, paytable_as_dict
from tests.helpers import BASE_DIR

C = Category
ORDER7 = ("RF", "SF", "4K", "FH", "FL", "ST", "3K")
BY_ABBREVIATION = {
    "RF": C.ROYAL_FLUSH,
    "SF": C.STRAIGHT_FLUSH,
    "4K": C.FOUR_OF_A_KIND,
    "FH": C.FULL_HOUSE,
    "FL": C.FLUSH,
    "ST": C.STRAIGHT,
    "3K": C.THREE_OF_A_KIND,
    "2P": C.TWO_PAIR,
    "1P": C.ONE_PAIR,
    "HC": C.HIGH_CARD,
}

# docs/rules.md §6.2, transcribed: (table, category, odds to 1 or None for "does not pay").
BLIND_ROWS = [
    ("RF", Fraction(500)),
    ("SF", Fraction(50)),
    ("4K", Fraction(10)),
    ("FH", Fraction(3)),
    ("FL", Fraction(3, 2)),
    ("ST", Fraction(1)),
    ("3K", None),
    ("2P", None),
    ("1P", None),
    ("HC", None),
]

TRIPS_ODDS = {
    "UTH-01": (50, 40, 30, 9, 7, 4, 3),
    "UTH-02": (50, 40, 30, 8, 6, 5, 3),
    "UTH-03": (50, 40, 30, 8, 7, 4, 3),
    "UTH-04": (50, 40, 20, 7, 6, 5, 3),
}
TRIPS_ROWS = [
    (name, abbreviation, Fraction(odds[i]))
    for name, odds in TRIPS_ODDS.items()
    for i, abbreviation in enumerate(ORDER7)
] + [(name, abbreviation, None) for name in TRIPS_ODDS for abbreviation in ("2P", "1P", "HC")]

BAD_BEAT_ODDS = {
    "option-1": {"SF": 10_000, "4K": 500, "FH": 40, "FL": 25, "ST": 20, "3K": 9},
    "option-2": {"SF": 7_500, "4K": 500, "FH": 50, "FL": 30, "ST": 20, "3K": 9},
}
BAD_BEAT_ROWS = [
    (name, abbreviation, Fraction(odds))
    for name, table in BAD_BEAT_ODDS.items()
    for abbreviation, odds in table.items()
] + [(name, abbreviation, None) for name in BAD_BEAT_ODDS for abbreviation in ("2P", "1P", "HC")]


@pytest.mark.parametrize(("abbreviation", "odds"), BLIND_ROWS, ids=[row[0] for row in BLIND_ROWS])
def test_blind_paytable(abbreviation, odds):
    assert BLIND.odds_for(BY_ABBREVIATION[abbreviation]) == odds


@pytest.mark.parametrize(
    ("name", "abbreviation", "odds"), TRIPS_ROWS, ids=[f"{r[0]}-{r[1]}" for r in TRIPS_ROWS]
)
def test_trips_paytables(name, abbreviation, odds):
    assert TRIPS_PAYTABLES[name].odds_for(BY_ABBREVIATION[abbreviation]) == odds


@pytest.mark.parametrize(
    ("name", "abbreviation", "odds"), BAD_BEAT_ROWS, ids=[f"{r[0]}-{r[1]}" for r in BAD_BEAT_ROWS]
)
def test_bad_beat_paytables(name, abbreviation, odds):
    assert BAD_BEAT_PAYTABLES[name].odds_for(BY_ABBREVIATION[abbreviation]) == odds


def test_the_named_tables_are_exactly_those_of_the_rulebook():
    assert set(TRIPS_PAYTABLES) == set(TRIPS_ODDS)
    assert set(BAD_BEAT_PAYTABLES) == set(BAD_BEAT_ODDS)
    assert lowest_paying(BLIND) is C.STRAIGHT
    for table in TRIPS_PAYTABLES.values():
        assert lowest_paying(table) is C.THREE_OF_A_KIND
    for table in BAD_BEAT_PAYTABLES.values():
        assert lowest_paying(table) is C.THREE_OF_A_KIND


def test_odds_are_exact_fractions_never_floats():
    for table in (BLIND, *TRIPS_PAYTABLES.values(), *BAD_BEAT_PAYTABLES.values()):
        for _, odds in table.odds:
            assert type(odds) is Fraction


def test_paytable_json_form():
    assert paytable_as_dict(BLIND) == {
        "royal_flush": "500",
        "straight_flush": "50",
        "four_of_a_kind": "10",
        "full_house": "3",
        "flush": "1.5",
        "straight": "1",
    }


# --- the `003` custom Trips table ---------------------------------------------------------

CUSTOM_003 = {
    "royal_flush": 100,
    "straight_flush": 40,
    "four_of_a_kind": 20,
    "full_house": 7,
    "flush": 6,
    "straight": 5,
    "three_of_a_kind": 3,
}


@pytest.mark.parametrize(
    ("abbreviation", "odds"),
    [*zip(ORDER7, (100, 40, 20, 7, 6, 5, 3), strict=True), ("2P", None), ("HC", None)],
    ids=[*ORDER7, "2P", "HC"],
)
def test_custom_003_trips_table(abbreviation, odds):
    table = custom_paytable("003", CUSTOM_003, TRIPS_CATEGORIES)
    resolved = resolve_paytable(CUSTOM_003, TRIPS_PAYTABLES, TRIPS_CATEGORIES)
    expected = None if odds is None else Fraction(odds)
    assert table.odds_for(BY_ABBREVIATION[abbreviation]) == expected
    assert resolved.odds_for(BY_ABBREVIATION[abbreviation]) == expected


def test_custom_table_with_a_fractional_odds_string():
    odds = {**CUSTOM_003, "flush": "1.5", "straight": "0.25"}
    table = custom_paytable("custom", odds, TRIPS_CATEGORIES)
    assert table.odds_for(C.FLUSH) == Fraction(3, 2)
    assert table.odds_for(C.STRAIGHT) == Fraction(1, 4)
    assert paytable_as_dict(table)["flush"] == "1.5"
    assert paytable_as_dict(table)["straight"] == "0.25"


def test_custom_bad_beat_table():
    odds = {"straight_flush": 5000, "four_of_a_kind": 400, "full_house": 30, "flush": "20",
            "straight": 15, "three_of_a_kind": 8}  # fmt: skip
    table = resolve_paytable(odds, BAD_BEAT_PAYTABLES, BAD_BEAT_CATEGORIES)
    assert table.odds_for(C.STRAIGHT_FLUSH) == 5000
    assert table.odds_for(C.ROYAL_FLUSH) is None


@pytest.mark.parametrize("name", sorted(TRIPS_ODDS))
def test_resolve_paytable_by_name(name):
    assert resolve_paytable(name, TRIPS_PAYTABLES, TRIPS_CATEGORIES) is TRIPS_PAYTABLES[name]


@pytest.mark.parametrize("name", ["UTH-05", "uth-01", "option-1", "", "blind"])
def test_unknown_paytable_name_is_refused(name):
    with pytest.raises(RuleError, match="unknown pay table") as caught:
        resolve_paytable(name, TRIPS_PAYTABLES, TRIPS_CATEGORIES)
    assert caught.value.rule == Rule.PAYTABLES


@pytest.mark.parametrize(
    "missing", list(CUSTOM_003), ids=[f"without-{label}" for label in CUSTOM_003]
)
def test_custom_table_missing_a_category_is_refused(missing):
    odds = {label: value for label, value in CUSTOM_003.items() if label != missing}
    with pytest.raises(RuleError, match=f"lacks odds for {missing}") as caught:
        custom_paytable("custom", odds, TRIPS_CATEGORIES)
    assert caught.value.rule == Rule.PAYTABLES


@pytest.mark.parametrize(
    ("extra", "categories"),
    [("two_pair", TRIPS_CATEGORIES), ("royal_flush", BAD_BEAT_CATEGORIES)],
    ids=["trips-two-pair", "bad-beat-royal"],
)
def test_custom_table_with_a_category_that_does_not_belong_is_refused(extra, categories):
    odds = {category.label: 5 for category in categories}
    odds[extra] = 5
    with pytest.raises(RuleError, match="does not belong") as caught:
        custom_paytable("custom", odds, categories)
    assert caught.value.field == extra


def test_custom_table_with_an_unknown_label_is_refused():
    with pytest.raises(RuleError, match="unknown hand category"):
        custom_paytable("custom", {**CUSTOM_003, "trips": 3}, TRIPS_CATEGORIES)


@pytest.mark.parametrize("odds", [[100, 40], "UTH-01", 5, None], ids=["list", "str", "int", "none"])
def test_custom_table_must_be_a_mapping(odds):
    with pytest.raises(RuleError, match="a name or an object of odds"):
        custom_paytable("custom", odds, TRIPS_CATEGORIES)


# --- odds parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [(1, Fraction(1)), (500, Fraction(500)), ("1.5", Fraction(3, 2)), ("7", Fraction(7)),
     ("0.25", Fraction(1, 4)), ("10000", Fraction(10_000))],
    ids=["int-1", "int-500", "str-1.5", "str-7", "str-0.25", "str-10000"],
)  # fmt: skip
def test_parse_odds(given, expected):
    odds = parse_odds(given)
    assert odds == expected
    assert type(odds) is Fraction


BAD_ODDS = {
    "float-1.5": (1.5, "must be an integer or an exact decimal"),
    "float-3.0": (3.0, "must be an integer or an exact decimal"),
    "bool": (True, "must be an integer or an exact decimal"),
    "none": (None, "must be an integer or an exact decimal"),
    "list": ([3, 2], "must be an integer or an exact decimal"),
    "zero": (0, "must be positive"),
    "negative": (-3, "must be positive"),
    "negative-str": ("-1.5", "must be positive"),
    "zero-str": ("0.0", "must be positive"),
    "words": ("three", "is not a number"),
    "fraction-str": ("3/2", "is not a number"),
    "empty": ("", "is not a number"),
    "nan": ("NaN", "is not a number"),
    "infinity": ("Infinity", "is not a number"),
    "minus-infinity": ("-Infinity", "is not a number"),
}


@pytest.mark.parametrize(("given", "message"), list(BAD_ODDS.values()), ids=list(BAD_ODDS))
def test_bad_odds_are_refused(given, message):
    with pytest.raises(RuleError, match=message) as caught:
        parse_odds(given)
    assert caught.value.rule == Rule.PAYTABLES


@pytest.mark.parametrize(
    "bad", [1.5, 0, -2, "x", "Infinity"], ids=["float", "zero", "neg", "x", "inf"]
)
def test_bad_odds_in_a_custom_table_name_the_category(bad):
    with pytest.raises(RuleError) as caught:
        custom_paytable("custom", {**CUSTOM_003, "flush": bad}, TRIPS_CATEGORIES)
    assert caught.value.field == "flush"


@pytest.mark.parametrize("text", ["1e99999999"], ids=["ten-characters"])
def test_absurd_exponents_are_refused_quickly(text):
    """A ten-character odds string must not make the calculator (or the API) build a
    hundred-million-digit integer: it is refused within seconds."""
    code = (
        "from tables.rules.paytables import parse_odds\n"
        "from cardroom.errors import RuleError\n"
        f"try:\n    parse_odds({text!r})\nexcept RuleError:\n    print('refused')\n"
    )
    try:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"parse_odds({text!r}) ran for more than 10 seconds")
    assert result.stdout.strip() == "refused", result.stderr


# --- payouts and rounding -------------------------------------------------------------------

PAYOUTS = [
    # (id, stake, odds, chip unit, amount, rounded off)
    ("3:2-even-stake", 2500, Fraction(3, 2), 1, 3750, Fraction(0)),
    ("3:2-odd-stake-cent-chip", 2501, Fraction(3, 2), 1, 3751, Fraction(1, 2)),
    ("3:2-odd-stake-25-chip", 2525, Fraction(3, 2), 25, 3775, Fraction(25, 2)),
    ("3:2-25-on-25-chip", 25, Fraction(3, 2), 25, 25, Fraction(25, 2)),
    ("3:2-100-chip", 500, Fraction(3, 2), 100, 700, Fraction(50)),
    ("3:2-100-chip-odd-hundreds", 300, Fraction(3, 2), 100, 400, Fraction(50)),
    ("3:2-exact-on-100-chip", 200, Fraction(3, 2), 100, 300, Fraction(0)),
    ("1:1", 1234, Fraction(1), 1, 1234, Fraction(0)),
    ("500:1", 100, Fraction(500), 100, 50_000, Fraction(0)),
    ("10000:1", 500, Fraction(10_000), 25, 5_000_000, Fraction(0)),
    ("quarter-odds-25-chip", 150, Fraction(1, 4), 25, 25, Fraction(25, 2)),
    ("below-one-chip-is-zero", 50, Fraction(1, 4), 25, 0, Fraction(25, 2)),
]


@pytest.mark.parametrize(
    ("stake", "odds", "chip", "amount", "rounded"),
    [case[1:] for case in PAYOUTS],
    ids=[case[0] for case in PAYOUTS],
)
def test_payout_rounds_down_to_the_chip_and_records_the_rest(stake, odds, chip, amount, rounded):
    result = payout(stake, odds, chip)
    assert result == Payout(amount, rounded)
    assert type(result.amount) is int
    assert result.amount % chip == 0
    assert 0 <= result.rounded_off < chip
    assert result.amount + result.rounded_off == stake * odds
