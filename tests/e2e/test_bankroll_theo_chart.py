"""The bankroll chart's theo beside actual (docs/rules.md §13.5) in a real browser, at the
tablet's 1024x768 and a desktop's 1440x900: the actual result, the theo line and the shaded
band of two standard deviations around it, drawn by uPlot from the JSON the page ships
(under the Content-Security-Policy: ``new_page`` fails on any refusal), with a legend a
floor supervisor reads in dollars. Screenshots under test-output/screenshots/.

The hands are dealt by the RNG over three nights, two player-dealers in turn (the live
server reads the test's frozen clock)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from console.selectors import bankroll_chart
from console.templatetags.console import dollars
from tables.models import DealMode
from tests.builders.money import Wager, money_table, play_round
from tests.builders.reports import at
from tests.e2e.conftest import fits_width, sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1440, "height": 900}
NIGHTS = ("2026-11-20T20:00:00", "2026-11-21T20:00:00", "2026-11-22T20:00:00")
# Band pixels: the canvas is transparent over the white box, so the band's fill
# rgba(31, 95, 168, 0.14) reads back as that colour with a low alpha.
BAND_PIXELS = (
    "c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
    " let n = 0; for (let i = 0; i < d.length; i += 4) {"
    " const [r, g, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];"
    " if (a > 20 && a < 60 && Math.abs(r - 31) < 12 && Math.abs(g - 95) < 12"
    " && Math.abs(b - 168) < 12) n++; } return n; }"
)


@pytest.fixture
def dealer(staff, clock):
    clock.set(at(NIGHTS[0]))
    mt = money_table(
        staff,
        {1: 400_000, 2: 400_000, 3: 400_000, 4: 400_000},
        deal_mode=DealMode.RNG,
        name="UTH-3",
        rotation_window_minutes=None,  # nights apart: no 40-minute rule
    )
    rng = random.Random(2031)
    for night in NIGHTS:
        clock.set(at(night))
        for _ in range(5):
            wagers = [Wager(1, 2_500, trips=500, bad_beat=500), Wager(4, 1_000, trips=500)]
            play_round(mt, pd_seat=2, bank=60_000, wagers=wagers, rng=rng)
            clock.advance(minutes=10)
            play_round(mt, pd_seat=3, bank=60_000, wagers=[Wager(1, 1_000)], rng=rng)
            clock.advance(minutes=10)
    return mt.seated[2]


def signed(cents: int) -> str:
    return f"+{dollars(cents)}" if cents > 0 else dollars(cents)


def open_chart(page, base_url: str, player_id: int):
    sign_in(page, base_url, "supervisor", password="pw")
    page.goto(f"{base_url}/console/players/{player_id}/")
    chart = page.locator("#bankroll-chart")
    expect(chart.locator("canvas")).to_have_count(1)
    return chart


@pytest.mark.parametrize(
    ("viewport", "shot"),
    [(None, "96-bankroll-theo-1024"), (DESKTOP, "96-bankroll-theo-1440")],
    ids=["1024x768", "1440x900"],
)
def test_the_chart_shows_actual_beside_theo_with_its_band(
    live_server, new_page, shoot, dealer, viewport, shot
):
    series = bankroll_chart(dealer).data
    theo, hands = series["theo"], series["hands"]
    assert len(hands["time"]) == 15
    page = new_page(viewport) if viewport else new_page()
    chart = open_chart(page, live_server.url, dealer.pk)
    canvas = chart.locator("canvas")
    assert canvas.evaluate(BAND_PIXELS) > 2_000, "the band is shaded"
    legend = chart.locator(".u-legend")
    labels = legend.locator(".u-series:visible th")
    expect(labels).to_have_text(
        [
            "Hand",
            "Actual result so far",
            "This hand",
            "Theo so far",
            "Usual range (theo ± 2 standard deviations)",
        ]
    )
    # The band's low edge has no row of its own: it is read with the high one.
    expect(legend.locator(".u-series.legend-hidden")).to_be_hidden()
    page.locator("#bankroll").scroll_into_view_if_needed()
    over = chart.locator(".u-over")
    box = over.bounding_box()
    over.hover(position={"x": box["width"] - 2, "y": box["height"] / 2})  # the last hand
    rows = legend.locator(".u-series")
    expect(rows.nth(1)).to_contain_text(dollars(hands["result"][-1]))
    expect(rows.nth(2)).to_contain_text(f"(theo {signed(theo['hand'][-1])})")
    expect(rows.nth(3)).to_contain_text(dollars(theo["expected"][-1]))
    expect(rows.nth(4)).to_contain_text(
        f"{dollars(theo['low'][-1])} to {dollars(theo['high'][-1])}"
    )
    caption = page.locator("#bankroll-caption")
    expect(caption).to_contain_text("Blue line: theo")
    expect(caption).to_contain_text("theo ± 2 standard deviations")
    expect(page.locator("#theo-summary")).to_contain_text("standard deviations")
    assert fits_width(page)
    shoot(page, shot)
