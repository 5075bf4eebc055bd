"""The bankroll API's theo beside actual (docs/rules.md §13.5), on the scripted history of
``tests.builders.theo.theo_history`` (results known from the cards; theo, the spread and so
every expected figure derived from the game-math core): exact figures, status codes.
"""

from __future__ import annotations

import pytest

from cardroom.errors import State
from tests.builders.theo import expected_figures, theo_history
from wagers.models import RoundTheo

pytestmark = pytest.mark.django_db

NO_THEO = {
    "hands": 0,
    "theo": "0.0000",
    "actual": 0,
    "difference": "0.0000",
    "std_dev": "0.0000",
    "std_devs": None,
}


@pytest.fixture
def history(staff, clock):
    return theo_history(staff, clock)


def test_the_bankroll_carries_theo_actual_difference_and_standard_deviations(
    as_compliance, history
):
    mt, banked, others = history
    assert RoundTheo.objects.count() == len(banked) + len(others)  # the voided one's too
    figures = expected_figures(banked)
    assert figures.actual == 6_500 + 1_000 + 9_000  # the cards say so
    response = as_compliance.get(f"/api/players/{mt.seated[1].pk}/bankroll/")
    assert response.status_code == 200
    assert response.data["theo"] == figures.api()
    assert response.data["banking"]["hands_banked"] == 3
    assert response.data["banking"]["total_result"] == figures.actual
    # The player-dealer won far more than theo: the difference is positive.
    assert figures.difference > 0 and figures.std_devs > 0


def test_a_player_who_never_banked_has_no_theo_and_the_figures_are_per_player(as_dealer, history):
    mt, _, others = history
    patron = as_dealer.get(f"/api/players/{mt.seated[2].pk}/bankroll/")
    assert (patron.status_code, patron.data["theo"]) == (200, NO_THEO)
    seat_3 = as_dealer.get(f"/api/players/{mt.seated[3].pk}/bankroll/")
    settled = [r for r in others if r.state == State.SETTLED]
    assert len(settled) == 2
    assert seat_3.data["theo"] == expected_figures(settled).api()  # not the hand in play


def test_status_codes(api, as_compliance, history):
    mt, _, _ = history
    assert as_compliance.get("/api/players/999999/bankroll/").status_code == 404
    anonymous = api().get(f"/api/players/{mt.seated[1].pk}/bankroll/")
    assert anonymous.status_code == 401
