"""A table of a game (docs/rules.md §3.4, §14.1, §14.6): chosen when the table opens, its seats
per table, its own options on the sheet, every change logged; Ultimate Texas Hold'em tables
are what they always were."""

from __future__ import annotations

import json

import pytest

from cardroom.errors import Rule, RuleError
from tables import options as table_options
from tables.models import TableOptionChange
from tables.services import floor
from tests.builders.floor import make_player, open_floor, unique

pytestmark = pytest.mark.django_db


def test_a_table_is_ultimate_texas_holdem_unless_told_and_its_sheet_is_unchanged(staff):
    table = floor.create_table(name=unique("UTH"), by=staff.supervisor)
    assert (table.game, table.seat_count, table.game_options) == ("ultimate_texas_holdem", 6, {})
    sheet = table_options.snapshot(table)
    assert "game" not in sheet and "seats" not in sheet
    assert list(sheet) == list(table_options.EDITABLE_OPTIONS)


def test_a_baccarat_table_has_its_seats_and_options(staff):
    table = floor.create_table(
        name=unique("BAC"),
        by=staff.supervisor,
        game="ez_baccarat",
        options={
            "seats": 7,
            "decks": 6,
            "tie_pays": 9,
            "minimum_cents": 2000,
            "maximum_cents": 200000,
        },
    )
    table.refresh_from_db()
    assert (table.game, table.seat_count) == ("ez_baccarat", 7)
    assert table.game_listing.name == "EZ Baccarat"
    sheet = table_options.snapshot(table)
    assert sheet["game"] == "ez_baccarat"
    assert {k: sheet[k] for k in ("seats", "decks", "tie_pays", "dragon_7_pays", "cut_card")} == {
        "seats": 7,
        "decks": 6,
        "tie_pays": 9,
        "dragon_7_pays": 40,
        "cut_card": 14,
    }
    assert "trips_paytable" not in sheet
    rules = table_options.rules_options(sheet)
    assert (rules.decks, rules.seats, rules.table_minimum) == (6, 7, 2000)
    json.dumps(sheet)  # frozen into a round as JSON


@pytest.mark.parametrize(
    ("game", "options", "field"),
    [
        ("ez_baccarat", {"seats": 10}, "seats"),
        ("ez_baccarat", {"seats": 5}, "seats"),
        ("ez_baccarat", {"decks": 7}, "decks"),
        ("ez_baccarat", {"trips_paytable": "UTH-02"}, "trips_paytable"),
        ("ultimate_texas_holdem", {"seats": 6}, "seats"),
        ("ultimate_texas_holdem", {"decks": 8}, "decks"),
        ("pai_gow_poker", {}, "game"),
    ],
)
def test_an_option_not_of_the_game_or_out_of_range_is_refused(staff, game, options, field):
    with pytest.raises(RuleError) as refused:
        floor.create_table(name=unique("T"), by=staff.supervisor, game=game, options=options)
    assert refused.value.field == field
    assert refused.value.rule in (Rule.OPTIONS, Rule.BACCARAT_OPTIONS)


def test_seats_seven_to_nine_exist_at_a_nine_seat_table_only(staff):
    bac = open_floor("P.......P", staff=staff, game="ez_baccarat", open_game=False)
    assert bac.table.seat_count == 9 and set(bac.players) == {1, 9}
    uth = open_floor("P.....", staff=staff, open_game=False)
    with pytest.raises(RuleError) as refused:
        floor.seat_player(
            table_id=uth.table.pk, seat=7, player_id=make_player().pk, by=staff.supervisor
        )
    assert refused.value.field == "seat"


def test_seats_change_between_rounds_logged_but_never_under_a_seated_player(staff):
    bac = open_floor("P.......P", staff=staff, game="ez_baccarat", open_game=False)
    with pytest.raises(RuleError) as refused:
        floor.change_table_options(table_id=bac.table.pk, by=staff.supervisor, changes={"seats": 8})
    assert refused.value.field == "seats"
    floor.change_table_options(
        table_id=bac.table.pk, by=staff.supervisor, changes={"panda_8_pays": 30}
    )
    change = TableOptionChange.objects.get(table=bac.table)
    assert (change.option, change.old_value, change.new_value) == ("panda_8_pays", 25, 30)
    bac.table.refresh_from_db()
    assert bac.table.game_options["panda_8_pays"] == 30


def test_the_api_creates_a_baccarat_table_and_shows_its_game(as_supervisor):
    response = as_supervisor.post(
        "/api/tables/",
        {"name": unique("BAC"), "game": "ez_baccarat", "seats": 8, "dragon_7_pays": 50},
        format="json",
    )
    assert response.status_code == 201, response.json()
    listed = as_supervisor.get(f"/api/tables/{response.json()['id']}/").json()
    assert (listed["game_played"], listed["game_name"], listed["seats"]) == (
        "ez_baccarat",
        "EZ Baccarat",
        8,
    )
    assert listed["game_options"]["dragon_7_pays"] == 50
    math = as_supervisor.get(f"/api/tables/{listed['id']}/game-math/").json()
    assert math["banker"]["house_edge_percent"] == "1.0183%"


def test_the_api_game_math_and_calculator_take_a_baccarat_options_object(as_supervisor):
    math = as_supervisor.post("/api/game-math/", {"game": "ez_baccarat", "decks": 6}, format="json")
    assert math.status_code == 200
    assert math.json()["player"]["house_edge_percent"] == "1.2374%"
    refused = as_supervisor.post(
        "/api/game-math/", {"game": "ez_baccarat", "decks": 7}, format="json"
    )
    assert refused.status_code == 400
    assert (refused.json()["field"], refused.json()["rule"]) == ("decks", "baccarat.options")
