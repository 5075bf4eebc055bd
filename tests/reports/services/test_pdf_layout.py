"""Every PDF report lays out within its page (reports/writers.py, fees/filing.py).

Each PDF report type is rendered twice: from a real day played through the services, and with
the widest realistic rows in every section of its real columns (amounts of -$999,999.99,
times with microseconds, long names and reasons). Every page is checked two ways with
poppler-utils (`scripts/ensure_poppler.sh`): each word's box (`pdftotext -bbox`) lies inside
the page with a margin, and the page drawn as an image (`pdftoppm`) is blank along its
edges. The images are kept under test-output/pdf-layout/ to be looked at.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import replace
from datetime import UTC, date, datetime
from html import unescape
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from fees.services import schedules
from reports.parameters import normalise, period_of
from reports.registry import REGISTRY
from reports.writers import write_pdf
from tests.builders.fees import ACTION
from tests.builders.money import money_table
from tests.builders.reports import DAY, at
from tests.reports.helpers import generate_bytes
from tests.reports.services.test_fee_reports import (  # noqa: F401 (fixtures)
    baccarat_beside,
    fee_day,
)

pytestmark = pytest.mark.django_db

OUTPUT = Path(__file__).resolve().parents[3] / "test-output" / "pdf-layout"
EDGE = 18  # points (a quarter inch): no text this close to any edge of the page
DPI = 60
PDF_TYPES = sorted(t for t, kind in REGISTRY.items() if "pdf" in kind.formats)
BUILT_TYPES = [t for t in PDF_TYPES if REGISTRY[t].build is not None]

WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
)
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is missing: run scripts/ensure_poppler.sh (poppler-utils)"
    return path


def pages_of(pdf: bytes, name: str) -> tuple[list[tuple[float, float]], list[list[tuple]]]:
    """(each page's size, each page's words with their boxes), and its images saved."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "report.pdf"
        source.write_bytes(pdf)
        boxes = subprocess.run(
            [tool("pdftotext"), "-bbox", str(source), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        subprocess.run(
            [tool("pdftoppm"), "-r", str(DPI), "-png", str(source), str(Path(scratch) / "page")],
            check=True,
        )
        OUTPUT.mkdir(parents=True, exist_ok=True)
        for old in OUTPUT.glob(f"{name}-*.png"):
            old.unlink()
        images = sorted(Path(scratch).glob("page-*.png"))
        for index, image in enumerate(images, start=1):
            shutil.copy(image, OUTPUT / f"{name}-{index}.png")
        blank_edges = [_edges_blank(Image.open(image)) for image in images]
    sizes = [(float(w), float(h)) for w, h in PAGE.findall(boxes)]
    words: list[list[tuple]] = []
    for chunk in boxes.split("<page ")[1:]:
        words.append(
            [
                (float(x0), float(y0), float(x1), float(y1), unescape(text))
                for x0, y0, x1, y1, text in WORD.findall(chunk)
            ]
        )
    assert len(sizes) == len(words) == len(blank_edges) > 0
    assert all(blank_edges), f"{name}: ink along the edge of page(s) " + ", ".join(
        str(i + 1) for i, blank in enumerate(blank_edges) if not blank
    )
    return sizes, words


def _edges_blank(image: Image.Image) -> bool:
    """Nothing but white within EDGE / 2 points of the image's four sides (the running
    footer's descenders come within EDGE of the bottom)."""
    gray = image.convert("L")
    band = round(EDGE / 2 * DPI / 72)
    width, height = gray.size
    white = Image.new("L", gray.size, 255)
    for box in (
        (0, 0, width, band),
        (0, height - band, width, height),
        (0, 0, band, height),
        (width - band, 0, width, height),
    ):
        if ImageChops.difference(gray.crop(box), white.crop(box)).getbbox() is not None:
            return False
    return True


def assert_fits(pdf: bytes, name: str) -> str:
    """Every word of every page inside the page, EDGE points from its sides; the text."""
    sizes, pages = pages_of(pdf, name)
    outside = [
        (number, text, (x0, y0, x1, y1))
        for number, ((width, height), words) in enumerate(zip(sizes, pages, strict=True), 1)
        for x0, y0, x1, y1, text in words
        if x0 < EDGE or y0 < EDGE / 2 or x1 > width - EDGE or y1 > height - EDGE / 2
    ]
    assert not outside, f"{name}: text outside the page's margins: {outside[:10]}"
    return " ".join(text for words in pages for *_, text in words)


# --- The widest realistic rows ------------------------------------------------------------

WIDEST_AMOUNT = -99_999_999  # -$999,999.99: a shortage, a player-dealer's loss
WIDEST_TIME = datetime(2026, 11, 21, 3, 10, 59, 999_999, tzinfo=UTC)
LONG_NAME = "Maximiliano Featherstonehaugh-Villanueva"
LONG_TEXT = (
    "misdeal: the dealer exposed two cards while pitching to seat three, the hand was called "
    "dead by the floor supervisor and every wager was returned before any card was seen; "
    "surveillance was notified at once and the player-dealer agreed to the ruling"
)
TIME_LIKE = ("_at", "time", "_opened", "_closed")
NUMBERS = {
    "hands_dealt", "hands_voided", "waivers", "counts", "round", "seat", "version", "rate",
    "fee_lines", "game", "hand", "consecutive", "hands_checked", "violations", "buy_ins",
    "cash_outs", "transaction", "hands_banked", "banks_exhausted", "hands_with_theo",
    "player_dealers", "player_dealers_checked", "beyond_threshold",
}  # fmt: skip
FLAGS = {"tppp", "bank_exhausted"}
TEXTS = {"reason", "detail", "note", "over", "hands"}
WORDS = {"shift": "graveyard", "payer": "player_dealer", "square": "bad_beat",
         "window": "seven_gaming_days", "std_devs_from_theo": "-99.99"}  # fmt: skip


def widest(column: str, row: int):
    """The widest realistic value of ``column``: amounts of -$999,999.99, times with
    microseconds, counts and ids of a busy room; the long row has a long reason or detail."""
    if column.endswith("_cents"):
        return WIDEST_AMOUNT
    if column.endswith(TIME_LIKE):
        return WIDEST_TIME
    if column in ("gaming_day", "from_day", "to_day"):
        return date(2026, 11, 20)
    if column in NUMBERS:
        return 987_654_321 if column == "transaction" else 99_999
    if column in FLAGS:
        return True
    if column in WORDS:
        return WORDS[column]
    if column in TEXTS:
        return LONG_TEXT if row == 1 else LONG_TEXT[:60]
    return LONG_NAME


def with_widest_rows(document):
    """The report's own sections (titles, columns, widths) with the widest rows."""
    for section in document.sections:
        rows = [tuple(widest(c, row) for c in section.columns) for row in range(3)]
        yield replace(section, rows=iter(rows * 2))


@pytest.mark.parametrize("report_type", BUILT_TYPES)
def test_each_report_fits_the_page_with_its_widest_rows(report_type, tmp_path):
    kind = REGISTRY[report_type]
    parameters = normalise(
        report_type, {"gaming_day": DAY}, formats=kind.formats, today=date(2100, 1, 1)
    )
    document = kind.build(period_of(parameters), is_open=False)
    document = replace(document, sections=with_widest_rows(document))
    with open(tmp_path / "report.pdf", "wb") as out:
        write_pdf(document, out)
    words = assert_fits((tmp_path / "report.pdf").read_bytes(), f"{report_type}-widest").split()
    columns = {
        c for s in kind.build(period_of(parameters), is_open=False).sections for c in s.columns
    }
    if any(c.endswith("_cents") for c in columns):
        assert "-999,999.99" in words  # an amount is never split over two lines
    if any(c.endswith(TIME_LIKE) for c in columns):
        assert "19:10:59.999999-08:00" in words  # a time local, whole, with its offset


# --- Real days, through the services -----------------------------------------------------


@pytest.mark.parametrize("report_type", ["rotation", "banking", "currency"])
def test_the_compliance_days_reports_fit(day, report_type):
    pdf = generate_bytes(report_type, gaming_day=DAY, format="pdf")[0]
    text = assert_fits(pdf, f"{report_type}-day")
    assert "+00:00" not in text


def test_the_table_activity_and_drop_fits_with_every_column(request):
    request.getfixturevalue("fee_day")
    pdf = generate_bytes("table_activity", gaming_day=DAY, format="pdf")[0]
    text = assert_fits(pdf, "table_activity-day")
    # The columns a portrait-wide row used to cut: player-dealer fees, drop, count, difference.
    for heading in ("player dealer fees ($)", "recorded drop ($)", "counted ($)", "difference"):
        assert all(word in text for word in heading.split()), heading
    assert "SWING-1" in text


def test_the_table_activity_names_each_tables_game_and_fits(request):
    request.getfixturevalue("baccarat_beside")
    pdf = generate_bytes("table_activity", gaming_day=DAY, format="pdf")[0]
    text = assert_fits(pdf, "table_activity-games")
    assert "EZ Baccarat" in text and "Hold'em" in text and "Baccarat table" in text


def test_the_fee_filing_fits_and_shows_local_times(clock, staff):
    clock.set(at("2026-11-20T09:00:00"))
    mt = money_table(staff, {1: 50_000}, name="High Limit Ultimate Texas Hold'em 7")
    schedule = schedules.create_schedule(
        name="High limit tables, weekend and holiday schedule (amended)",
        table_id=mt.table.pk,
        by=staff.supervisor,
    )
    schedules.create_version(
        schedule_id=schedule.pk,
        rates=ACTION,
        player_dealer_basis="total_table_action",
        by=staff.supervisor,
        note=LONG_TEXT,
    )
    pdf = generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0]
    text = assert_fits(pdf, "fee_filing")
    assert "2026-11-20 09:00 PST" in text
    assert "+00:00" not in text and "T17:00" not in text
    csv_text = generate_bytes("fee_filing", gaming_day=DAY, format="csv")[0].decode()
    assert "2026-11-20T09:00:00-08:00" in csv_text and "+00:00" not in csv_text


def test_the_fee_filings_math_sheets_fit_a_page_each(clock, staff):
    """The math sheet's page per table (reports/math_sheet.py), at its widest: a long name, a
    custom Trips table paying up to 100,000 to 1 with odds of three decimals, the largest
    posted Bad Beat; and a table offering no Bad Beat. One page each, nothing off it."""
    from tables.services import floor

    clock.set(at("2026-11-20T09:00:00"))
    custom = {
        "royal_flush": 100_000, "straight_flush": 12_345, "four_of_a_kind": "1234.125",
        "full_house": 99, "flush": "7.5", "straight": 5, "three_of_a_kind": 3,
    }  # fmt: skip
    floor.create_table(
        name="High Limit Ultimate Texas Hold'em 7 (Salon Privé)",
        by=staff.supervisor,
        options={"trips_paytable": custom, "bad_beat_paytable": "option-1"},
    )
    floor.create_table(
        name="MATH-PLAIN", by=staff.supervisor,
        options={"bad_beat_paytable": None, "preflop_multiples": [3]},
    )  # fmt: skip
    pdf = generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0]
    text = assert_fits(pdf, "fee_filing-math")
    _, pages = pages_of(pdf, "fee_filing-math")
    titles = [" ".join(t for *_, t in words[:4]) for words in pages]
    assert titles[1:] == [
        "Game math · High",
        "Game math · MATH-PLAIN",
    ], titles  # the filing's page, then one page per table by name
    assert "100,000 to 1" in text and "9,873 to 8" in text and "15 to 2" in text
    assert "custom (given in full)" in text and "not offered" in text
