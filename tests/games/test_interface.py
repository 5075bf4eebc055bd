"""The game interface (docs/architecture.md, "Adding a game"): every game listed for the floor
is registered in full, the calculator and the game math dispatch on ``options.game``, and a
game the room does not run is refused naming the field."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError
from games import catalog, registry
from tests.builders.baccarat import baccarat_request
from tests.builders.rules import appendix_request
from wagers.rules.calculator import settle_request as uth_settle_request


def test_every_listed_game_is_registered_and_uth_is_the_default():
    assert set(catalog.LISTINGS) == set(registry.GAMES) == {"ultimate_texas_holdem", "ez_baccarat"}
    assert catalog.DEFAULT_GAME == "ultimate_texas_holdem"
    assert registry.game(None).name == "Ultimate Texas Hold'em"
    assert registry.game("ez_baccarat").name == "EZ Baccarat"
    for game in registry.GAMES.values():
        assert game.listing is catalog.listing(game.key)
        assert game.listing.default_seats in game.listing.seat_counts
        assert [s.name for s in game.base_squares]  # every game has a base wager


@pytest.mark.parametrize(
    ("key", "seats", "squares", "steps", "cards"),
    [
        ("ultimate_texas_holdem", (6,), "ante blind play trips bad_beat", 3, "deck"),
        ("ez_baccarat", (6, 7, 8, 9), "player banker tie dragon_7 panda_8", 0, "shoe"),
    ],
)
def test_each_game_says_its_seats_squares_steps_and_cards(key, seats, squares, steps, cards):
    game = registry.game(key)
    assert game.listing.seat_counts == seats
    assert " ".join(square.name for square in game.squares) == squares
    assert len(game.steps) == steps
    assert game.cards == cards


def test_a_hand_naming_no_game_is_settled_as_ultimate_texas_holdem_exactly_as_before():
    request = appendix_request()
    assert registry.settle_request(request) == uth_settle_request(request)
    named = {**request, "options": {**request.get("options", {}), "game": "ultimate_texas_holdem"}}
    assert registry.settle_request(named) == uth_settle_request(request)


def test_a_baccarat_hand_is_settled_by_the_baccarat_calculator():
    request = baccarat_request(cards=["2h", "3c", "Kd", "2s", "9d"])
    answer = registry.settle_request(request)
    assert (answer["outcome"], answer["player"]["total"], answer["banker"]["total"]) == (
        "banker",
        1,
        5,
    )
    assert answer["player"]["cards"][:2] == ["2h", "Kd"]


@pytest.mark.parametrize("game", ["pai_gow_poker", 7, ""])
def test_a_game_the_room_does_not_run_is_refused_naming_options_game(game):
    request = baccarat_request()
    request["options"]["game"] = game
    if game == "":  # no game named: the default game's format, which refuses baccarat's fields
        with pytest.raises(RuleError):
            registry.settle_request(request)
        return
    with pytest.raises(RuleError) as refused:
        registry.settle_request(request)
    assert refused.value.field == "options.game"
    assert refused.value.rule == Rule.CALCULATOR_FORMAT


@pytest.mark.parametrize(
    ("decks", "expected"),
    [
        (8, {"banker": "1.0183%", "player": "1.2351%", "tie": "14.3596%"}),
        (6, {"banker": "1.0161%", "player": "1.2374%", "tie": "14.4382%"}),
    ],
)
def test_game_math_of_baccarat_to_four_decimals_of_a_percent(decks, expected):
    answer = registry.game_math({"game": "ez_baccarat", "decks": decks})
    assert list(answer) == ["player", "banker", "tie", "dragon_7", "panda_8"]
    for wager, percent in expected.items():
        assert answer[wager]["house_edge_percent"] == percent
        numerator, denominator = map(int, answer[wager]["house_edge_exact"].split("/"))
        assert answer[wager]["house_edge"].startswith(str(numerator / denominator)[:8])


def test_custom_pays_change_the_side_wagers_figures():
    default = registry.game_math({"game": "ez_baccarat"})
    custom = registry.game_math({"game": "ez_baccarat", "tie_pays": 9, "dragon_7_pays": 50})
    assert custom["tie"]["house_edge_percent"] == "4.8440%"
    assert custom["dragon_7"]["house_edge"] != default["dragon_7"]["house_edge"]
    assert custom["banker"] == default["banker"]


def test_the_table_sheet_of_baccarat_names_the_sheets_fields():
    listing = catalog.listing("ez_baccarat")
    with pytest.raises(RuleError) as refused:
        listing.sheet({"minimum_cents": 500, "maximum_cents": 100, "chip_unit_cents": 100})
    assert refused.value.field == "maximum_cents"
    assert listing.sheet({"seats": 7, "decks": 6}).decks == 6
