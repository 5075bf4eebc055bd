"""In a real browser, the card-entry tablet (1024x768) through a whole hand (docs/rules.md
§2.3, §2.6): the cards dealt face down with nothing keyed, the board keyed as it is turned,
the hole cards keyed only at the showdown (the folded hand with no Trips wager mucked).
Nothing on the screen names a hole card before the showdown: no echo, no refusal, no form
refilled; a refused entry names no card typed but one already on the board."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.errors import State
from console.templatetags.console import card
from tables.models import DealMode, Round
from tests.builders.floor import make_staff
from tests.builders.money import Wager, money_table, play_round
from tests.e2e.conftest import SCREENSHOTS, TABLET, sign_in, swapped

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

BOARD = ["7c", "8d", "9s", "Jc", "Qd"]
# Seat 2 banks. Seat 1 plays; seat 3 folds with no Trips wager (mucked); seat 4 folds with
# a Trips wager (turned face up at the showdown). Keyed in picker order.
PLAYER_DEALER, SEAT_1, SEAT_4 = ["2c", "3d"], ["Ah", "Ad"], ["9h", "9c"]
HOLES = [*PLAYER_DEALER, *SEAT_1, *SEAT_4]
CARD_TEXT = re.compile(r"(?<![\w$.,])(10|[2-9JQKA])[♠♥♦♣]")


def screenshot(page, name: str):
    """The tablet's screen as the dealer sees it (1024x768, not the full page)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def screen_cards(page) -> set[str]:
    """Every card named in words or faces on the page, but in the picker's 52 buttons, plus
    every card code in a text field."""
    text = page.evaluate(
        """() => {
        const copy = document.body.cloneNode(true);
        copy.querySelectorAll('.picker').forEach(p => p.remove());
        const typed = [...document.querySelectorAll('input[type=text]')].map(i => i.value);
        return copy.innerText + ' ' + typed.join(' ');
    }"""
    )
    faces = {match.group(0) for match in CARD_TEXT.finditer(text)}
    return faces | set(re.findall(r"\b[2-9TJQKA][cdhs]\b", text))


def assert_no_hole_card_on_screen(page, board=()) -> None:
    shown = screen_cards(page)
    holes = {*HOLES, *(card(code) for code in HOLES)}
    assert not shown & holes, shown & holes
    assert shown <= {*board, *(card(code) for code in board)}, shown


def post(page, form: str, button: str) -> None:
    with swapped(page):
        page.locator(form).get_by_role("button", name=re.compile(button)).click()


def pick(page, form: str, cards: list[str]) -> None:
    for code in cards:
        page.locator(f"{form} button[data-card='{code}']").click()


def decide(page, seat: int, label: str) -> None:
    with swapped(page):
        page.locator(f"#decisions [data-seat='{seat}']").get_by_role("button", name=label).click()


