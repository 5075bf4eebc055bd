"""The fee filing's math sheet (docs/reports.md): after the filing, a page per table in scope
with its wagers' pay tables and figures and the strategy card, for the options in force at
the end of the period; the same words and figures as the console's game math page.

Expected figures come from the game math core and the one formatter (``cardroom.figures``):
the Bad Beat's and the base game's counts are provisional until the enumeration is done.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cardroom.figures import number, odds, one_in, percent
from fees.services import schedules
from games import registry
from tables import options as table_options
from tables.options import game_options
from tables.services import floor
from tests.builders.fees import ACTION
from tests.builders.reports import DAY, at
from tests.reports.helpers import generate_bytes
from wagers.math_sheet import hand_words
from wagers.rules.gamemath import FLOP_DECISION, game_math

pytestmark = pytest.mark.django_db


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text in drawing order (``pdftotext -raw``), its words one space apart."""
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext is missing: run scripts/ensure_poppler.sh (poppler-utils)"
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "filing.pdf"
        source.write_bytes(pdf)
        text = subprocess.run(
            [tool, "-raw", "-enc", "UTF-8", str(source), "-"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return [" ".join(page.split()) for page in text.split("\f") if page.strip()]


@pytest.fixture
def two_tables(clock, staff):
    """Two tables at the end of DAY: MATH-A (Trips UTH-03, Bad Beat option-2, 3x or 4x) with a
    fee schedule, MATH-B (no Bad Beat, 3x only) without one."""
    clock.set(at("2026-11-20T09:00:00"))
    first = floor.create_table(
        name="MATH-A",
        by=staff.supervisor,
        options={"trips_paytable": "UTH-03", "bad_beat_paytable": "option-2"},
    )
    second = floor.create_table(
        name="MATH-B",
        by=staff.supervisor,
        options={"bad_beat_paytable": None, "preflop_multiples": [3]},
    )
    schedule = schedules.create_schedule(name="MATH-A fees", table_id=first.pk, by=staff.supervisor)
    schedules.create_version(
        schedule_id=schedule.pk, rates=ACTION, player_dealer_basis="total_table_action",
        by=staff.supervisor,
    )  # fmt: skip
    return first, second


def test_a_page_per_table_with_its_figures(two_tables):
    first, second = two_tables
    pdf = generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0]
    pages = page_texts(pdf)
    sheets = [text for text in pages if text.startswith("Game math · ")]
    assert [text.split(" For ")[0] for text in sheets] == [
        "Game math · MATH-A",
        "Game math · MATH-B",
    ]
    assert pages[: len(pages) - 2] and "Collection Table" in pages[0]  # the filing comes first
    a, b = sheets
    math = game_math(game_options(first))
    assert (
        "For Trips pay table: UTH-03 · Bad Beat pay table: Option 2 · Pre-flop Play: 3x or 4x" in a
    )
    assert "Trips: pay table UTH-03" in a
    assert "Royal flush 50 to 1 1 in 30,940 0.0032%" in a
    assert "House edge 3.4979%" in a  # Trips UTH-03: real figures
    for wager in (math.trips, math.bad_beat):
        for line in wager.lines:
            row = (
                f"{hand_words(line.category)} {odds(line.odds)} {one_in(line.probability)} "
                f"{percent(line.probability)}"
            )
            assert row in a, row
        assert f"House edge {percent(wager.house_edge)}" in a
        assert f"Hit frequency {percent(wager.hit_frequency)} ({one_in(wager.hit_frequency)})" in a
        assert f"Standard deviation {number(wager.std_dev)} per $1 wagered" in a
    base = math.base_game
    for figure in (
        f"House edge per Ante {percent(base.house_edge)}",
        f"Element of risk {percent(base.element_of_risk)}",
        f"Standard deviation per Ante {number(base.std_dev)} per $1 of Ante",
        f"Average total wagered per Ante {number(base.average_wager)} per $1 of Ante",
    ):
        assert figure in a, figure
    assert "Flush 3 to 2" in a and "Royal flush 500 to 1" in a
    assert "House edge: the player-dealer's expected gain per $1 wagered" in a
    # The strategy card: the chart's 169 hands with their marks, the flop and river in words.
    for hand in base.starting_hands:
        assert f" {hand.hand} {f'{hand.multiple}x' if hand.multiple else 'check'} " in a, hand.hand
    assert " ".join(FLOP_DECISION.split()) in a
    assert "On the river. After checking twice" in a
    # MATH-B: no Bad Beat, 3x only.
    assert "Bad Beat: not offered Not offered at this table" in b
    assert "Losing hand" not in b
    assert "Pre-flop Play: 3x" in b and "3x or 4x" not in b
    three = game_math(game_options(second)).base_game
    assert f"House edge per Ante {percent(three.house_edge)}" in b


def test_the_options_in_force_at_the_end_of_the_period(two_tables, clock, staff):
    """Changed the next day: the filing for DAY keeps the sheet in force then."""
    first, _ = two_tables
    clock.set(at("2026-11-21T10:00:00"))
    floor.change_table_options(
        table_id=first.pk, by=staff.supervisor,
        changes={"trips_paytable": "UTH-01", "bad_beat_paytable": None},
    )  # fmt: skip
    then = page_texts(generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0])
    assert "Trips: pay table UTH-03" in then[-2] and "Bad Beat: pay table Option 2" in then[-2]
    now = page_texts(generate_bytes("fee_filing", gaming_day="2026-11-21", format="pdf")[0])
    assert "Trips: pay table UTH-01" in now[-2] and "Bad Beat: not offered" in now[-2]


