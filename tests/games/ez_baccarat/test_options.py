"""The options sheet of an EZ Baccarat table (docs/rules.md §14.1): defaults, ranges, refusals
naming the rule and the option, the JSON form."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError
from games.ez_baccarat.options import GAME, OPTION_LABELS, BaccaratOptions

DEFAULTS = {
    "game": "ez_baccarat",
    "decks": 8,
    "seats": 9,
    "tie_pays": 8,
    "dragon_7_pays": 40,
    "panda_8_pays": 25,
    "cut_card": 14,
    "chip_unit_cents": 1,
    "table_minimum_cents": None,
    "table_maximum_cents": None,
    "side_wager_maximum_cents": None,
}


def test_every_option_has_its_default():
    assert BaccaratOptions().to_json() == DEFAULTS
    assert BaccaratOptions.from_json(None) == BaccaratOptions.from_json({}) == BaccaratOptions()
    assert BaccaratOptions.from_json({"game": GAME}) == BaccaratOptions()


def test_the_json_form_reads_back():
    options = BaccaratOptions(
        decks=6, seats=7, tie_pays=9, dragon_7_pays=30, panda_8_pays=20, cut_card=16,
        chip_unit=100, table_minimum=500, table_maximum=50_000, side_wager_maximum=10_000,
    )  # fmt: skip
    assert BaccaratOptions.from_json(options.to_json()) == options
    assert options.to_json()["side_wager_maximum_cents"] == 10_000


def test_every_option_is_named_in_the_floors_words():
    assert list(OPTION_LABELS) == [name for name in DEFAULTS if name != "game"]
    assert OPTION_LABELS["cut_card"].label == "Cut card"
    assert OPTION_LABELS["tie_pays"].phrase == "the Tie's pay"


ACCEPTED = [("decks", 6), ("seats", 6), ("seats", 7), ("seats", 8), ("tie_pays", 9),
            ("dragon_7_pays", 1), ("dragon_7_pays", 100_000), ("panda_8_pays", 50),
            ("cut_card", 6), ("cut_card", 104), ("chip_unit_cents", 500),
            ("table_minimum_cents", 1), ("side_wager_maximum_cents", 1)]  # fmt: skip


@pytest.mark.parametrize(("name", "value"), ACCEPTED, ids=[f"{n}-{v}" for n, v in ACCEPTED])
def test_values_in_range_are_accepted(name, value):
    assert BaccaratOptions.from_json({name: value}).to_json()[name] == value


REFUSED = [
    ("decks-7", {"decks": 7}, "decks", "must be 6 or 8, not 7"),
    ("decks-1", {"decks": 1}, "decks", "6 or 8"),
    ("decks-string", {"decks": "8"}, "decks", "6 or 8"),
    ("decks-float", {"decks": 8.0}, "decks", "6 or 8"),
    ("decks-true", {"decks": True}, "decks", "6 or 8"),
    ("seats-5", {"seats": 5}, "seats", "must be 6 to 9, not 5"),
    ("seats-10", {"seats": 10}, "seats", "6 to 9"),
    ("tie-10", {"tie_pays": 10}, "tie_pays", "the Tie's pay must be 8 or 9 to 1, not 10"),
    ("tie-null", {"tie_pays": None}, "tie_pays", "8 or 9"),
    ("dragon-0", {"dragon_7_pays": 0}, "dragon_7_pays", "from 1 to 100,000 to 1"),
    ("dragon-fraction", {"dragon_7_pays": 40.5}, "dragon_7_pays", "whole number"),
    ("panda-too-high", {"panda_8_pays": 100_001}, "panda_8_pays", "100,000"),
    ("panda-negative", {"panda_8_pays": -25}, "panda_8_pays", "from 1"),
    ("cut-card-5", {"cut_card": 5}, "cut_card", "from 6 to 104 cards"),
    ("cut-card-105", {"cut_card": 105}, "cut_card", "from 6 to 104"),
    ("chip-0", {"chip_unit_cents": 0}, "chip_unit_cents", "at least $0.01"),
    ("chip-float", {"chip_unit_cents": 1.0}, "chip_unit_cents", "whole number of cents"),
    ("minimum-0", {"table_minimum_cents": 0}, "table_minimum_cents", "at least $0.01"),
    ("minimum-not-whole-chips", {"chip_unit_cents": 100, "table_minimum_cents": 550},
     "table_minimum_cents", "the table minimum of $5.50 is not in whole chips of $1.00"),
    ("maximum-below-minimum", {"table_minimum_cents": 500, "table_maximum_cents": 100},
     "table_maximum_cents", "the table minimum of $5.00 is above the table maximum of $1.00"),
    ("side-maximum-string", {"side_wager_maximum_cents": "100"}, "side_wager_maximum_cents",
     "whole number of cents"),
    ("side-maximum-not-whole-chips", {"chip_unit_cents": 25, "side_wager_maximum_cents": 110},
     "side_wager_maximum_cents", "not in whole chips of $0.25"),
    ("side-maximum-below-minimum", {"table_minimum_cents": 500, "side_wager_maximum_cents": 100},
     "side_wager_maximum_cents", "below the table minimum of $5.00"),
    ("side-maximum-above-maximum", {"table_maximum_cents": 500,
     "side_wager_maximum_cents": 1000}, "side_wager_maximum_cents",
     "above the table maximum of $5.00"),
    ("unknown-option", {"trips_paytable": "UTH-01"}, "trips_paytable", "unknown option"),
    ("another-game", {"game": "uth"}, "game", "not 'uth'"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "field", "words"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_a_value_out_of_range_is_refused_naming_the_option(data, field, words):
    with pytest.raises(RuleError) as caught:
        BaccaratOptions.from_json(data)
    assert (caught.value.rule, caught.value.field) == (Rule.BACCARAT_OPTIONS, field)
    assert words in caught.value.message
    assert "rule: the options sheet of an EZ Baccarat table, docs/rules.md §14.1" in str(
        caught.value
    )


@pytest.mark.parametrize("data", [[], "options", 8], ids=["list", "string", "number"])
def test_the_sheet_is_a_json_object(data):
    with pytest.raises(RuleError) as caught:
        BaccaratOptions.from_json(data)
    assert caught.value.rule is Rule.BACCARAT_OPTIONS


def test_a_sheet_made_in_python_is_checked_too():
    with pytest.raises(RuleError) as caught:
        BaccaratOptions(seats=12)
    assert caught.value.field == "seats"
