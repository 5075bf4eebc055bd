"""The dealer's tablet at an EZ Baccarat table carries what the Ultimate Texas Hold'em tablet
carries (docs/console.md), by layer (the selectors, the table view, the page): the action on
the layout against the bank while wagers are taken (docs/rules.md §14.11); each seat's
collection fee for the hand and the fee lines, waived ones shown as waived (§9.4, §9.6)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from console import selectors
from fees import selectors as fee_selectors
from fees.models import FeeLine
from fees.services import waivers
from rounds import selectors as round_selectors
from rounds import services as rounds
from tests.builders.fees import table_schedule
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


def baccarat_round(staff, bank: int, wagers=WAGERS, *, fees: bool = False, **options):
    """A 9-seat EZ Baccarat table, seat 1 banking ``bank``, the wagers placed (``fees``: under
    the standard fee schedule, per betting square)."""
    options.setdefault("minimum_cents", 500)
    options.setdefault("maximum_cents", 50_000)
    table = open_floor("PPPPPPP..", staff=staff, game="ez_baccarat", name="BAC-T", **options).table
    if fees:
        table_schedule(table, by=staff.supervisor)
    give_button(table.pk, 1, by=staff.supervisor)
    round_ = start_round(table.pk, by=staff.dealer, bank=bank)
    if wagers:
        wagering.place_bets(round_id=round_.pk, bets=wagers, by=staff.dealer)
    return table, round_


def act(client, table, action: str, data: dict):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data)


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


# --- the collection fees of the hand -------------------------------------------------------

# Per betting square (tests.builders.fees.STANDARD): a player pays $0.50 on a wager up to $25,
# $1.00 up to $100; the player-dealer $0.25 and $0.50 on each of them.
SEAT_FEES = {1: (225, 0), 2: (100, 0), 3: (200, 0), 5: (100, 0), 7: (50, 0)}


def test_each_seats_fees_from_the_fee_lines(staff):
    _, round_ = baccarat_round(staff, bank=100_000, fees=True)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    found = fee_selectors.seat_fees(fee_selectors.fee_lines(round_), 1)
    assert {seat: (fee.assessed, fee.waived) for seat, fee in found.items()} == SEAT_FEES
    panda = FeeLine.objects.get(round=round_, seat=3, square="panda_8", payer_kind="player")
    waivers.waive_fee(fee_line_id=panda.pk, reason="regular comp", by=staff.supervisor)
    found = fee_selectors.seat_fees(fee_selectors.fee_lines(round_), 1)
    assert (found[3].assessed, found[3].waived, found[3].owed, found[3].all_waived) == (
        200, 50, 150, False
    )  # fmt: skip
    view = selectors.table_view(table_id=round_.table_id)
    assert view.seat_fees == found


def seat_text(body: str, seat: int) -> str:
    return words(
        body.split(f'data-seat="{seat}">', 1)[1].split('<details class="seat-panel"', 1)[0]
    )


def test_the_tablet_shows_each_seats_fee_and_the_waived_ones(as_user, staff):
    table, round_ = baccarat_round(staff, bank=100_000, fees=True)
    supervisor = as_user("supervisor")
    before = page(supervisor, table)
    assert "data-fee" not in before  # assessed at "no more bets"
    assert "The fees are assessed at “no more bets”." in words(before)
    assert "schedule version 1 (per betting square) fixed when this hand started" in words(before)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    body = page(supervisor, table)
    fees = {seat: seat_text(body, seat).split("Fee ", 1)[1] for seat in SEAT_FEES}
    assert fees == {1: "$2.25", 2: "$1.00", 3: "$2.00", 5: "$1.00", 7: "$0.50"}
    assert "Fees of this hand: $6.75 assessed, $6.75 in the drop" in words(body)
    assert body.count(">Waive</button>") == 14  # every line, to a floor supervisor
    # Seat 7's one fee waived: the seat says so; the line says who waived it and why.
    line = FeeLine.objects.get(round=round_, seat=7, payer_kind="player")
    assert (
        act(supervisor, table, "waive", {"fee_line_id": line.pk, "reason": "comp"}).status_code
        == 302
    )
    seat2 = FeeLine.objects.get(round=round_, seat=2, square="dragon_7", payer_kind="player")
    assert (
        act(supervisor, table, "waive", {"fee_line_id": seat2.pk, "reason": "comp"}).status_code
        == 302
    )
    body = page(supervisor, table)
    assert seat_text(body, 7).endswith("Fee $0.50 waived")
    assert '<div class="seat-fee waived" data-fee>Fee <s>$0.50</s> waived</div>' in body
    assert seat_text(body, 2).endswith("Fee $0.50 ($0.50 waived)")
    assert "Fees of this hand: $6.75 assessed, $1.00 waived, $5.75 in the drop" in words(body)
    assert body.count("waived by supervisor: comp") == 2
    assert body.count(">Waive</button>") == 12
    # The dealer sees the same fees and no waiver.
    dealer = page(as_user("dealer"), table)
    assert seat_text(dealer, 7).endswith("Fee $0.50 waived") and ">Waive</button>" not in dealer


def test_a_refused_waiver_opens_the_hands_drawer(as_user, staff):
    table, round_ = baccarat_round(staff, bank=100_000, fees=True)
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    line = FeeLine.objects.get(round=round_, seat=7, payer_kind="player")
    response = act(as_user("supervisor"), table, "waive", {"fee_line_id": line.pk, "reason": ""})
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    assert '<details class="panel drawer" id="hand-panel" open>' in body
    assert 'id="refusal"' in body
