"""Game math over the API (docs/rules.md §13): a table's options in force, or an options
object in the calculator's format; the calculator's errors; nothing stored."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tables.models import Round
from tests.builders.factories import UserFactory
from tests.helpers import BASE_DIR
from wagers.rules.calculator import parse_options
from wagers.rules.gamemath import game_math, game_math_json

pytestmark = pytest.mark.django_db
PATH = "/api/game-math/"
CUSTOM_TRIPS = {
    "royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
    "flush": 6, "straight": 5, "three_of_a_kind": 3,
}  # fmt: skip


def test_a_tables_figures_follow_its_options_sheet(as_supervisor, on_floor):
    table = on_floor.table(trips_paytable="UTH-04", bad_beat_paytable=None, preflop_multiples=[4])
    response = as_supervisor.get(f"/api/tables/{table.pk}/game-math/")
    assert response.status_code == 200
    expected = game_math_json(
        game_math(
            parse_options(
                {
                    "trips_paytable": "UTH-04",
                    "bad_beat_paytable": None,
                    "allowed_preflop_multiples": [4],
                }
            )
        )
    )
    assert response.json() == expected
    assert response.json()["bad_beat"] is None
    assert as_supervisor.get("/api/tables/999999/game-math/").status_code == 404


def test_the_post_answers_what_the_command_prints(as_dealer):
    body = {"trips_paytable": CUSTOM_TRIPS, "bad_beat_paytable": "option-2"}
    response = as_dealer.post(PATH, body, format="json")
    assert response.status_code == 200
    command = subprocess.run(
        [sys.executable, "manage.py", "game_math", "--options", "-"],
        input=json.dumps(body),
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert response.json() == json.loads(command.stdout)
    assert set(response.json()) == {"trips", "bad_beat", "base_game"}
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"trips_paytable": "UTH-9"}, "trips_paytable", "paytables.table"),
        (
            {"trips_paytable": {**CUSTOM_TRIPS, "royal_flush": "Infinity"}},
            "trips_paytable.royal_flush",
            "paytables.table",
        ),
        (
            {"allowed_preflop_multiples": [2]},
            "allowed_preflop_multiples",
            "decisions.preflop_multiples",
        ),
        ({"bad_beat": "option-1"}, "bad_beat", "calculator.format"),
    ],
)
def test_bad_options_get_the_calculators_errors(as_dealer, body, field, rule):
    response = as_dealer.post(PATH, body, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert (response.data["field"], response.data["rule"]) == (field, rule)
    assert response.data["message"]


def test_every_floor_role_may_read_it_and_no_one_else(api, as_supervisor, as_compliance):
    for client in (as_supervisor, as_compliance):
        assert client.post(PATH, {}, format="json").status_code == 200
    assert api().post(PATH, {}, format="json").status_code == 401
    assert api(UserFactory(username="no-role")).post(PATH, {}, format="json").status_code == 403
