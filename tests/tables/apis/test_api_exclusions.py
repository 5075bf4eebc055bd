"""Barred and self-restricted patrons through the API (docs/rules.md §3.9): kept by floor
supervisors and compliance; a patron on the list is refused a seat, a waitlist, a buy-in and
the button, each naming the rule; the refused request is on the audit trail; lifted, the
patron plays again, and the list keeps its history."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.clock import today
from console.models import StaffAction
from tables.models import Exclusion, Seating
from tests.builders.floor import make_player
from wagers.services import chips

pytestmark = pytest.mark.django_db

RULE = "floor.excluded"


def refused_for_the_list(response, name: str, what: str) -> str:
    assert response.status_code == 400, response.data
    assert (response.data["rule"], response.data["field"]) == (RULE, "player"), response.data
    assert response.data["section"] == "3.9"
    message = response.data["message"]
    assert name in message and "barred" in message and what in message
    return message


def test_a_barred_patron_is_refused_a_seat_a_waitlist_and_a_buy_in(
    on_floor, as_dealer, as_supervisor, as_compliance
):
    table = on_floor.table()
    patron = make_player(name="Barry Barred")
    body = {"player": patron.pk, "kind": "barred", "reason": "cheating at table 4"}
    assert as_dealer.post("/api/exclusions/", body, format="json").status_code == 403
    entry = as_compliance.post("/api/exclusions/", body, format="json")
    assert entry.status_code == 201, entry.data
    assert entry.data["in_force"] is True and entry.data["ends_on"] is None
    assert entry.data["recorded_by"] == "compliance"

    seat = as_dealer.post(
        f"/api/tables/{table.pk}/seats/", {"seat": 2, "player": patron.pk}, format="json"
    )
    refused_for_the_list(seat, "Barry Barred", "refused a seat")
    assert not Seating.objects.filter(player=patron).exists()

    waitlist = as_supervisor.post(
        "/api/waitlists/", {"minimum_cents": 500, "maximum_cents": 50_000}, format="json"
    )
    assert waitlist.status_code == 201, waitlist.data
    joined = as_supervisor.post(
        f"/api/waitlists/{waitlist.data['id']}/players/", {"player": patron.pk}, format="json"
    )
    refused_for_the_list(joined, "Barry Barred", "refused a place on the waitlist")

    buy_in = as_dealer.post(
        f"/api/tables/{table.pk}/chips/buy-in/",
        {"player": patron.pk, "amount": 10_000, "currency": True},
        format="json",
    )
    refused_for_the_list(buy_in, "Barry Barred", "refused a buy-in")
    assert chips.chip_account(patron, table) is None

    trail = StaffAction.objects.filter(outcome="refused", message__contains="Barry Barred")
    assert trail.count() == 3

    lifted = as_supervisor.post(
        f"/api/exclusions/{entry.data['id']}/lift/", {"reason": "appeal granted"}, format="json"
    )
    assert lifted.status_code == 200 and lifted.data["in_force"] is False
    again = as_supervisor.post(
        f"/api/exclusions/{entry.data['id']}/lift/", {"reason": "twice"}, format="json"
    )
    assert again.status_code == 409
    seat = as_dealer.post(
        f"/api/tables/{table.pk}/seats/", {"seat": 2, "player": patron.pk}, format="json"
    )
    assert seat.status_code == 201, seat.data
    history = as_dealer.get(f"/api/exclusions/?player={patron.pk}")
    assert history.status_code == 200 and history.data["count"] == 1
    assert history.data["results"][0]["lift_reason"] == "appeal granted"


def test_a_barred_seated_patron_is_not_offered_the_button(on_floor, as_dealer, supervisor):
    from tables.services import exclusions

    table = on_floor.ready_table(seats=(1, 2, 3))
    patron = table.seatings.get(seat=1, left_at__isnull=True).player
    exclusions.exclude(player_id=patron.pk, kind="barred", reason="threats", by=supervisor)
    offer = as_dealer.post(f"/api/tables/{table.pk}/button/offer/", {}, format="json")
    message = refused_for_the_list(offer, patron.name, "refused the player-dealer button")
    assert "unseats" in message


def test_self_restriction_has_its_term(on_floor, as_supervisor, supervisor):
    patron = make_player()
    body = {"player": patron.pk, "kind": "self_restricted", "reason": "the Bureau's program"}
    no_term = as_supervisor.post("/api/exclusions/", body, format="json")
    assert no_term.status_code == 400 and no_term.data["field"] == "ends_on"
    later = today() + timedelta(days=3)
    body |= {"starts_on": later.isoformat(), "ends_on": (later + timedelta(days=365)).isoformat()}
    made = as_supervisor.post("/api/exclusions/", body, format="json")
    assert made.status_code == 201 and made.data["in_force"] is False  # not yet
    table = on_floor.table()
    seated = as_supervisor.post(
        f"/api/tables/{table.pk}/seats/", {"seat": 1, "player": patron.pk}, format="json"
    )
    assert seated.status_code == 201  # the term starts in three days
    assert Exclusion.objects.get(player=patron).in_force_on(later)
