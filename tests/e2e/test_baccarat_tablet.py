"""A dealer runs an EZ Baccarat hand on the tablet at 1024x768: the button, the bank, the
wagers with the action against the bank beside "no more bets", "no more bets" with each seat's
fee (a floor supervisor waives one), a coup the drawing rules refuse, the coup keyed as it is
turned face up, the settlement and its lines; each step fits the screen without scrolling
(screenshots in test-output/screenshots)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.roles import Role
from tables.models import DealMode
from tables.services import floor
from tests.builders.factories import UserFactory
from tests.builders.fees import table_schedule
from tests.builders.floor import bring_chips, give_button, start_round
from tests.e2e.conftest import fits_width, sign_in, swapped
from wagers.models import SettlementLine
from wagers.services import wagering
from wagers.services.wagering import BetRequest

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

NAMES = ["Ann Avery", "Ben Bell", "Cy Cole", "Di Dunn", "Ed Ely", "Flo Fox", "Gus Gray"]


@pytest.fixture
def baccarat_floor():
    supervisor = UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    dealer = UserFactory(username="dealer1", role=Role.HOUSE_DEALER)
    table = floor.create_table(
        name="BAC-E2E",
        by=supervisor,
        game="ez_baccarat",
        options={
            "deal_mode": DealMode.CARD_ENTRY,
            "seats": 9,
            "minimum_cents": 500,
            "maximum_cents": 50_000,
        },
    )
    for seat, name in enumerate(NAMES, start=1):
        player = floor.create_player(player_number=f"B-{seat}", name=name)
        floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=supervisor)
        bring_chips(table.pk, player, 200_000, by=dealer)
    floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
    table_schedule(table, by=supervisor)
    return table


def post(page, selector: str, button: str) -> None:
    with swapped(page):
        page.locator(selector).get_by_role("button", name=re.compile(button)).click()


def no_scroll(page) -> bool:
    """The hand fits the screen: the next action, the felt and every seat end above its
    bottom edge, and nothing overflows sideways (the table's own drawer lies below)."""
    return page.evaluate(
        "document.querySelector('#seats').getBoundingClientRect().bottom <= window.innerHeight"
        " && document.documentElement.scrollWidth <= window.innerWidth + 1"
    )


def bet(page, seat: int, **squares: str) -> None:
    page.select_option("#bet-form select[name=seat]", str(seat))
    for name, amount in squares.items():
        page.fill(f"#bet-form input[name={name}]", amount)
    post(page, "#bet-form", "Place")
    expect(page.locator(".messages")).to_contain_text(f"wagers placed at seat {seat}")


def on_screen(page, selector: str) -> None:
    """The element lies wholly within the 1024x768 screen, scrolled to the top."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= 768, f"{selector} is below the fold"
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1024, selector


def seats_fit(page) -> bool:
    """Nothing in a seat spills over its sides: every wager, fee and button inside its box."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#seats .seat')].every(seat => {
             const box = seat.getBoundingClientRect();
             return [...seat.querySelectorAll('li span, .seat-fee, summary, .chips, .said')]
               .every(e => { const r = e.getBoundingClientRect();
                             return r.left >= box.left - 0.5 && r.right <= box.right + 0.5; });
           })"""
    )


def test_a_baccarat_hand_on_the_tablet(live_server, new_page, shoot, baccarat_floor):
    base = live_server.url
    page = new_page()
    sign_in(page, base, "dealer1")
    page.goto(f"{base}/console/tables/{baccarat_floor.pk}/")
    expect(page.locator("h1")).to_contain_text("EZ Baccarat")
    expect(page.locator("#seats .seat")).to_have_count(9)
    expect(page.locator(".seat[data-seat='1'] summary")).to_have_text("Chips and seat")
    shoot(page, "bac-00-table", full_page=False)
    post(page, "#next-action", "Offer the button")
    post(page, "#next-action", "Accept")
    post(page, "#next-action", "Start the round")
    page.fill("#bank input[name=amount]", "1000")
    post(page, "#bank", "Post the bank")
    expect(page.locator("#exposure")).to_contain_text("No wagers on the layout yet")
    bet(page, 2, banker="20", dragon_7="5")
    bet(page, 3, player_wager="50", tie="10", panda_8="10")
    bet(page, 5, banker="500", dragon_7="100")
    bet(page, 7, player_wager="25")
    expect(page.locator(".seat[data-seat='3']")).to_contain_text("Tie $10.00")
    # The Banker winning costs the $1,000 bank $320; Dragon 7s would cost $4,105: amber.
    expect(page.locator("#exposure")).to_have_attribute("data-alarm", "worst")
    expect(page.locator("#exposure-likely")).to_contain_text(
        "the Banker wins, no Dragon 7, every side wager loses: $520.00 owed to the winners, "
        "$200.00 collected, covered."
    )
    expect(page.locator("#exposure-worst")).to_contain_text(
        "the Banker wins with a Dragon 7 (40 to 1; the Banker wagers push): $4,200.00 owed"
    )
    expect(page.locator("#exposure-uncovered")).to_have_text("$3,130.00 could go uncovered")
    on_screen(page, "#exposure")
    shoot(page, "bac-01-wagers", full_page=False)
    assert no_scroll(page) and seats_fit(page)
    post(page, "#next-action", "No more bets")
    expect(page.locator("#round-state")).to_have_text("No more bets")
    expect(page.locator(".seat[data-seat='1'] .seat-fee")).to_have_text("Fee $3.25")
    expect(page.locator(".seat[data-seat='7'] .seat-fee")).to_have_text("Fee $0.50")
    expect(page.locator("#fee-totals")).to_contain_text("Fees of this hand: $9.75 assessed")
    shoot(page, "bac-02-no-more-bets", full_page=False)
    assert no_scroll(page) and seats_fit(page)
    # A floor supervisor waives seat 7's fee from the hand's drawer, with a reason.
    supervisor = new_page()
    sign_in(supervisor, base, "sup")
    supervisor.goto(f"{base}/console/tables/{baccarat_floor.pk}/")
    supervisor.locator("#hand-panel > summary").click()
    line = supervisor.locator("#fees tr", has_text="Gus Gray (Player)")
    line.locator("input[name=reason]").fill("regular's birthday")
    with supervisor.expect_navigation():
        line.get_by_role("button", name="Waive").click()
    supervisor.locator("#hand-panel > summary").click()
    expect(supervisor.locator("#fees")).to_contain_text("waived by sup: regular's birthday")
    supervisor.locator("#hand-panel").scroll_into_view_if_needed()
    shoot(supervisor, "bac-02b-fee-waived")
    page.reload()
    expect(page.locator(".seat[data-seat='7'] .seat-fee")).to_have_text("Fee $0.50 waived")
    expect(page.locator("#fee-totals")).to_contain_text("$0.50 waived, $9.25 in the drop")
    # A coup the drawing rules refuse: the refusal names the action and the rule, and
    # nothing is recorded.
    page.fill("#coup-form input[name=cards]", "9h 2c Kd 5s 4d")
    post(page, "#coup-form", "Record the coup")
    expect(page.locator("#refusal")).to_contain_text("Refused: deal the coup.")
    expect(page.locator("#refusal")).to_contain_text("drawing rules")
    expect(page.locator("#coup-form input[name=cards]")).to_have_value("")
    shoot(page, "bac-03-coup-refused", full_page=False)
    assert no_scroll(page)
    # Player 2+3+6 = 1, Banker 4+K+3 = 7 with three cards: a Dragon 7.
    page.fill("#coup-form input[name=cards]", "2h 4d 3c Ks 6s 3h")
    post(page, "#coup-form", "Record the coup")
    expect(page.locator("#coup-outcome")).to_contain_text("Banker wins, 7 to 1: a Dragon 7")
    expect(page.locator("#player-hand")).to_contain_text("1")
    shoot(page, "bac-04-the-coup", full_page=False)
    assert no_scroll(page)
    post(page, "#next-action", "Settle")
    expect(page.locator(".messages")).to_contain_text("settled")
    # Seat 2's Dragon 7 is paid $200, seat 5's $870 of $4,000: the bank is exhausted.
    expect(page.locator(".seat[data-seat='2']")).to_contain_text("+$200.00")
    expect(page.locator(".seat[data-seat='5']")).to_contain_text("+$870.00")
    shoot(page, "bac-05-settled", full_page=False)
    assert no_scroll(page) and fits_width(page) and seats_fit(page)
    rows = page.locator("#settlement-lines tbody tr")
    expect(rows).to_have_count(8)
    expect(rows.nth(6)).to_contain_text("UNCOVERED $3,130.00 unpaid")
    expect(rows.nth(6)).to_contain_text("-$1,000.00")
    expect(rows.nth(7)).to_contain_text("UNCOVERED $25.00 returned")
    expect(page.locator("#last-hand")).to_contain_text("bank exhausted")
    page.locator("#last-hand").scroll_into_view_if_needed()
    shoot(page, "bac-06-settlement-lines", full_page=False)
    assert fits_width(page)
    assert SettlementLine.objects.filter(round__table=baccarat_floor).count() == 8


@pytest.fixture
def full_baccarat_table():
    """Nine seats taken; seat 1 banks $5,000 and seats 2 to 9 each wager $500 on every square
    they may (the base wager and the three side wagers): the most a seat shows."""
    supervisor = UserFactory(username="sup", role=Role.FLOOR_SUPERVISOR)
    dealer = UserFactory(username="dealer1", role=Role.HOUSE_DEALER)
    table = floor.create_table(
        name="BAC-FULL", by=supervisor, game="ez_baccarat",
        options={"deal_mode": DealMode.CARD_ENTRY, "seats": 9, "minimum_cents": 500,
                 "maximum_cents": 50_000},
    )  # fmt: skip
    for seat, name in enumerate([*NAMES, "Hal Hunt", "Ivy Ives"], start=1):
        player = floor.create_player(player_number=f"F-{seat}", name=name)
        floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=supervisor)
        bring_chips(table.pk, player, 1_000_000, by=dealer)
    floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
    table_schedule(table, by=supervisor)
    give_button(table.pk, 1, by=dealer)
    round_ = start_round(table.pk, by=dealer, bank=500_000)
    wagering.place_bets(
        round_id=round_.pk,
        bets=[
            BetRequest(seat, **{"player" if seat % 2 else "banker": 50_000},
                       tie=50_000, dragon_7=50_000, panda_8=50_000)
            for seat in range(2, 10)
        ],
        by=dealer,
    )  # fmt: skip
    return table


def test_a_full_baccarat_table_fits_the_tablet(live_server, new_page, shoot, full_baccarat_table):
    base = live_server.url
    page = new_page()
    sign_in(page, base, "dealer1")
    page.goto(f"{base}/console/tables/{full_baccarat_table.pk}/")
    expect(page.locator(".seat[data-seat='9']")).to_contain_text("Panda 8 $500.00")
    expect(page.locator("#all-wagered")).to_have_text(
        "Every seated player has wagered: call “no more bets”."
    )
    expect(page.locator("#bet-form")).to_have_count(0)
    # A Dragon 7 at four seats at 40 to 1 owes $80,000 against a $5,000 bank: red or amber.
    expect(page.locator("#exposure-worst")).to_contain_text("could go uncovered")
    on_screen(page, "#exposure")
    shoot(page, "bac-10-full-wagers", full_page=False)
    assert no_scroll(page) and seats_fit(page) and fits_width(page)
    post(page, "#next-action", "No more bets")
    expect(page.locator(".seat[data-seat='9'] .seat-fee")).to_have_text("Fee $8.00")
    shoot(page, "bac-11-full-no-more-bets", full_page=False)
    assert no_scroll(page) and seats_fit(page)
    # A Panda 8: Player 2-3 draws a 3 for 8, Banker 0 draws a 5.
    page.fill("#coup-form input[name=cards]", "2h Kd 3c Ks 3s 5d")
    post(page, "#coup-form", "Record the coup")
    expect(page.locator("#coup-outcome")).to_contain_text("Player wins, 8 to 5: a Panda 8")
    shoot(page, "bac-12-full-coup", full_page=False)
    assert no_scroll(page) and seats_fit(page)
    post(page, "#next-action", "Settle")
    expect(page.locator("#last-hand")).to_contain_text("bank exhausted")
    shoot(page, "bac-13-full-settled", full_page=False)
    assert no_scroll(page) and seats_fit(page) and fits_width(page)
    page.locator("#last-hand").scroll_into_view_if_needed()
    shoot(page, "bac-14-full-settlement-lines")
    assert fits_width(page)
