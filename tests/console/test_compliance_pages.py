"""Title 31's page and the barred list a page at a time (console.paging): each list by its
own parameter, newest first (the CTRs due by due date), the gaming day and the other lists'
pages kept by every link; the statements of a page do not grow with the rows."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cardroom.clock import now
from cardroom.gaming_day import gaming_day_of
from console.views import compliance as views
from tables.models import ExclusionKind
from tables.services import exclusions
from tests.builders.floor import make_player
from wagers.models import ComplianceReview, CurrencyTransactionReport, MtlEntry, ReviewKind
from wagers.services import chips, title31

pytestmark = pytest.mark.django_db

URL = reverse("console:compliance")


def _cash(card_table, clock, staff, seats, times):
    """``times`` cash buy-ins of $3,000 at each seat, a minute apart: each on the MTL, and
    four put a patron over $10,000 (a CTR due)."""
    for _ in range(times):
        for seat in seats:
            clock.advance(minutes=1)
            chips.buy_in(
                table_id=card_table.table.pk,
                player_id=card_table.seated[seat].pk,
                amount=300_000,
                currency=True,
                by=staff.dealer,
            )


def _links(body: str, param: str) -> list[str]:
    pager = re.search(rf'<p class="pager" data-pager="{param}">(.*?)</p>', body, re.S)
    assert pager, f"no pager for {param}"
    return re.findall(r'href="([^"]*)"', pager.group(1))


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_mtl_is_paged_newest_first_with_its_day_kept(
    as_user, card_table, clock, staff, monkeypatch
):
    monkeypatch.setattr(views, "MTL_PER_PAGE", 3)
    _cash(card_table, clock, staff, seats=[1], times=7)
    day = gaming_day_of(now()).isoformat()
    newest_first = list(MtlEntry.objects.order_by("-at", "-id").values_list("pk", flat=True))
    client = as_user("compliance")

    first = client.get(URL, {"day": day})
    assert [e.pk for e in first.context["mtl"]] == newest_first[:3]
    body = first.content.decode()
    assert f"gaming day {day} (7)" in body
    assert _links(body, "mtl_page") == [f"?day={day}&amp;mtl_page=2#mtl"]
    assert "page 1 of 3" in body

    second = client.get(URL, {"day": day, "mtl_page": 2})
    assert [e.pk for e in second.context["mtl"]] == newest_first[3:6]
    assert _links(second.content.decode(), "mtl_page") == [
        f"?day={day}&amp;mtl_page=1#mtl",
        f"?day={day}&amp;mtl_page=3#mtl",
    ]
    last = client.get(URL, {"day": day, "mtl_page": 3})
    assert [e.pk for e in last.context["mtl"]] == newest_first[6:]
    # Past the end, or not a number: the last page, the first page.
    assert [e.pk for e in client.get(URL, {"day": day, "mtl_page": 9}).context["mtl"]] == (
        newest_first[6:]
    )
    assert [e.pk for e in client.get(URL, {"day": day, "mtl_page": "x"}).context["mtl"]] == (
        newest_first[:3]
    )
    # Another gaming day has its own log.
    other = (gaming_day_of(now()) - timedelta(days=1)).isoformat()
    page = client.get(URL, {"day": other})
    assert list(page.context["mtl"]) == []
    assert 'data-pager="mtl_page"' not in page.content.decode()  # one page: no links


def test_each_list_pages_apart_keeping_the_others(as_user, card_table, clock, staff, monkeypatch):
    for name in ("MTL_PER_PAGE", "CTRS_PER_PAGE", "FILED_PER_PAGE", "REVIEWS_PER_PAGE"):
        monkeypatch.setattr(views, name, 2)
    _cash(card_table, clock, staff, seats=[1, 2, 3, 4], times=4)  # 4 CTRs, 16 MTL entries
    ctrs = list(CurrencyTransactionReport.objects.order_by("id"))
    assert len(ctrs) == 4
    for number, ctr in enumerate(ctrs[:3], start=1):
        clock.advance(minutes=1)
        title31.mark_ctr_filed(ctr_id=ctr.pk, filing_number=f"BSA-{number}", by=staff.supervisor)
    day = gaming_day_of(now())
    reviews = [
        ComplianceReview.objects.create(
            player=card_table.seated[seat],
            gaming_day=day - timedelta(days=seat),
            kind=ReviewKind.STRUCTURING,
            evidence=f"pattern {seat}",
            raised_at=now(),
        )
        for seat in (1, 2, 3)
    ]
    client = as_user("compliance")

    page = client.get(URL, {"day": day.isoformat(), "mtl_page": 2, "filed_page": 2})
    context = page.context
    assert [r["ctr"].filing_number for r in context["filed"]] == ["BSA-1"]  # newest first
    assert [r["ctr"].pk for r in context["unfiled"]] == [ctrs[3].pk]
    assert [v.pk for v in context["reviews"]] == [reviews[0].pk, reviews[1].pk]
    body = page.content.decode()
    assert _links(body, "reviews_page") == [
        f"?day={day}&amp;mtl_page=2&amp;filed_page=2&amp;reviews_page=2#reviews"
    ]
    assert _links(body, "filed_page") == [f"?day={day}&amp;mtl_page=2&amp;filed_page=1#ctrs-filed"]
    assert f"?day={day}&amp;filed_page=2&amp;mtl_page=3#mtl" in _links(body, "mtl_page")
    assert "To review (3)" in body and "Filed (3)" in body and "CTRs to file (1)" in body
    older = client.get(URL, {"reviews_page": 2})
    assert [v.pk for v in older.context["reviews"]] == [reviews[2].pk]
    assert [r["ctr"].filing_number for r in older.context["filed"]] == ["BSA-3", "BSA-2"]


def test_the_page_costs_the_same_statements_however_many_rows(
    as_user, card_table, clock, staff, monkeypatch, django_assert_num_queries
):
    for name in ("MTL_PER_PAGE", "CTRS_PER_PAGE", "FILED_PER_PAGE", "REVIEWS_PER_PAGE"):
        monkeypatch.setattr(views, name, 2)
    client = as_user("compliance")
    # Every list with a row or more: a CTR due and one filed, entries on the log, a review.
    _cash(card_table, clock, staff, seats=[1, 2], times=4)  # 2 CTRs, 8 MTL entries
    first, _ = CurrencyTransactionReport.objects.order_by("id")
    title31.mark_ctr_filed(ctr_id=first.pk, filing_number="BSA-1", by=staff.supervisor)
    ComplianceReview.objects.create(
        player=card_table.seated[1],
        gaming_day=gaming_day_of(now()),
        kind=ReviewKind.LITTLE_PLAY,
        evidence="bought in, cashed out",
        raised_at=now(),
    )
    few = _queries(client, URL)
    # Many more of each, on later pages.
    _cash(card_table, clock, staff, seats=[3, 4], times=4)  # 4 CTRs, 16 MTL entries
    for seat in (2, 3, 4):
        ComplianceReview.objects.create(
            player=card_table.seated[seat],
            gaming_day=gaming_day_of(now()),
            kind=ReviewKind.LITTLE_PLAY,
            evidence="bought in, cashed out",
            raised_at=now(),
        )
    with django_assert_num_queries(few):
        page = client.get(URL, {"mtl_page": 2, "ctrs_page": 2, "reviews_page": 2})
    assert page.status_code == 200
    assert [len(page.context[name]) for name in ("mtl", "unfiled", "filed", "reviews")] == [
        2,
        1,
        1,
        2,
    ]
    # the session, the user and roles; each list its COUNT and its rows (a CTR list also its
    # slips); the overdue count; the contracts to renew
    assert few == 15


def test_the_barred_list_is_paged_newest_first(
    as_user, clock, staff, monkeypatch, django_assert_num_queries
):
    monkeypatch.setattr(views, "BARRED_PER_PAGE", 2)
    url = reverse("console:exclusions")
    entries = []
    for n in range(5):
        clock.advance(minutes=1)
        entries.append(
            exclusions.exclude(
                player_id=make_player(name=f"Barred {n}").pk,
                kind=ExclusionKind.BARRED,
                reason=f"reason {n}",
                by=staff.supervisor,
            )
        )
    newest_first = [e.pk for e in reversed(entries)]
    client = as_user("supervisor")
    first = client.get(url)
    assert [e.pk for e in first.context["entries"]] == newest_first[:2]
    assert _links(first.content.decode(), "page") == ["?page=2"]
    statements = _queries(client, url)
    with django_assert_num_queries(statements):
        last = client.get(url, {"page": 3})
    assert [e.pk for e in last.context["entries"]] == newest_first[4:]
    assert _links(last.content.decode(), "page") == ["?page=2"]
    assert "page 3 of 3" in last.content.decode()