def test_one_table_in_scope_one_page_and_the_same_bytes_again(two_tables):
    _, second = two_tables
    pdf = generate_bytes("fee_filing", gaming_day=DAY, table=second.pk, format="pdf")[0]
    sheets = [t for t in page_texts(pdf) if t.startswith("Game math · ")]
    assert len(sheets) == 1 and sheets[0].startswith("Game math · MATH-B")
    assert generate_bytes("fee_filing", gaming_day=DAY, table=second.pk, format="pdf")[0] == pdf
    everything = generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0]
    assert generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0] == everything
    # The CSV is the fees app's filing alone: no math in it.
    assert "Game math" not in generate_bytes("fee_filing", gaming_day=DAY)[0].decode()


def test_a_baccarat_tables_page_gives_each_wagers_exact_figures(clock, staff):
    """An EZ Baccarat table's page: its options in words, each wager's exact house edge to 4
    decimals of a percent, how often it wins, its standard deviation; no strategy card. The
    page is drawn as a picture for a person to look at (test-output/screenshots)."""
    clock.set(at("2026-11-20T09:00:00"))
    table = floor.create_table(
        name="BAC-MATH", by=staff.supervisor, game="ez_baccarat",
        options={"decks": 6, "tie_pays": 9, "side_wager_maximum_cents": 10_000},
    )  # fmt: skip
    schedule = schedules.create_schedule(name="BAC fees", table_id=table.pk, by=staff.supervisor)
    schedules.create_version(
        schedule_id=schedule.pk, rates=ACTION, player_dealer_basis="total_table_action",
        by=staff.supervisor,
    )  # fmt: skip
    pdf = generate_bytes("fee_filing", gaming_day=DAY, format="pdf")[0]
    sheets = [t for t in page_texts(pdf) if t.startswith("Game math · ")]
    assert len(sheets) == 1
    page = sheets[0]
    assert page.startswith("Game math · BAC-MATH · EZ Baccarat For Seats: 9 · Decks in the shoe: ")
    assert "Decks in the shoe: 6 decks · Tie pays: 9 to 1 · Dragon 7 pays: 40 to 1" in page
    assert "Side wager maximum: $100.00" in page
    figures = registry.game("ez_baccarat").sheet_math(table_options.snapshot(table))
    for square in registry.game("ez_baccarat").squares:
        edge = figures[square.name]["house_edge_percent"]
        assert f"{square.label} {edge} " in page, square.label
    assert "Banker 1.0" in page and "strategy" not in page.lower()
    out = Path(__file__).resolve().parents[3] / "test-output" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "filing.pdf"
        source.write_bytes(pdf)
        tool = shutil.which("pdftoppm")
        assert tool, "pdftoppm is missing (poppler-utils)"
        pages = len(page_texts(pdf))
        subprocess.run(
            [tool, "-png", "-r", "60", "-f", str(pages), "-l", str(pages), "-singlefile",
             str(source), str(out / "fee-filing-baccarat-math")],
            check=True,
        )  # fmt: skip
    assert (out / "fee-filing-baccarat-math.png").exists()