def test_the_card_entry_tablet_names_no_hole_card_before_the_showdown(live_server, new_page):
    staff = make_staff()
    mt = money_table(
        staff, dict.fromkeys((1, 2, 3, 4), 50_000), deal_mode=DealMode.CARD_ENTRY, name="SECRET"
    )
    round_ = play_round(
        mt,
        pd_seat=2,
        bank=10_000,
        wagers=[Wager(1, 1_000), Wager(3, 1_000), Wager(4, 1_000, trips=500)],
        until=State.NO_MORE_BETS,
    )
    page = new_page(TABLET)
    sign_in(page, live_server.url, staff.dealer.username)
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    expect(page.locator("#round-state")).to_have_text("No more bets")

    # The deal: the cards go face down; no picker, nothing keyed.
    expect(page.locator("#deal-form button[data-card]")).to_have_count(0)
    expect(page.locator("#deal-note")).to_contain_text("the hole cards are keyed at the showdown")
    screenshot(page, "secret-01-deal-face-down")
    post(page, "#deal-form", "Cards dealt")
    expect(page.locator("#round-state")).to_contain_text("pre-flop")
    expect(page.locator(".messages")).to_contain_text("dealt face down")
    expect(page.locator(".seat[data-seat='1'] .card.back")).to_have_count(2)
    assert_no_hole_card_on_screen(page)
    screenshot(page, "secret-02-preflop")
    for seat in (1, 3, 4):
        decide(page, seat, "Check")

    # The flop: the picker greys out nothing; a refused flop names no card and is not
    # refilled; then the right cards.
    expect(page.locator("#flop-form button[data-card]")).to_have_count(52)
    expect(page.locator("#flop-form button[data-card][data-used='1']")).to_have_count(0)
    pick(page, "#flop-form", ["7c", "8d"])
    page.fill("#id_flop_cards", "7c 8d 8d")  # typed, a card twice
    post(page, "#flop-form", "Show the flop")
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("cards 2 and 3 keyed for the flop are the same card")
    expect(page.locator("#id_flop_cards")).to_have_value("")
    assert_no_hole_card_on_screen(page)
    screenshot(page, "secret-03-flop-refused")
    pick(page, "#flop-form", BOARD[:3])
    post(page, "#flop-form", "Show the flop")
    expect(page.locator("#board")).to_contain_text(card("9s"))
    assert_no_hole_card_on_screen(page, BOARD[:3])
    for seat in (1, 3, 4):
        decide(page, seat, "Check")

    # The turn and river: a card already on the board (greyed out, so typed) is named: it is
    # no secret.
    page.fill("#id_tr_cards", "9s Jc")
    post(page, "#turn-river-form", "Show the turn and river")
    expect(page.locator("#refusal")).to_contain_text("card 9s is already on the board")
    assert_no_hole_card_on_screen(page, BOARD[:3])
    screenshot(page, "secret-04-turn-river-refused")
    pick(page, "#turn-river-form", BOARD[3:])
    post(page, "#turn-river-form", "Show the turn and river")
    decide(page, 1, "Play 1x")
    decide(page, 3, "Fold")
    decide(page, 4, "Fold")

    # The showdown: the player-dealer's two, then seats 1 and 4; seat 3 is mucked. Its
    # picker greys out the board only.
    expect(page.locator("#showdown-note")).to_contain_text(
        "key the player-dealer's two cards, then two for each of seats 1, 4. Mucked, not "
        "keyed: seat 3 (folded, no Trips wager)."
    )
    greyed = page.locator("#showdown-form button[data-used='1']")
    assert sorted(greyed.evaluate_all("bs => bs.map(b => b.dataset.card)")) == sorted(BOARD)
    assert_no_hole_card_on_screen(page, BOARD)
    screenshot(page, "secret-05-showdown-picker")
    # A card of the board keyed for seat 4: refused, naming no card; the form comes back empty.
    pick(page, "#showdown-form", [*PLAYER_DEALER, *SEAT_1, "9h"])
    page.fill("#id_showdown_cards", " ".join([*PLAYER_DEALER, *SEAT_1, "9h", "9s"]))
    post(page, "#showdown-form", "Show these cards")
    expect(page.locator("#refusal")).to_contain_text("a card keyed for seat 4 is also on the board")
    expect(page.locator("#id_showdown_cards")).to_have_value("")
    expect(page.locator("#id_showdown_cards-slots")).to_contain_text("0 of 6")
    assert_no_hole_card_on_screen(page, BOARD)
    screenshot(page, "secret-06-showdown-refused")
    assert Round.objects.get(pk=round_.pk).dealer_hole is None

    # The cards keyed right: face up now, on the seats and the felt.
    pick(page, "#showdown-form", HOLES)
    expect(page.locator("#id_showdown_cards-slots")).to_contain_text(
        "6 of 6: player-dealer 2c 3d · seat 1 Ah Ad · seat 4 9h 9c"
    )
    screenshot(page, "secret-07-showdown-keyed")
    post(page, "#showdown-form", "Show these cards")
    expect(page.locator("#round-state")).to_have_text("Showdown")
    expect(page.locator(".seat[data-seat='1'] .hole")).to_contain_text(card("Ah"))
    expect(page.locator(".pd-cards")).to_contain_text(card("2c"))
    expect(page.locator(".seat[data-seat='4'] .hole")).to_contain_text(card("9h"))
    expect(page.locator(".seat[data-seat='3'] .card.back")).to_have_count(2)  # mucked
    screenshot(page, "secret-08-showdown")
    post(page, "#next-action", "Settle")
    expect(page.locator("#settlement-lines")).to_be_visible()
    screenshot(page, "secret-09-settled")
    round_.refresh_from_db()
    assert round_.state == State.SETTLED and round_.dealer_hole == PLAYER_DEALER
    assert [h.hole for h in round_.hands.order_by("seat")] == [SEAT_1, None, SEAT_4]
