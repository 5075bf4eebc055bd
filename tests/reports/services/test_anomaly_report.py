"""The anomaly report (docs/reports.md, docs/rules.md §13.6): player-dealers whose actual
result lies more than three standard deviations from theo, TPPPs apart.

- Planted: on a rigged card-entry table (``tests.builders.theo.rig``) a patron and a TPPP
  bank hand after hand against bettors who play 4x with king high into the player-dealer's
  aces (12 Antes won a hand; no house edge comes near it, whatever the exact edges): both are
  found, in each window (the gaming day, the seven gaming days, all time), the TPPP in its
  own section, with the table and hands named and every figure as the core gives it.
- The minimum of banked hands, as a parameter and as the setting: one hand short of it,
  nobody is listed; the parameter is validated.
- A normal simulated week (``rounds.simulation``: two tables with a TPPP, basic strategy,
  RNG deals, over seven gaming days) finds no one, though the player-dealers are checked.
- CSV and PDF (the PDF laid out within its pages), requested daily by the beat schedule,
  and run through the real worker with its download logged (PostgreSQL and Redis).

Every expected figure is derived from the game-math core (its counts are provisional).
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime, timedelta

import pytest

from cardroom import clock as cardroom_clock
from cardroom.errors import RuleError
from reports import services
from reports.models import ReportDownload
from rounds.simulation import Simulation
from tables.services import floor
from tests.builders.reports import DAY, at
from tests.builders.theo import expected_figures, rig, rigged_table
from tests.helpers import read_settings
from tests.reports.helpers import generate_bytes, read_csv
from tests.reports.services.test_pdf_layout import assert_fits
from tests.spreadsheet import cells, live_cells

pytestmark = pytest.mark.django_db

ANTE = 1_000
TPPP_SECTION = "TPPP player-dealers beyond 3 standard deviations"
OTHER_SECTION = "Other player-dealers beyond 3 standard deviations"
WINDOWS = [
    ("gaming_day", DAY, DAY),
    ("seven_gaming_days", "2026-11-14", DAY),
    ("all_time", "", DAY),
]


def planted(staff, clock, hands: int, name: str = "UTH-RIG"):
    """``hands`` rigged hands on gaming day 2026-11-20 from 20:00, seats 1 (a patron) and 2
    (a TPPP) banking two each in turn; answers (table, {seat: rounds})."""
    clock.set(at("2026-11-20T20:00:00"))
    mt = rigged_table(staff, name=name, tppp=True)
    banked = rig(mt, clock, hands=hands, ante=ANTE)
    for rounds_ in banked.values():
        figures = expected_figures(rounds_)
        assert figures.actual == len(rounds_) * 12 * ANTE  # the cards say so
        assert figures.std_devs > 3, "the rig must be beyond the threshold whatever the edges"
    return mt, banked


def row_of(figures, rounds_, table: str, player, window) -> dict[str, str]:
    numbers = [r.number for r in rounds_]
    return {
        "window": window[0],
        "from_day": window[1],
        "to_day": window[2],
        "player": player.player_number,
        "player_name": player.name,
        "hands": f"{table} hands {min(numbers)}\u2013{max(numbers)}",
        "hands_banked": str(figures.hands),
        "theo_cents": format(figures.theo.normalize(), "f") if figures.theo else "0",
        "actual_cents": str(figures.actual),
        "difference_cents": format(figures.difference.normalize(), "f"),
        "std_dev_cents": format(figures.std_dev.normalize(), "f"),
        "std_devs_from_theo": f"{figures.std_devs:.2f}",
    }


def test_a_rigged_patron_and_a_rigged_tppp_are_found_in_every_window(staff, clock):
    mt, banked = planted(staff, clock, hands=60)
    patron, tppp = mt.seated[1], mt.seated[2]
    assert (len(banked[1]), len(banked[2])) == (30, 30)  # the default minimum, just
    header, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY)[0])
    assert header["report"] == "Player-dealer results against theo (anomalies)"
    assert header["minimum banked hands"].startswith("30 settled hands with a theo")
    assert header["threshold"].startswith("actual result more than 3 standard deviations")
    patron_figures, tppp_figures = expected_figures(banked[1]), expected_figures(banked[2])
    assert sections[OTHER_SECTION] == [
        row_of(patron_figures, banked[1], mt.table.name, patron, window) for window in WINDOWS
    ]
    assert sections[TPPP_SECTION] == [
        row_of(tppp_figures, banked[2], mt.table.name, tppp, window) for window in WINDOWS
    ]
    assert sections[OTHER_SECTION][0]["hands"] == "UTH-RIG hands 1\u201358"
    assert sections[TPPP_SECTION][0]["hands"] == "UTH-RIG hands 3\u201360"
    checked = [
        (r["window"], r["tppp"], r["player_dealers"], r["player_dealers_checked"],
         r["hands_checked"], r["beyond_threshold"])
        for r in sections["Windows checked"]
    ]  # fmt: skip
    assert checked == [
        (window, tppp, "1", "1", "30", "1")
        for window, _, _ in WINDOWS
        for tppp in ("true", "false")
    ]


def test_the_next_gaming_day_only_the_longer_windows_find_them(staff, clock):
    mt, _ = planted(staff, clock, hands=60)
    _, sections = read_csv(generate_bytes("anomalies", gaming_day="2026-11-21")[0])
    assert [r["window"] for r in sections[OTHER_SECTION]] == ["seven_gaming_days", "all_time"]
    assert [r["window"] for r in sections[TPPP_SECTION]] == ["seven_gaming_days", "all_time"]
    # A table's report: another table's hands are not in it.
    other = rigged_table(staff, name="UTH-CLEAN")
    _, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY, table=other.table.pk)[0])
    assert sections[OTHER_SECTION] == sections[TPPP_SECTION] == []
    _, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY, table=mt.table.pk)[0])
    assert len(sections[OTHER_SECTION]) == len(sections[TPPP_SECTION]) == 3


def listed(**parameters) -> tuple[int, int]:
    _, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY, **parameters)[0])
    return len(sections[TPPP_SECTION]), len(sections[OTHER_SECTION])


def test_the_minimum_of_banked_hands_as_a_parameter_and_as_the_setting(staff, clock, settings):
    planted(staff, clock, hands=24)  # 12 hands each
    assert listed(min_hands=12) == (3, 3)
    assert listed(min_hands=13) == (0, 0)
    assert listed() == (0, 0)  # the setting: 30 by default
    settings.REPORTS_ANOMALY_MIN_HANDS = 12
    assert listed() == (3, 3)
    settings.REPORTS_ANOMALY_MIN_HANDS = 13
    header, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY)[0])
    assert header["minimum banked hands"] == (
        "13 settled hands with a theo in the window (the setting; REPORTS_ANOMALY_MIN_HANDS)"
    )
    assert sections[OTHER_SECTION] == []
    assert {r["player_dealers_checked"] for r in sections["Windows checked"]} == {"0"}
    assert {r["player_dealers"] for r in sections["Windows checked"]} == {"1"}
    header = read_csv(generate_bytes("anomalies", gaming_day=DAY, min_hands="12")[0])[0]
    assert header["minimum banked hands"].startswith(
        "12 settled hands with a theo in the window (the report"
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "min_hands must be a whole number of hands from 1"),
        ("ten", "min_hands must be a whole number"),
        (2.5, "min_hands must be a whole number"),
        (True, "min_hands must be a whole number"),
    ],
)
def test_the_minimum_parameter_is_validated(day, compliance, value, message):
    with pytest.raises(RuleError, match=message) as refused:
        services.request_report(
            report_type="anomalies",
            parameters={"gaming_day": DAY, "min_hands": value},
            by=compliance,
        )
    assert refused.value.field == "min_hands"
    with pytest.raises(RuleError, match="unknown parameter") as refused:
        services.request_report(
            report_type="anomalies", parameters={"gaming_day": DAY, "hands": 3}, by=compliance
        )
    assert refused.value.field == "hands"


def test_the_setting_is_read_from_the_environment():
    show = "from django.conf import settings; print(settings.REPORTS_ANOMALY_MIN_HANDS)"
    assert read_settings(show, unset=("REPORTS_ANOMALY_MIN_HANDS",)).stdout.strip() == "30"
    assert read_settings(show, env={"REPORTS_ANOMALY_MIN_HANDS": "50"}).stdout.strip() == "50"
    refused = read_settings("", env={"REPORTS_ANOMALY_MIN_HANDS": "0"})
    assert refused.returncode != 0 and "REPORTS_ANOMALY_MIN_HANDS" in refused.stderr


@pytest.mark.slow  # a week of simulated nights at two tables
def test_a_normal_simulated_week_finds_no_one():
    """Two tables (the second with a TPPP), 24 hands a night for seven gaming days, played
    by the simulator's basic strategy with RNG deals and fees: every player-dealer with ten
    hands is checked over the week and all time, and none lies beyond three standard
    deviations."""
    start = datetime.fromisoformat("2026-11-14T19:00:00-08:00")
    simulation = Simulation(tables=2, seed=2026, start=start)
    try:
        simulation.set_up()
        for night in range(7):
            simulation.now = start + timedelta(days=night)
            simulation.play(24)
    finally:
        cardroom_clock.freeze(None)
    _, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY, min_hands=10)[0])
    assert sections[TPPP_SECTION] == sections[OTHER_SECTION] == []
    checked = {
        (r["window"], r["tppp"]): (int(r["player_dealers"]), int(r["player_dealers_checked"]))
        for r in sections["Windows checked"]
    }
    for window in ("seven_gaming_days", "all_time"):
        assert checked[(window, "true")] == (1, 1), "the TPPP is checked"
        dealers, enough = checked[(window, "false")]
        assert dealers == 11 and enough >= 9, "the patrons who banked are checked"
    assert checked[("gaming_day", "false")][0] == 11  # a night's hands: too few to judge


def test_the_pdf_names_the_hands_and_fits_its_pages(staff, clock):
    mt, _ = planted(staff, clock, hands=24, name="High Limit Ultimate Texas Hold'em 7")
    pdf = generate_bytes("anomalies", gaming_day=DAY, format="pdf", min_hands=12)[0]
    text = assert_fits(pdf, "anomalies-day")
    assert "High Limit Ultimate Texas Hold'em 7 hands 1\u201322" in " ".join(text.split())
    assert "seven gaming days" in text and "all time" in text
    csv = generate_bytes("anomalies", gaming_day=DAY, min_hands=12)[0]
    assert csv.startswith(b"report,Player-dealer results against theo (anomalies)\r\n")
    # docs/reports.md, "Cells a spreadsheet would run": the patron's name corrected to
    # ``Bob\\r=1+2`` is written ``Bob\\r'=1+2``; no reader finds a formula
    # (tests/reports/services/test_formula_cells.py has every other report).
    floor.update_player_identification(
        player_id=mt.seated[1].pk, by=staff.supervisor, changes={"name": "Bob\r=1+2"}
    )
    data = generate_bytes("anomalies", gaming_day=DAY, min_hands=12)[0]
    assert live_cells(data) == []
    assert cells(data).count("Bob\r'=1+2") == 3  # the patron, in each window


def test_it_is_requested_every_day_for_the_day_that_closed(day, clock):
    from django.conf import settings

    clock.set(at("2026-11-21T06:15:00"))
    requested = {r.report.report_type: r.report for r in services.request_daily_reports()}
    report = requested["anomalies"]
    assert report.parameters == {"format": "csv", "from_day": DAY, "to_day": DAY, "table": None}
    assert report.scheduled and report.requested_by.username == "report-scheduler"
    schedule = settings.CELERY_BEAT_SCHEDULE["daily-compliance-reports"]
    assert schedule["task"] == "reports.request_daily_reports"
    assert report.retention_until == date(2031, 11, 21)  # not an accounting record: 5 years


@pytest.mark.requires_postgres
@pytest.mark.requires_redis
@pytest.mark.django_db(transaction=True)
def test_the_worker_runs_it_and_each_download_is_logged(
    celery_worker_process, worker_media, staff, clock, as_compliance, compliance
):
    from tests.reports.services.test_worker import expected_sha, wait_for

    planted(staff, clock, hands=24)
    answer = as_compliance.post(
        "/api/reports/",
        {
            "report_type": "anomalies",
            "parameters": {"gaming_day": DAY, "format": "pdf", "min_hands": 12},
        },
        format="json",
    )
    assert answer.status_code == 202, answer.data
    report = wait_for(answer.data["id"], log=celery_worker_process.log_path)
    assert report.status == "done", report.failure_reason
    assert report.parameters["min_hands"] == 12
    assert report.file_name == "player-dealer-anomalies_2026-11-20_all-tables_filtered.pdf"
    sha = expected_sha(clock, "anomalies", gaming_day=DAY, format="pdf", min_hands=12)
    assert report.sha256 == sha
    response = as_compliance.get(f"/api/reports/{report.pk}/download/")
    assert response.status_code == 200
    assert hashlib.sha256(b"".join(response.streaming_content)).hexdigest() == sha
    (logged,) = ReportDownload.objects.filter(report=report)
    assert (logged.downloaded_by, logged.sha256) == (compliance, sha)


def test_a_hand_without_a_theo_is_left_out_of_the_comparison(staff, clock):
    """A hand settled before theo was recorded has no row (made here by removing one as an
    attacker with database access would): it counts neither in the report nor in the
    bankroll's comparison, though it stays a hand banked."""
    from tests.builders.tampering import raw
    from wagers.selectors import bankroll

    mt, banked = planted(staff, clock, hands=24)
    first, *rest = banked[1]
    raw("DELETE FROM wagers_roundtheo WHERE round_id = %s", [first.pk])
    figures = expected_figures(rest)
    assert listed(min_hands=12) == (3, 0)
    _, sections = read_csv(generate_bytes("anomalies", gaming_day=DAY, min_hands=11)[0])
    assert sections[OTHER_SECTION][0] == row_of(
        figures, rest, mt.table.name, mt.seated[1], WINDOWS[0]
    )
    book = bankroll(mt.seated[1])
    assert (book.banking["hands_banked"], book.theo.hands) == (12, 11)
    assert book.theo.actual == figures.actual == 11 * 12 * ANTE
