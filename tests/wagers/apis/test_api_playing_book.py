"""The playing book as a CSV download: one row per bank the player posted."""

from __future__ import annotations

import csv
import io
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from rounds import services as rounds
from tables.models import DealMode, Table
from tests.builders.factories import TPPPRegistrationFactory
from tests.builders.floor import PLAY_4X
from tests.builders.money import Wager, money_table, play_round
from tests.spreadsheet import live_cells
from wagers.models import PlayerDealerBank
from wagers.selectors import PLAYING_BOOK_COLUMNS

pytestmark = pytest.mark.django_db


def rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def book(client, player, **params):
    response = client.get(f"/api/players/{player.pk}/playing-book.csv", params)
    assert response.status_code == 200, response.content
    return response


@pytest.fixture
def banked(on_floor):
    """A TPPP who banked two settled hands at one table."""
    table = on_floor.ready_table(seats=(2, 3), max_tppp_per_table=1)
    tppp = TPPPRegistrationFactory(player__player_number="TP 01/x").player
    on_floor.seat(table, 1, tppp)
    first = on_floor.round_in("settled", table)
    return tppp, table, first


def test_the_playing_book(as_compliance, on_floor, banked):
    tppp, table, first = banked
    response = book(as_compliance, tppp)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="playing-book-TP_01_x.csv"'
    header, *body = rows(response)
    assert header == PLAYING_BOOK_COLUMNS
    (row,) = body
    bank = PlayerDealerBank.objects.get(round=first)
    record = dict(zip(header, row, strict=True))
    assert record["table"] == table.name
    assert (record["round"], record["seat"]) == ("1", "1")
    assert record["bank_cents"] == str(on_floor.bank_cents)
    assert record["result_cents"] == str(bank.net_cents)
    assert record["bank_exhausted"] == str(bank.exhausted).lower()


def test_one_row_per_bank(as_dealer, on_floor, banked):
    tppp, table, first = banked
    # A TPPP may not bank twice in a row: another player banks, then the TPPP again.
    other = on_floor.start(table, banker_seat=2, join=(3,))
    rounds.void_round(round_id=other.pk, by=on_floor.supervisor, reason="misdeal")
    on_floor.bank(table, 1)
    again = rounds.start_round(table_id=table.pk, by=on_floor.dealer)
    rounds.post_bank(round_id=again.pk, amount=5000, by=on_floor.dealer)
    header, *body = rows(book(as_dealer, tppp))
    assert header == PLAYING_BOOK_COLUMNS
    assert [(r[2], r[4], r[5]) for r in body] == [
        ("1", str(on_floor.bank_cents), str(PlayerDealerBank.objects.get(round=first).net_cents)),
        ("3", "5000", ""),  # posted, not settled yet
    ]
    assert len(body) == PlayerDealerBank.objects.filter(player=tppp).count()


def test_gaming_day_bounds(as_compliance, on_floor, banked):
    tppp, _, _ = banked
    today = timezone.localtime().date()
    assert len(rows(book(as_compliance, tppp))) == 2
    for since, until, expected in [
        (today - timedelta(days=1), today + timedelta(days=1), 1),
        (today + timedelta(days=2), None, 0),
        (None, today - timedelta(days=2), 0),
    ]:
        params = {}
        if since:
            params["since"] = since.isoformat()
        if until:
            params["until"] = until.isoformat()
        response = book(as_compliance, tppp, **params)
        assert len(rows(response)) == 1 + expected
        name = response["Content-Disposition"]
        if since:
            assert f"-from-{since.isoformat()}" in name
        if until:
            assert f"-to-{until.isoformat()}" in name


def test_the_gaming_day_starts_at_its_hour(as_compliance, on_floor, settings, clock):
    """A bank posted at 05:59 local time belongs to the previous gaming day (06:00 start)."""
    settings.CARDROOM_GAMING_DAY_START = timezone.datetime(2000, 1, 1, 6, 0).time()
    local = timezone.get_default_timezone()
    clock.set(timezone.make_aware(timezone.datetime(2026, 3, 10, 5, 59), local))
    table = on_floor.ready_table(seats=(2, 3), max_tppp_per_table=1)
    tppp = TPPPRegistrationFactory().player
    on_floor.seat(table, 1, tppp)
    on_floor.round_in("settled", table)
    clock.stop()  # the book is read on the real clock
    assert len(rows(book(as_compliance, tppp, since="2026-03-09", until="2026-03-09"))) == 2
    assert len(rows(book(as_compliance, tppp, since="2026-03-10"))) == 1


def test_bad_dates_are_400(as_compliance, banked):
    tppp, _, _ = banked
    url = f"/api/players/{tppp.pk}/playing-book.csv"
    response = as_compliance.get(url, {"since": "yesterday"})
    assert response.status_code == 400
    assert (response.data["code"], response.data["field"]) == ("invalid", "since")
    assert set(response.data["errors"]) == {"since"}
    response = as_compliance.get(url, {"since": "2026-03-10", "until": "2026-03-09"})
    assert response.status_code == 400
    assert (response.data["code"], response.data["field"]) == ("invalid", "until")
    assert response.data["message"] == "is before since"
    assert response.data["errors"] == {"until": ["is before since"]}


def test_a_table_named_like_a_formula_is_text(as_compliance, banked):
    """docs/reports.md: the playing book writes no cell a spreadsheet would run."""
    tppp, table, first = banked
    Table.objects.filter(pk=table.pk).update(name="@SUM(1+1)*cmd|' /C calc'!A0")
    header, row = rows(book(as_compliance, tppp))
    record = dict(zip(header, row, strict=True))
    assert record["table"] == "'@SUM(1+1)*cmd\\|' /C calc'!A0"
    assert record["result_cents"] == str(PlayerDealerBank.objects.get(round=first).net_cents)


def test_a_table_named_with_a_line_break_before_a_formula_is_text(as_compliance, staff):
    """docs/reports.md: a table named ``Bob\\r=1+2`` (named so when it was opened) is text in
    the playing book, read by RFC 4180 or by a spreadsheet that breaks rows at a bare CR."""
    mt = money_table(staff, {1: 100_000, 2: 100_000}, deal_mode=DealMode.RNG, name="Bob\r=1+2")
    play_round(
        mt, pd_seat=1, bank=20_000, wagers=[Wager(2, 500)], decisions={2: PLAY_4X},
        rng=random.Random(3),
    )  # fmt: skip
    response = book(as_compliance, mt.seated[1])
    assert live_cells(response.content) == []
    header, row = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    assert dict(zip(header, row, strict=True))["table"] == "Bob\r'=1+2"
