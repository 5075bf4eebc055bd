"""A TPPP's registration on the player's page (docs/rules.md §8.7): shown to every floor
role, renewed or corrected by a supervisor, refusals on the form with the rule in words and
nothing changed, every change kept and listed."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse

from console.models import StaffAction
from tables.models import TPPPRegistration, TPPPRegistrationChange
from tables.services import floor
from tests.console.test_floor_words import internal_names, visible_text

pytestmark = pytest.mark.django_db

REGISTERED = {
    "business_name": "Quade Proposition Services",
    "badge_number": "B-5150",
    "badge_expires_on": date(2026, 11, 19),  # expired yesterday (the pinned clock: 2026-11-20)
}
TYPED = {
    "business_name": "Quade Proposition Services",
    "badge_number": "B-5150",
    "badge_expires_on": "2027-11-30",
}


def changes_listed(page: str) -> list[list[str]]:
    """The rows of the page's list of renewals and corrections, cell by cell."""
    table = page.split('id="tppp-changes"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], re.S)
    return [
        [cell.strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows
    ]


@pytest.fixture
def tppp(clock):
    return floor.create_player(player_number="TP-5150", name="Quinn Quade", tppp=REGISTERED)


def test_every_role_sees_the_registration_only_a_supervisor_changes_it(as_user, tppp):
    page_url = reverse("console:bankroll", args=[tppp.pk])
    url = reverse("console:player-tppp", args=[tppp.pk])
    for role in ("dealer", "compliance"):
        page = as_user(role).get(page_url).content.decode()
        assert "Quade Proposition Services" in page and "B-5150" in page
        assert "2026-11-19" in page and "expired" in page
        assert "Not seated at a table until the badge is renewed." in page
        assert "Renew the badge" not in page
        assert as_user(role).post(url, TYPED).status_code == 403
    assert TPPPRegistration.objects.get().badge_expires_on == date(2026, 11, 19)
    assert "Renew the badge" in as_user("supervisor").get(page_url).content.decode()


def test_a_supervisor_renews_the_badge(as_user, tppp, supervisor):
    client = as_user("supervisor")
    page_url = reverse("console:bankroll", args=[tppp.pk])
    # The form is filled in with what is recorded.
    page = client.get(page_url).content.decode()
    assert 'value="2026-11-19"' in page and 'value="B-5150"' in page
    assert '<details class="panel spaced" id="edit-tppp" open>' in page  # expired: open
    response = client.post(reverse("console:player-tppp", args=[tppp.pk]), TYPED)
    assert response.status_code == 302 and response.url == page_url
    assert TPPPRegistration.objects.get().badge_expires_on == date(2027, 11, 30)
    page = client.get(page_url).content.decode()
    assert (
        "Quinn Quade&#x27;s TPPP registration recorded: badge B-5150, valid through 2027-11-30"
        in page
    )
    assert "Not seated at a table" not in page
    assert '<details class="panel spaced" id="edit-tppp">' in page  # valid: folded
    # The change is listed: when, who, what it replaced and recorded.
    assert changes_listed(page) == [
        ["2026-11-20 10:00", "supervisor", "badge expires on", "2026-11-19", "2027-11-30"]
    ]
    (change,) = TPPPRegistrationChange.objects.all()
    assert change.changed_by == supervisor
    (action,) = StaffAction.objects.filter(action="renew or correct a TPPP registration")
    assert action.outcome == "done" and "2027-11-30" in action.detail


def test_a_supervisor_corrects_the_business_and_the_badge_number(as_user, tppp):
    client = as_user("supervisor")
    typed = {**TYPED, "business_name": "Quade Banking LLC", "badge_number": "B-7007"}
    assert client.post(reverse("console:player-tppp", args=[tppp.pk]), typed).status_code == 302
    row = TPPPRegistration.objects.get()
    assert (row.business_name, row.badge_number) == ("Quade Banking LLC", "B-7007")
    page = client.get(reverse("console:bankroll", args=[tppp.pk])).content.decode()
    assert changes_listed(page) == [
        ["2026-11-20 10:00", "supervisor", "business", "Quade Proposition Services",
         "Quade Banking LLC"],
        ["", "", "badge number", "B-5150", "B-7007"],
        ["", "", "badge expires on", "2026-11-19", "2027-11-30"],  # renewed on the same form
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        (
            {"business_name": ""},
            "TPPP business: a TPPP&#x27;s registration records the business&#x27;s name "
            "(rule: a registered TPPP, docs/rules.md §8.7)",
        ),
        (
            {"badge_number": "   "},
            "Badge number: a TPPP&#x27;s registration records the badge number "
            "(rule: a registered TPPP, docs/rules.md §8.7)",
        ),
        (
            {"badge_expires_on": ""},
            "Badge expires on: a TPPP&#x27;s registration records the date the badge expires "
            "(rule: a registered TPPP, docs/rules.md §8.7)",
        ),
        ({"badge_expires_on": "2027-02-30"}, "Badge expires on: Enter a valid date."),
    ],
)
def test_a_refusal_is_shown_on_the_form_and_changes_nothing(as_user, tppp, typed, shown):
    client = as_user("supervisor")
    response = client.post(reverse("console:player-tppp", args=[tppp.pk]), {**TYPED, **typed})
    assert response.status_code == 400
    body = response.content.decode()
    assert shown in body
    assert '<details class="panel spaced" id="edit-tppp" open>' in body
    row = TPPPRegistration.objects.get()
    assert (row.business_name, row.badge_number, row.badge_expires_on) == tuple(REGISTERED.values())
    assert not TPPPRegistrationChange.objects.exists()


def test_an_expiry_corrected_into_the_past_is_recorded_with_a_warning(as_user, tppp):
    client = as_user("supervisor")
    url = reverse("console:player-tppp", args=[tppp.pk])
    response = client.post(url, {**TYPED, "badge_expires_on": "2026-10-31"}, follow=True)
    assert response.status_code == 200
    assert (
        "badge B-5150 expired on 2026-10-31, so Quinn Quade is not seated until it is renewed"
        in response.content.decode()
    )
    assert TPPPRegistration.objects.get().badge_expires_on == date(2026, 10, 31)


def test_a_patron_has_no_registration_to_change(as_user, clock):
    patron = floor.create_player(player_number="PL-1", name="Pat Patron")
    client = as_user("supervisor")
    page = client.get(reverse("console:bankroll", args=[patron.pk])).content.decode()
    assert "TPPP registration" not in page and "Renew the badge" not in page
    response = client.post(reverse("console:player-tppp", args=[patron.pk]), TYPED)
    assert response.status_code == 400
    assert (
        "Pat Patron is not a TPPP player: there is no registration to change "
        "(rule: a registered TPPP, docs/rules.md §8.7)"
    ) in response.content.decode()
    assert not TPPPRegistration.objects.exists()


def test_the_registration_speaks_the_floors_words(as_user, tppp):
    """Its panel, its changes, its form and a refusal: no internal names (docs/console.md)."""
    client = as_user("supervisor")
    url = reverse("console:player-tppp", args=[tppp.pk])
    client.post(url, {**TYPED, "business_name": "Quade Banking LLC"})
    refused = client.post(url, {**TYPED, "badge_number": ""})
    assert refused.status_code == 400
    for html in (
        refused.content.decode(),
        client.get(reverse("console:bankroll", args=[tppp.pk])).content.decode(),
    ):
        assert internal_names(visible_text(html)) == []
        assert "renewals and corrections" in html
