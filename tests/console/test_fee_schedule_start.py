"""Fee schedules in the console, first contact: a new version starts as a copy of the version in
force (console/views/fees.py, templates/console/_version_form.html); the dealer's table view
warns when the table charges no collection fee (templates/console/_no_fee_schedule.html)."""

from __future__ import annotations

from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from cardroom.clock import now
from cardroom.errors import State
from fees.models import FeeSchedule, FeeScheduleVersion
from fees.services import schedules
from tests.builders.fees import ACTION, STANDARD, table_schedule
from tests.builders.money import Wager, play_round

pytestmark = pytest.mark.django_db


class VersionFormFields(HTMLParser):
    """The fields a browser would send from the new-version form of one schedule."""

    def __init__(self, schedule_id: int):
        super().__init__()
        self.schedule_id = str(schedule_id)
        self.forms: list[list[tuple]] = []
        self.in_select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("action") == reverse("console:fees-create-version"):
            self.forms.append([])
        elif not self.forms:
            return
        elif tag == "input" and a.get("type") != "checkbox":
            self.forms[-1].append((a["name"], a.get("value", "")))
        elif tag == "input" and "checked" in a:
            self.forms[-1].append((a["name"], a["value"]))
        elif tag == "select":
            self.in_select = a["name"]
            self.forms[-1].append((self.in_select, None))
        elif tag == "option" and self.in_select:
            name, chosen = self.forms[-1][-1]
            if chosen is None or "selected" in a:
                self.forms[-1][-1] = (name, a["value"])

    def handle_endtag(self, tag):
        if tag == "select":
            self.in_select = None

    def fields(self) -> dict:
        (form,) = [f for f in self.forms if ("schedule_id", self.schedule_id) in f]
        data: dict = {}
        for name, value in form:
            data.setdefault(name, []).append(value)
        return data


def new_version_fields(client, schedule) -> dict:
    parser = VersionFormFields(schedule.pk)
    parser.feed(client.get(reverse("console:fees")).content.decode())
    return parser.fields()


def test_a_new_version_starts_as_a_copy_of_the_version_in_force(as_user, card_table, staff):
    table_schedule(
        card_table.table,
        by=staff.supervisor,
        rates=ACTION,
        basis="total_table_action",
        charged_squares=("ante", "blind"),
    )
    schedule = FeeSchedule.objects.get()
    client = as_user("supervisor")
    page = client.get(reverse("console:fees")).content.decode()
    assert "Starts as a copy of version 1" in page
    fields = new_version_fields(client, schedule)
    assert fields["player_dealer_basis"] == ["total_table_action"]
    assert sorted(fields["charged_squares"]) == ["ante", "blind"]
    for index, rate in enumerate(ACTION):
        for key, cents in rate.items():
            shown = fields[f"rate{index}_{key}"][0]
            assert shown == ("" if cents is None else f"{cents / 100:.2f}"), (index, key)
    assert fields["rate4_player_fee_cents"] == [""]
    assert fields["effective_at"] == [""] and fields["note"] == [""]

    # Filed as it stands but for one fee, the new version is the old one with that change.
    fields["rate0_player_fee_cents"] = ["0.75"]
    response = client.post(reverse("console:fees-create-version"), fields)
    assert response.status_code == 302
    old, new = FeeScheduleVersion.objects.order_by("number")
    assert new.number == 2 and new.player_dealer_basis == "total_table_action"
    assert list(new.charged_squares) == list(old.charged_squares)
    columns = ("wager_from_cents", "wager_to_cents", "player_dealer_fee_cents", "action_from_cents")
    assert [[getattr(r, c) for c in columns] for r in new.rates.order_by("position")] == [
        [getattr(r, c) for c in columns] for r in old.rates.order_by("position")
    ]
    assert new.rates.get(position=1).player_fee_cents == 75


def test_the_copy_is_of_the_version_in_force_not_one_scheduled_later(as_user, card_table, staff):
    version = table_schedule(card_table.table, by=staff.supervisor)
    later = [dict(r, player_fee_cents=r["player_fee_cents"] + 100) for r in STANDARD]
    schedules.create_version(
        schedule_id=version.schedule_id,
        rates=later,
        player_dealer_basis="per_betting_square",
        by=staff.supervisor,
        effective_at=now() + timedelta(days=1),
    )
    client = as_user("supervisor")
    assert "Starts as a copy of version 1" in client.get(reverse("console:fees")).content.decode()
    fields = new_version_fields(client, version.schedule)
    assert fields["rate0_player_fee_cents"] == ["0.50"]


def test_a_schedule_with_no_version_starts_blank(as_user, card_table, staff):
    schedule = schedules.create_schedule(
        name="empty", table_id=card_table.table.pk, by=staff.supervisor
    )
    client = as_user("supervisor")
    fields = new_version_fields(client, schedule)
    assert fields["rate0_player_fee_cents"] == [""]
    assert "Starts as a copy" not in client.get(reverse("console:fees")).content.decode()


# --- The dealer's warning ------------------------------------------------------------------


def table_page(client, table) -> str:
    return client.get(reverse("console:table", args=[table.pk])).content.decode()


@pytest.mark.parametrize("who", ["dealer", "supervisor"])
def test_a_table_with_no_schedule_in_force_warns_the_dealer(as_user, card_table, who):
    page = table_page(as_user(who), card_table.table)
    assert 'id="no-fee-schedule"' in page
    assert "No fee schedule in force at this table" in page and "$0.00" in page


def test_a_hand_started_without_a_schedule_warns_that_it_charges_nothing(as_user, card_table):
    play_round(card_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING)
    page = table_page(as_user("dealer"), card_table.table)
    assert "No collection fee on this hand" in page and "$0.00" in page


def test_a_table_with_a_schedule_has_no_warning(as_user, card_table, staff):
    table_schedule(card_table.table, by=staff.supervisor)
    client = as_user("dealer")
    assert 'id="no-fee-schedule"' not in table_page(client, card_table.table)
    play_round(card_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING)
    assert 'id="no-fee-schedule"' not in table_page(client, card_table.table)
