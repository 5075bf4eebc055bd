"""TPPP contracts in the console (docs/rules.md §8.7): every floor role reads the list (the
player, the tables, the hours, the dates, the Bureau's approval, "renew by" within the
renewal notice); a floor supervisor or a compliance officer records one through the
service the API calls, a refusal on the field it names in the floor's words, nothing
written; the page costs the same statements however many contracts."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from console.models import StaffAction
from console.views import contracts as views
from tables.models import TPPPContract
from tables.services import floor
from tables.services.contracts import record_contract
from tests.builders.factories import TableFactory
from tests.builders.floor import make_player
from tests.console.test_floor_words import internal_names, visible_text

pytestmark = pytest.mark.django_db

URL = reverse("console:tppp-contracts")
NEW = reverse("console:tppp-contracts-create")
CITATION = "(rule: a TPPP plays within its contract, docs/rules.md §8.7)"


@pytest.fixture
def tppp(clock):
    return make_player(tppp=True, name="Quinn Quade")  # with a contract for any day


def _without_contract(number: str):
    """A registered TPPP with no contract yet."""
    registration = {
        "business_name": f"{number} Services LLC",
        "badge_number": f"B-{number}",
        "badge_expires_on": date(2027, 12, 31),
    }
    return floor.create_player(player_number=number, name=number, tppp=registration)


def _typed(tppp, **changes) -> dict:
    return {
        "player_number": tppp.player_number,
        "starts_on": "2026-12-01",
        "ends_on": "2027-11-30",
        "opens_at": "18:00",
        "closes_at": "02:00",
        "approved_on": "2026-11-15",
        "approval_number": "GEGC-2026-0042",
        **changes,
    }


def test_a_supervisor_records_a_contract_and_it_is_listed(as_user, tppp, clock):
    tables = [TableFactory(name="Main 7"), TableFactory(name="Main 8")]
    client = as_user("supervisor")
    done = client.post(NEW, {**_typed(tppp), "tables": [t.pk for t in tables]}, follow=True)
    assert done.redirect_chain == [(URL, 302)]
    contract = TPPPContract.objects.exclude(approval_number__startswith="GEGC-PL").get()
    assert (contract.starts_on, contract.ends_on, contract.hours) == (
        date(2026, 12, 1),
        date(2027, 11, 30),
        "18:00 to 02:00",
    )
    assert set(contract.tables.all()) == set(tables)
    assert contract.recorded_by.username == "supervisor"
    text = visible_text(done.content.decode())
    assert (
        "Quinn Quade's contract recorded: 2026-12-01 to 2027-11-30, Main 7, Main 8, "
        "18:00 to 02:00" in text
    )
    assert (
        "Main 7, Main 8 18:00 to 02:00 2026-12-01 2027-11-30 GEGC-2026-0042 approved 2026-11-15"
        in text
    )
    assert "starts later" in text and not internal_names(text)
    recorded = StaffAction.objects.get(action="record a TPPP contract")
    assert recorded.outcome == "done"
    assert "Quinn Quade" in recorded.detail_words and "Main 7" in recorded.detail_words


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"ends_on": "2026-11-30"}, "ends_on", "the contract ends on 2026-11-30, before it starts"),
        ({"approved_on": "2026-12-02"}, "approved_on", "approved before it starts"),
        ({"closes_at": ""}, "opens_at", "the hours are recorded with their start and end"),
        ({"approval_number": "   "}, "approval_number", "with the Bureau's approval number"),
    ],
)
def test_a_refusal_is_on_the_field_it_names(as_user, tppp, clock, changes, field, words):
    before = TPPPContract.objects.count()
    refused = as_user("compliance").post(NEW, _typed(tppp, **changes))
    assert refused.status_code == 400
    form = refused.context["form"]
    assert list(form.errors) == [field]
    assert words in form.errors[field][0]
    assert form.errors[field][0].endswith(CITATION)
    body = refused.content.decode()
    assert "Refused: record a TPPP contract." in body
    assert f'<div class="field invalid" data-field="{field}">' in body
    assert TPPPContract.objects.count() == before


def test_a_patron_or_an_unknown_number_is_refused_on_the_player(as_user, clock):
    patron = make_player(name="Pat Patron")
    client = as_user("supervisor")
    for number, words in [
        (patron.player_number, f"Pat Patron is not a registered TPPP {CITATION}"),
        ("NO-SUCH", "no player has this number"),
    ]:
        refused = client.post(NEW, _typed(patron, player_number=number))
        assert refused.status_code == 400
        assert refused.context["form"].errors == {"player_number": [words]}
    assert not TPPPContract.objects.exists()


@pytest.mark.parametrize(
    ("who", "reads", "writes"),
    [
        ("supervisor", 200, 302),
        ("compliance", 200, 302),
        ("administrator", 200, 302),
        ("dealer", 200, 403),
        ("no_role", 403, 403),
    ],
)
def test_roles_as_the_api(as_user, tppp, clock, who, reads, writes):
    client = as_user(who)
    page = client.get(URL)
    assert page.status_code == reads
    if reads == 200:
        assert ('id="record-contract"' in page.content.decode()) == (writes == 302)
    assert client.post(NEW, _typed(tppp)).status_code == writes


def test_renew_by_within_the_notice_and_not_once_renewed(as_user, clock):
    """The pinned day is 2026-11-20: a contract ending 2027-01-31 is within 90 days."""
    ending, renewed = _without_contract("TP-END"), _without_contract("TP-RENEWED")
    dates = dict(
        starts_on=date(2026, 2, 1), ends_on=date(2027, 1, 31), approved_on=date(2026, 1, 1)
    )
    soon = record_contract(player_id=ending.pk, approval_number="A-1", **dates)
    old = record_contract(player_id=renewed.pk, approval_number="B-1", **dates)
    record_contract(
        player_id=renewed.pk,
        approval_number="B-2",
        starts_on=date(2027, 2, 1),
        ends_on=date(2028, 1, 31),
        approved_on=date(2026, 11, 1),
    )
    page = as_user("dealer").get(URL)
    assert page.context["renew"] == {soon.pk}
    body = page.content.decode()
    row = body.split(f'data-contract="{soon.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "renew by 2027-01-31" in row
    row = body.split(f'data-contract="{old.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "renew by" not in row and "in force" in row


def test_the_list_is_paged_newest_first_at_the_same_statements(
    as_user, clock, monkeypatch, django_assert_num_queries
):
    monkeypatch.setattr(views, "CONTRACTS_PER_PAGE", 2)
    client = as_user("supervisor")
    players = [make_player(tppp=True) for _ in range(2)]
    with CaptureQueriesContext(connection) as few:
        client.get(URL)
    players += [make_player(tppp=True) for _ in range(4)]
    TableFactory(name="Main 9")
    newest_first = list(
        TPPPContract.objects.order_by("-starts_on", "-id").values_list("pk", flat=True)
    )
    with django_assert_num_queries(len(few)):
        page = client.get(URL, {"page": 2})
    assert [c.pk for c in page.context["page"]] == newest_first[2:4]
    assert "page 2 of 3" in page.content.decode()
