"""The game math page of a table (docs/console.md): each wager's pay table and figures, in the
floor's words, and the strategy card, for the options in force; reached from the options
sheet, for floor supervisors as the options sheet is.

The Bad Beat's and the base game's counts are provisional until the enumeration is done, so
every expected string is derived from the game math core (``wagers.rules.gamemath``) and
written by the one formatter (``cardroom.figures``); only the Trips figures, already real,
are written out.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.urls import reverse

from cardroom.figures import number, odds, one_in, percent
from tables.options import game_options
from tables.rules.paytables import BLIND
from tables.services import floor
from tests.console.test_floor_words import internal_names, visible_text
from wagers import math_sheet as sheet_module
from wagers.math_sheet import hand_words
from wagers.rules.gamemath import FLOP_DECISION, RANKS, RIVER_DECISION, game_math

pytestmark = pytest.mark.django_db

CELL = re.compile(
    r'<td class="(raise|check) (pair|suited|offsuit)" data-hand="([^"]+)" data-mark="([^"]+)"'
)


def math_url(table) -> str:
    return reverse("console:table-math", args=[table.pk])


@pytest.fixture
def uth03(supervisor):
    return floor.create_table(
        name="MATH-1",
        by=supervisor,
        options={"trips_paytable": "UTH-03", "bad_beat_paytable": "option-2"},
    )


@pytest.fixture
def no_bad_beat(supervisor):
    return floor.create_table(
        name="MATH-2",
        by=supervisor,
        options={"bad_beat_paytable": None, "preflop_multiples": [3]},
    )


def page_of(client, table) -> tuple[str, str]:
    response = client.get(math_url(table))
    assert response.status_code == 200
    html = response.content.decode()
    return html, visible_text(html)


def test_the_options_sheet_links_to_the_game_math(as_user, uth03):
    page = as_user("supervisor").get(reverse("console:table-options", args=[uth03.pk]))
    assert f'href="{math_url(uth03)}"' in page.content.decode()
    assert "Game math for the options in force" in page.content.decode()


def test_the_dealers_table_view_links_to_the_strategy_card(as_user, uth03):
    page = as_user("dealer").get(reverse("console:table", args=[uth03.pk])).content.decode()
    link = f'href="{math_url(uth03)}" id="game-math" title="game math and strategy card">'
    assert f"{link}game math</a>" in page


def test_each_wager_in_the_floors_words(as_user, uth03):
    _, text = page_of(as_user("supervisor"), uth03)
    math = game_math(game_options(uth03))
    assert (
        "For Trips pay table: UTH-03 · Bad Beat pay table: Option 2 · Pre-flop Play: 3x or 4x"
        in text
    )
    # Trips, UTH-03: the figures already real, written out.
    assert "Trips pay table UTH-03" in text
    assert "Royal flush 50 to 1 1 in 30,940 0.0032%" in text
    assert "Three of a kind 3 to 1 1 in 20.7 4.8299%" in text
    assert "House edge 3.4979% the player-dealer's expected gain per $1 wagered" in text
    # Every line and figure of both side wagers, as the core gives them.
    for wager in (math.trips, math.bad_beat):
        for line in wager.lines:
            row = (
                f"{hand_words(line.category)} {odds(line.odds)} {one_in(line.probability)} "
                f"{percent(line.probability)}"
            )
            assert row in text, row
        assert f"House edge {percent(wager.house_edge)} " in text
        hit = f"Hit frequency {percent(wager.hit_frequency)} ({one_in(wager.hit_frequency)})"
        assert hit in text
        assert f"Standard deviation {number(wager.std_dev)} per $1 wagered" in text
    assert "Losing hand Pays How often Chance Straight flush 7,500 to 1" in text
    # The Blind's fixed table and the base game's figures.
    for category, paid in BLIND.odds:
        assert f"{hand_words(category)} {odds(paid)}" in text
    assert "Flush 3 to 2" in text
    base = math.base_game
    for figure in (
        f"House edge per Ante {percent(base.house_edge)} the player-dealer's expected gain per "
        "$1 of Ante",
        f"Element of risk {percent(base.element_of_risk)}",
        f"Standard deviation per Ante {number(base.std_dev)} per $1 of Ante",
        f"Average total wagered per Ante {number(base.average_wager)} per $1 of Ante",
    ):
        assert figure in text, figure
    assert re.search(r"\d\.\d{4}%", text)  # four decimals of a percent
    assert internal_names(text) == []


def test_the_chart_has_every_starting_hand_with_its_decision(as_user, uth03):
    html, text = page_of(as_user("supervisor"), uth03)
    base = game_math(game_options(uth03)).base_game
    cells = CELL.findall(html)
    assert len(cells) == 169
    assert {hand for *_, hand, _ in cells} == {h.hand for h in base.starting_hands}
    expected = {h.hand: (f"{h.multiple}x" if h.multiple else "check") for h in base.starting_hands}
    for kind_class, kind, hand, mark in cells:
        assert mark == expected[hand], hand
        assert kind_class == ("raise" if mark != "check" else "check")
        assert kind == ("pair" if len(hand) == 2 else "suited" if hand[2] == "s" else "offsuit")
    # The usual layout: row by row, pairs on the diagonal, suited above, offsuit below.
    for index, (*_, hand, _) in enumerate(cells):
        row, column = divmod(index, 13)
        high, low = RANKS[min(row, column)], RANKS[max(row, column)]
        suffix = "" if row == column else "s" if column > row else "o"
        assert hand == high + low + suffix
    assert f"On the flop. {FLOP_DECISION}" in text
    assert f"On the river. {RIVER_DECISION}" in text
    assert "Pairs on the diagonal, suited hands above it, offsuit hands below it" in text


def test_the_chart_marks_the_raises_at_the_best_multiple(as_user, uth03, monkeypatch):
    """Whatever the counts say today: hands the core raises are marked with its multiple, in
    the legend too (a pair or a suited ace raised 4x, as the optimum does with 3x or 4x)."""
    real = game_math

    def raising(options):
        math = real(options)
        best = max(options.allowed_preflop_multiples)
        hands = tuple(
            replace(h, multiple=best)
            if h.hand[0] == h.hand[1] or (h.hand[0] == "A" and h.hand.endswith("s"))
            else replace(h, multiple=0)
            for h in math.base_game.starting_hands
        )
        return replace(math, base_game=replace(math.base_game, starting_hands=hands))

    monkeypatch.setattr(sheet_module, "game_math", raising)
    html, text = page_of(as_user("supervisor"), uth03)
    marks = {hand: mark for *_, hand, mark in CELL.findall(html)}
    assert marks["AA"] == marks["22"] == marks["A2s"] == "4x"
    assert marks["AKo"] == marks["72o"] == "check"
    assert sum(mark == "4x" for mark in marks.values()) == 13 + 12
    assert "4x raise: Play 4 times the Ante before the flop" in text
    assert "check check before the flop" in text
    assert "Raise with 25 of the 169 starting hands (9.5% of deals)" in text  # 126 of 1,326
    assert 'title="AKs: raise 4x"' in html


def test_a_table_without_a_bad_beat_says_so(as_user, no_bad_beat):
    _, text = page_of(as_user("supervisor"), no_bad_beat)
    assert "Bad Beat pay table: not offered" in text
    assert "Bad Beat not offered Not offered at this table" in text
    assert "Losing hand" not in text
    base = game_math(game_options(no_bad_beat)).base_game
    assert base.allowed_multiples == (3,)
    assert f"House edge per Ante {percent(base.house_edge)}" in text
    assert "Pre-flop Play: 3x" in text and "3x or 4x" not in text


@pytest.mark.parametrize(("who", "math", "options"), [
    ("supervisor", 200, 200), ("administrator", 200, 200), ("dealer", 200, 403),
    ("compliance", 200, 403), ("no_role", 403, 403), ("not_staff", 403, 403),
])  # fmt: skip
def test_everyone_on_the_floor_reads_the_game_math(as_user, uth03, who, math, options):
    client = as_user(who)
    assert client.get(math_url(uth03)).status_code == math
    assert client.get(reverse("console:table-options", args=[uth03.pk])).status_code == options


def test_signed_out_goes_to_sign_in_and_nothing_is_posted(client, as_user, uth03):
    response = client.get(math_url(uth03))
    assert response.status_code == 302 and reverse("console:login") in response.url
    assert as_user("supervisor").post(math_url(uth03)).status_code == 405


def test_the_sheet_follows_the_options_in_force(as_user, uth03, supervisor):
    client = as_user("supervisor")
    floor.change_table_options(
        table_id=uth03.pk, by=supervisor, changes={"trips_paytable": "UTH-02"}
    )
    _, text = page_of(client, uth03)
    uth03.refresh_from_db()
    uth02 = game_math(game_options(uth03)).trips
    assert "Trips pay table UTH-02" in text
    assert f"House edge {percent(uth02.house_edge)} " in text
    assert "Full house 8 to 1" in text and "Straight 5 to 1" in text
