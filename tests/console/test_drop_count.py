"""The drop count page (docs/console.md, docs/rules.md §10.4): each box of a gaming day by
table and shift, recorded against counted, in dollars; read by the roles that read the
floor, written by a floor supervisor; a refused count says why in the floor's words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

from fees.models import DropBox, DropCount
from tests.fees.selectors.test_reconciliation import DAY, boxes  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db
PAGE = reverse("console:drop") + f"?gaming_day={DAY.isoformat()}"


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("supervisor", 200),
        ("dealer", 200),
        ("compliance", 200),
        ("administrator", 200),
        ("no_role", 403),
        ("not_staff", 403),
    ],
)
def test_the_roles_that_read_the_floor_see_the_drop(as_user, boxes, who, status):  # noqa: F811
    assert as_user(who).get(PAGE).status_code == status


def test_each_box_in_dollars_by_table_and_shift(as_user, boxes):  # noqa: F811
    page = as_user("dealer").get(PAGE).content.decode()
    assert "Gaming day Friday 20 November 2026 · all tables" in page
    for box in ("A-day", "A-swing", "B-day"):
        assert f'data-box="{box}"' in page
    assert "DROP-A" in page and "DROP-B" in page
    assert "$1.50" in page and "$1.25" in page and "short $0.25" in page
    assert "Ann, Bo" in page
    assert 'id="drop-recorded">$4.50<' in page and 'id="drop-counted">$1.25<' in page
    assert "2 boxes not counted yet" in page
    # Read only for a dealer: no form to register or count.
    assert "Register a drop box" not in page and "Enter the count" not in page


def test_one_table_only(as_user, boxes):  # noqa: F811
    table = boxes["B", "day"].table
    page = as_user("compliance").get(f"{PAGE}&table={table.pk}").content.decode()
    assert "· DROP-B</h2>" in page
    assert 'data-box="B-day"' in page and 'data-box="A-day"' not in page


def test_a_supervisor_registers_a_box_and_counts_it(as_user, boxes, clock):  # noqa: F811
    client = as_user("supervisor")
    table = boxes["B", "day"].table
    response = client.post(
        reverse("console:drop-register"),
        {"box_number": "B-swing", "table": table.pk, "gaming_day": DAY, "shift": "swing"},
    )
    assert response.status_code == 302
    box = DropBox.objects.get(box_number="B-swing")
    counted = {
        "amount": "0.00",
        "counters": "Ann, Bo",
        "counted_at": localtime(clock.moment).strftime("%Y-%m-%dT%H:%M"),
    }
    response = client.post(reverse("console:drop-count", args=[box.pk]), counted)
    assert response.status_code == 302
    assert DropCount.objects.get(box=box).counters == ["Ann", "Bo"]
    page = client.get(PAGE).content.decode()
    assert "box B-swing counted: $0.00" in page


def test_a_refused_count_says_why_in_words(as_user, boxes, clock):  # noqa: F811
    client = as_user("supervisor")
    box = boxes["A", "swing"]
    response = client.post(
        reverse("console:drop-count", args=[box.pk]),
        {
            "amount": "1.50",
            "counters": "Ann",
            "counted_at": localtime(clock.moment).strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Refused: enter a drop count." in page
    assert "a count names its counters: at least two different people" in page
    assert "(rule: counting the drop, docs/rules.md §10.4)" in page
    assert "<p>Counted by (two or more names, commas between): a count names" in page
    assert "<p>counters:" not in page and "amount_cents" not in page
    assert not DropCount.objects.filter(box=box).exists()


def test_a_box_taken_is_refused_409(as_user, boxes):  # noqa: F811
    table = boxes["A", "day"].table
    response = as_user("supervisor").post(
        reverse("console:drop-register"),
        {"box_number": "A-day-2", "table": table.pk, "gaming_day": DAY, "shift": "day"},
    )
    assert response.status_code == 409
    assert "Refused: register a drop box." in response.content.decode()


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_only_a_supervisor_writes(as_user, boxes, who):  # noqa: F811
    client = as_user(who)
    table = boxes["B", "day"].table
    register = {"box_number": "X", "table": table.pk, "gaming_day": DAY, "shift": "swing"}
    assert client.post(reverse("console:drop-register"), register).status_code == 403
    count = reverse("console:drop-count", args=[boxes["A", "swing"].pk])
    assert client.post(count, {"amount": "1"}).status_code == 403
    assert not DropBox.objects.filter(box_number="X").exists()


def test_an_unknown_box_is_404(as_user, boxes):  # noqa: F811
    response = as_user("supervisor").post(reverse("console:drop-count", args=[999_999]), {})
    assert response.status_code == 404
