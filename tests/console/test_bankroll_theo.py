"""The bankroll page's theo beside actual (docs/rules.md §13.5), in dollars, on the scripted
history of ``tests.builders.theo.theo_history``: the player-dealer's panel, each bank's
theo, and the series the chart draws (the theo line and its band of two standard
deviations, in whole cents, beside the actual result)."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from cardroom.money import dollars, whole_cents
from tests.builders.theo import expected_figures, expected_hand, theo_history

pytestmark = pytest.mark.django_db


def test_the_bankroll_page_shows_theo_actual_and_standard_deviations_in_dollars(
    as_user, staff, clock
):
    mt, banked, _ = theo_history(staff, clock)
    figures = expected_figures(banked)
    page = as_user("supervisor").get(reverse("console:bankroll", args=[mt.seated[1].pk]))
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", page.content.decode())
    summary = text[text.index('id="theo-summary"') :]
    summary = re.sub(r"<[^>]+>", "", summary[: summary.index("</p>")])
    assert (
        f"Theo {dollars(whole_cents(figures.theo))} · actual {dollars(figures.actual)}" in summary
    )
    assert (
        f"Actual minus theo {dollars(whole_cents(figures.difference))}: "
        f"{figures.std_devs:.2f} standard deviations" in summary
    )
    # Each bank posted, with its own theo to the cent.
    for round_ in banked:
        theo, _ = expected_hand(round_)
        assert f'<td class="num">{dollars(whole_cents(theo))}</td>' in text


def test_the_chart_draws_the_theo_line_and_its_band(as_user, staff, clock):
    mt, banked, _ = theo_history(staff, clock)
    page = as_user("dealer").get(reverse("console:bankroll", args=[mt.seated[1].pk]))
    found = re.search(
        r'<script id="bankroll-series" type="application/json">(.*?)</script>',
        page.content.decode(),
        re.S,
    )
    series = json.loads(found.group(1))
    expected, variance = Decimal(0), Decimal(0)
    line, low, high, own = [], [], [], []
    for round_ in banked:
        theo, spread = expected_hand(round_)
        expected += theo
        variance += spread * spread
        band = 2 * variance.sqrt()
        line.append(whole_cents(expected))
        low.append(whole_cents(expected - band))
        high.append(whole_cents(expected + band))
        own.append(whole_cents(theo))
    assert series["theo"] == {"expected": line, "low": low, "high": high, "hand": own}
    assert series["hands"]["result"][-1] == expected_figures(banked).actual
    assert all(lo <= mid <= hi for lo, mid, hi in zip(low, line, high, strict=True))


def test_a_player_without_a_theo_says_so(as_user, card_table):
    page = as_user("dealer").get(reverse("console:bankroll", args=[card_table.seated[1].pk]))
    assert "Theo: no hand with a theo yet" in page.content.decode()
