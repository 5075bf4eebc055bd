"""The dealer's tablet at an EZ Baccarat table carries what the Ultimate Texas Hold'em tablet
carries (docs/console.md), by layer (the selectors, the table view, the page): the action on
the layout against the bank while wagers are taken (docs/rules.md §14.11); each seat's
collection fee for the hand and the fee lines, waived ones shown as waived (§9.4, §9.6); the
settled coup's lines in settlement order with the running net (§14.6, §7.3); a refusal's
heading in the game's own words ("Refused: deal the coup.")."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from cardroom.money import dollars
from console import selectors
from console.models import StaffAction
from console.views.table import action_label
from fees import selectors as fee_selectors
from fees.models import FeeLine
from fees.services import waivers
from games import catalog
from games.registry import game as catalog_game
from rounds import selectors as round_selectors
from rounds import services as rounds
from tests.builders.fees import table_schedule
from tests.builders.floor import give_button, open_floor, start_round
from wagers import selectors as money_selectors
from wagers.models import Bet
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


def act(client, table, action: str, data: dict, **headers):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data, **headers)


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


# --- the settlement lines ------------------------------------------------------------------

# A Panda 8: Player 2-3 draws a 3 for 8, Banker 0 draws a 5.
PANDA_8 = ["2h", "Kd", "3c", "Ks", "3s", "5d"]
# The $150 bank settled on it, from seat 2 (the player-dealer's left): (order, seat, wager,
# stake, outcome, paid, collected, returned uncovered, unpaid uncovered, running net).
PANDA_8_LINES = [
    (1, 2, "banker", 2_000, "lose", 0, 2_000, 0, 0, 2_000),
    (2, 2, "dragon_7", 500, "lose", 0, 500, 0, 0, 2_500),
    (3, 3, "player", 5_000, "win", 5_000, 0, 0, 0, -2_500),
    (4, 3, "tie", 1_000, "lose", 0, 1_000, 0, 0, -1_500),
    (5, 3, "panda_8", 1_000, "win", 13_500, 0, 0, 11_500, -15_000),  # the bank is exhausted
    (6, 5, "banker", 10_000, "lose", 0, 0, 10_000, 0, -15_000),
    (7, 7, "player", 2_500, "win", 0, 0, 0, 2_500, -15_000),
]


def settled_coup(staff, bank=15_000, cards=PANDA_8):
    table, round_ = baccarat_round(staff, bank=bank, deal_mode="card_entry")
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    rounds.showdown(round_id=round_.pk, by=staff.dealer, entry={"cards": cards})
    rounds.settle(round_id=round_.pk, by=staff.dealer)
    return table, round_


def test_the_settlement_selector_gives_the_running_net(staff):
    _, round_ = settled_coup(staff)
    settlement = money_selectors.round_settlement(round_.pk)
    assert [
        (line.order, line.seat, line.wager, line.stake_cents, line.outcome, line.paid_cents,
         line.collected_cents, line.returned_uncovered_cents, line.unpaid_uncovered_cents, net)
        for line, net in settlement.running
    ] == PANDA_8_LINES  # fmt: skip
    assert settlement.running[-1][1] == settlement.bank.net_cents == -15_000


def cells(row: str) -> list[str]:
    return [words(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_the_tablet_shows_every_line_in_settlement_order(as_user, staff):
    table, round_ = settled_coup(staff)
    body = page(as_user("dealer"), table)
    section = body.split('id="last-hand"', 1)[1].split("</section>", 1)[0]
    assert "Settlement of round 1" in section
    assert words(section.split("<p>Bank", 1)[1].split("</p>", 1)[0]) == (
        "$150.00 · player-dealer's net -$150.00 · bank remaining $0.00 · bank exhausted"
    )
    lines = section.split('id="settlement-lines">', 1)[1].split("</table>", 1)[0]
    head = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", lines)
    assert head == ["#", "Seat", "Bettor", "Wager", "Stake", "Outcome", "Paid", "Collected",
                    "Returned uncovered", "Unpaid uncovered", "Running net"]  # fmt: skip
    rows = re.findall(r'<tr class="[^"]*" data-order="\d+">(.*?)</tr>', lines, re.S)
    names = {bet.hand.seat: bet.player.name for bet in Bet.objects.filter(hand__round=round_)}
    assert [cells(row) for row in rows] == [
        [str(order), str(seat), names[seat], label, dollars(stake), outcome, dollars(paid),
         dollars(collected),
         f"UNCOVERED {dollars(returned)} returned" if returned else "",
         f"UNCOVERED {dollars(unpaid)} unpaid" if unpaid else "",
         ("+" if net > 0 else "-" if net < 0 else "") + dollars(abs(net))]
        for order, seat, wager, stake, outcome, paid, collected, returned, unpaid, net
        in PANDA_8_LINES
        for label in [{"banker": "Banker", "dragon_7": "Dragon 7", "player": "Player",
                       "tie": "Tie", "panda_8": "Panda 8"}[wager]]
    ]  # fmt: skip
    assert f'calculator/?round={round_.pk}">Check it in the settlement calculator' in section
    assert "Fees of that hand: $0.00" in section  # no fee schedule at this table
    # The seats show their results beside it, and the felt the coup.
    assert "Player wins, 8 to 5: a Panda 8" in words(body)


def test_the_calculator_request_of_a_settled_coup_settles_it_as_stored(staff):
    _, round_ = settled_coup(staff)
    round_.refresh_from_db()
    request_ = money_selectors.calculator_request(round_)
    assert request_["options"]["game"] == "ez_baccarat"
    assert request_["options"]["table_minimum_cents"] == 500
    assert request_["player_dealer"] == {"seat": 1, "bank": 15_000}
    assert request_["cards"] == PANDA_8
    assert request_["seats"][1] == {
        "seat": 3, "player": 5_000, "banker": 0, "tie": 1_000, "dragon_7": 0, "panda_8": 1_000
    }  # fmt: skip
    answer = catalog_game("ez_baccarat").settle_request(request_)
    assert [
        (line["seat"], line["wager"], line["stake"], line["outcome"], line["paid"],
         line["collected"], line["returned_uncovered"], line["unpaid_uncovered"])
        for line in answer["settlement"]
    ] == [row[1:9] for row in PANDA_8_LINES]  # fmt: skip
    assert answer["player_dealer_net"] == -15_000


def test_the_tablet_links_the_tables_game_math(as_user, staff):
    table, _ = baccarat_round(staff, bank=15_000)
    body = page(as_user("dealer"), table)
    math = reverse("console:table-math", args=[table.pk])
    assert f'href="{math}" id="game-math"' in body
    assert as_user("dealer").get(math).status_code == 200


def test_a_settled_coup_opens_on_the_calculators_baccarat_form(as_user, staff):
    _, round_ = settled_coup(staff)
    answer = as_user("supervisor").get(reverse("console:calculator") + f"?round={round_.pk}")
    assert answer.status_code == 200
    body = html.unescape(answer.content.decode())
    assert '"game": "ez_baccarat"' in body
    assert "Panda 8" in words(body)
    assert "-$150.00" in words(body)  # the player-dealer's net, settled again


# --- a refusal's heading -------------------------------------------------------------------


def test_a_refused_coup_reads_deal_the_coup_on_the_page_and_the_trail(as_user, staff):
    table, round_ = baccarat_round(staff, bank=100_000, deal_mode="card_entry")
    rounds.close_wagering(round_id=round_.pk, by=staff.dealer)
    dealer = as_user("dealer")
    # A third card after a natural 9: the drawing rules refuse it, nothing is recorded.
    data = {"round_id": round_.pk, "cards": "9h 2c Kd 5s 4d"}
    response = act(dealer, table, "showdown", data)
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    refusal = body.split('id="refusal">', 1)[1].split("</div>", 1)[0]
    assert words(refusal).startswith(
        "Refused: deal the coup. no card is dealt here: the Player hand has a natural 9, so "
        "neither hand draws (rule: the drawing rules of baccarat, docs/rules.md §14.3)"
    )
    assert "Refused: showdown." not in body and "9h 2c" not in refusal
    swapped = html.unescape(act(dealer, table, "showdown", data, **HX).content.decode())
    assert "<p>Refused: deal the coup.</p>" in swapped
    trail = StaffAction.objects.filter(table_id=table.pk, action="deal the coup")
    assert trail.count() == 2
    assert not StaffAction.objects.filter(table_id=table.pk, action="showdown").exists()


def test_every_other_refusal_is_headed_by_its_actions_label(as_user, staff):
    table, round_ = baccarat_round(staff, bank=100_000, wagers=[])
    response = act(as_user("dealer"), table, "bet", {"round_id": round_.pk, "seat": 2, "tie": 5})
    assert response.status_code == 400
    body = html.unescape(response.content.decode())
    assert "<p>Refused: place wagers.</p>" in body and "Refused: bet." not in body
    assert "a base wager on Player or on Banker is required" in body


def test_the_action_label_is_the_games_own_or_the_actions():
    baccarat, uth = SimpleNamespace(game="ez_baccarat"), SimpleNamespace(game="")
    for table in (baccarat, uth):
        table.game_listing = catalog.listing(table.game)
    assert action_label("showdown", baccarat) == "deal the coup"
    assert action_label("showdown", uth) == "showdown"
    assert action_label("bet", baccarat) == action_label("bet", uth) == "place wagers"
