"""A player-dealer's bankroll chart in a real browser (1024x768): uPlot, vendored from the
npm registry, draws the series the page ships as JSON, under the Content-Security-Policy
(``new_page`` fails on any refusal). The hand-by-hand view has a time axis in the cardroom's
time and values on hover; the by-day view a bar for each gaming day.

The live server runs in this process, so it reads the test's frozen clock: the hands are
settled on three gaming days."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from console.templatetags.console import dollars
from tables.models import DealMode
from tests.builders.money import Wager, money_table, play_round
from tests.builders.reports import at
from tests.e2e.conftest import fits_width, sign_in
from wagers.models import PlayerDealerBank

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

# Four hands a night on three gaming days; the last at 21:30 Pacific on Sunday the 22nd.
NIGHTS = ("2026-11-20T20:00:00", "2026-11-21T20:00:00", "2026-11-22T20:00:00")


def signed(cents: int) -> str:
    return f"+{dollars(cents)}" if cents > 0 else dollars(cents)


def test_a_player_dealer_reads_the_bankroll_hand_by_hand_and_by_day(
    live_server, new_page, shoot, staff, clock
):
    clock.set(at(NIGHTS[0]))
    mt = money_table(
        staff,
        {1: 60_000, 2: 200_000, 3: 200_000, 4: 60_000},
        deal_mode=DealMode.RNG,
        name="UTH-BK",
        rotation_window_minutes=None,  # nights apart: no 40-minute rule (docs/rules.md §8.12)
    )
    dealer = mt.seated[2]
    rng = random.Random(2027)
    for night in NIGHTS:
        clock.set(at(night))
        for _ in range(4):
            play_round(mt, pd_seat=2, bank=20_000, wagers=[Wager(1, 1_000), Wager(4, 500)], rng=rng)
            clock.advance(minutes=15)
            play_round(mt, pd_seat=3, bank=20_000, wagers=[Wager(1, 1_000)], rng=rng)
            clock.advance(minutes=15)
    banks = list(PlayerDealerBank.objects.filter(player=dealer).order_by("round__ended_at"))
    assert len(banks) == 12
    total = sum(b.net_cents for b in banks)
    by_day = [sum(b.net_cents for b in banks[i : i + 4]) for i in (0, 4, 8)]

    page = new_page()
    sign_in(page, live_server.url, "dealer", password="pw")
    page.goto(f"{live_server.url}/console/players/{dealer.pk}/")
    chart = page.locator("#bankroll-chart")
    expect(chart.locator("canvas")).to_have_count(1)
    drawn = chart.locator("canvas").evaluate(
        "c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; }"
    )
    assert drawn > 1000, "the canvas is drawn on"
    # Pointing at the right edge reads the last hand: when (in the cardroom's time, whatever
    # the browser's zone), which, and the total so far.
    over = chart.locator(".u-over")
    box = over.bounding_box()
    over.hover(position={"x": box["width"] - 2, "y": box["height"] / 2})
    legend = chart.locator(".u-legend")
    last = banks[-1]
    expect(legend.locator(".u-series").nth(0)).to_contain_text(
        f"Sun Nov 22, 9:30pm · UTH-BK round {last.round.number}"
    )
    expect(legend.locator(".u-series").nth(1)).to_contain_text(dollars(total))
    expect(legend.locator(".u-series").nth(2)).to_contain_text(signed(last.net_cents))
    assert fits_width(page)
    chart.scroll_into_view_if_needed()
    shoot(page, "97-bankroll-chart")

    # By gaming day: one bar a day, the day's result on hover.
    page.get_by_role("button", name="By gaming day").click()
    expect(page.get_by_role("button", name="By gaming day")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(chart).to_have_attribute("data-view", "days")
    expect(chart.locator("canvas")).to_have_count(1)
    expect(page.locator("#bankroll-caption")).to_contain_text("gaming day starts at 06:00")
    box = over.bounding_box()
    over.hover(position={"x": box["width"] / 6, "y": box["height"] / 2})  # the first bar
    expect(legend.locator(".u-series").nth(0)).to_contain_text("Fri, Nov 20, 2026 · 4 hands")
    expect(legend.locator(".u-series").nth(1)).to_contain_text(signed(by_day[0]))
    over.hover(position={"x": box["width"] * 5 / 6, "y": box["height"] / 2})  # the last
    expect(legend.locator(".u-series").nth(0)).to_contain_text("Sun, Nov 22, 2026 · 4 hands")
    expect(legend.locator(".u-series").nth(1)).to_contain_text(signed(by_day[2]))
    shoot(page, "98-bankroll-by-day")

    # And back to the hands.
    page.get_by_role("button", name="Hand by hand").click()
    expect(chart).to_have_attribute("data-view", "hands")
    expect(chart.locator("canvas")).to_have_count(1)
