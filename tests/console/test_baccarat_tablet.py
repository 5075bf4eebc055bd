"""The dealer's tablet at an EZ Baccarat table carries what the Ultimate Texas Hold'em tablet
carries (docs/console.md): the action on the layout against the bank while wagers are taken
(docs/rules.md §14.11), by layer: the money selector, the table view, the page."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from console import selectors
from rounds import selectors as round_selectors
from rounds import services as rounds
from tests.builders.floor import give_button, open_floor, start_round
from wagers import selectors as money_selectors
from wagers.rules.layout import Alarm
from wagers.services import wagering
from wagers.services.wagering import BetRequest

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# The tablet's own hand (tests/e2e/test_baccarat_tablet.py): the player-dealer in seat 1.
WAGERS = [
    BetRequest(2, banker=2_000, dragon_7=500),
    BetRequest(3, player=5_000, tie=1_000, panda_8=1_000),
    BetRequest(5, banker=10_000),
    BetRequest(7, player=2_500),
]


def baccarat_round(staff, bank: int, wagers=WAGERS, **options):
    """A 9-seat EZ Baccarat table, seat 1 banking ``bank``, the wagers placed."""
    options.setdefault("minimum_cents", 500)
    options.setdefault("maximum_cents", 50_000)
    table = open_floor("PPPPPPP..", staff=staff, game="ez_baccarat", name="BAC-T", **options).table
    give_button(table.pk, 1, by=staff.supervisor)
    round_ = start_round(table.pk, by=staff.dealer, bank=bank)
    if wagers:
        wagering.place_bets(round_id=round_.pk, bets=wagers, by=staff.dealer)
    return table, round_


def page(client, table) -> str:
    return html.unescape(client.get(reverse("console:table", args=[table.pk])).content.decode())


def words(text: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", text).split())


def section(body: str, marker: str, end: str = "</p>") -> str:
    return words(body.split(marker, 1)[1].split(end, 1)[0])


# --- the action against the bank -----------------------------------------------------------


def test_the_money_selector_gives_the_baccarat_cases(staff):
    _, round_ = baccarat_round(staff, bank=15_000)
    found = money_selectors.layout_exposure(round_selectors.round_detail(round_id=round_.pk))
    assert found is not None and found.alarm is Alarm.WORST
    assert (found.likely.case, found.likely.owed, found.likely.collected) == (
        "the Banker wins, no Dragon 7", 12_000, 10_000
    )  # fmt: skip
    assert (found.worst.owed, found.worst.paid, found.worst.uncovered) == (32_500, 18_500, 14_000)
    assert found.worst.case == "the Player wins with a Panda 8 (25 to 1)"


def test_the_table_view_carries_it_while_wagers_are_taken(staff):
    table, round_ = baccarat_round(staff, bank=100_000)
    assert selectors.table_view(table_id=table.pk).exposure.alarm is Alarm.COVERED
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    assert selectors.table_view(table_id=table.pk).exposure is None  # "no more bets"


@pytest.mark.parametrize(
    ("bank", "alarm", "likely", "worst"),
    [
        (100_000, "covered",
         "Likely: the Banker wins, no Dragon 7, every side wager loses: $120.00 owed to the "
         "winners, $100.00 collected, covered.",
         "Worst: the Player wins with a Panda 8 (25 to 1): $325.00 owed to the winners, $135.00 "
         "collected; the bank pays $325.00, a result of -$190.00, covered."),
        (15_000, "worst",
         "Likely: the Banker wins, no Dragon 7, every side wager loses: $120.00 owed to the "
         "winners, $100.00 collected, covered.",
         "Worst: the Player wins with a Panda 8 (25 to 1): $325.00 owed to the winners, $35.00 "
         "collected; the bank pays $185.00, a result of -$150.00, $140.00 could go uncovered "
         "(2 of 3 winning wagers, in settlement order)."),
        (2_000, "likely",
         "Likely: the Banker wins, no Dragon 7, every side wager loses: $120.00 owed to the "
         "winners, $0.00 collected, $100.00 could go uncovered.",
         "Worst: the Player wins with a Panda 8 (25 to 1): $325.00 owed to the winners, $20.00 "
         "collected; the bank pays $40.00, a result of -$20.00, $285.00 could go uncovered (3 of 3 "
         "winning wagers, in settlement order)."),
    ],
)  # fmt: skip
def test_the_tablet_shows_the_bank_line_red_amber_or_green(
    as_user, staff, bank, alarm, likely, worst
):
    table, _ = baccarat_round(staff, bank=bank)
    body = page(as_user("dealer"), table)
    assert f'class="exposure {alarm}" id="exposure" data-alarm="{alarm}"' in body
    assert f"Action against the bank of ${bank // 100:,}.00 (docs/rules.md §14.11)" in words(body)
    assert section(body, 'id="exposure-likely">') == likely
    assert section(body, 'id="exposure-worst">') == worst


def test_before_any_wager_the_bank_line_says_so(as_user, staff):
    table, _ = baccarat_round(staff, bank=10_000, wagers=[])
    body = page(as_user("dealer"), table)
    assert section(body, 'id="exposure"', "</div>") == (
        'data-alarm="covered"> No wagers on the layout yet: the bank of $100.00 covers up to '
        "$100.00."
    )
