"""What the floor sees of a room of two games, in a browser at the tablet's 1024x768 and a
desk's 1366x900: the floor map naming each table's game, the new-table form for EZ Baccarat
(its own options sheet, a refusal in the floor's words), the waitlists by game and stakes,
the table board, and the settlement calculator's baccarat form with a settled coup. Each
page is shot (test-output/screenshots) and must fit its width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.services import waitlists
from tests.builders.floor import make_player, open_floor
from tests.e2e.conftest import fits_width, sign_in

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

TOKEN = "e2e-two-games-board"
SIZES = {"1024": {"width": 1024, "height": 768}, "1366": {"width": 1366, "height": 900}}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_room_of_two_games_as_the_floor_sees_it(
    live_server, new_page, shoot, staff, settings, size
):
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    bac = open_floor(
        "PPPPPP...", staff=staff, game="ez_baccarat", name="BAC-1", minimum_cents=2_000,
        maximum_cents=200_000, chip_unit_cents=500,
    )  # fmt: skip
    open_floor("PPPP..", staff=staff, name="UTH-1", minimum_cents=2_000, maximum_cents=200_000)
    row = waitlists.open_waitlist(
        minimum_cents=2_000, maximum_cents=200_000, game="ez_baccarat", by=staff.supervisor
    )
    for name in ("Maria Gonzalez", "Tom Okafor", "Lin Chen"):
        waitlists.join(waitlist_id=row.pk, player_id=make_player(name=name).pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=bac.table_id, seat=7, by=staff.supervisor)

    page = new_page(viewport=SIZES[size])
    sign_in(page, live_server.url, "supervisor")
    expect(page.locator("[data-table='BAC-1'] [data-game-line]")).to_contain_text(
        "EZ Baccarat · $20.00\u2013$2,000.00 · RNG deal · 9 seats"
    )
    expect(page.locator("[data-table='UTH-1'] [data-game-line]")).to_contain_text(
        "Ultimate Texas Hold'em"
    )
    assert fits_width(page)
    shoot(page, f"60-two-games-floor-map-{size}")

    page.goto(f"{live_server.url}/console/?game=ez_baccarat#new-table")
    form = page.locator("#new-table-form")
    expect(form).to_contain_text("A new EZ Baccarat table")
    expect(form.locator("select[name=decks]")).to_have_value("8")
    expect(form.locator("select[name=seats]")).to_have_value("9")
    form.locator("input[name=name]").fill("BAC-2")
    form.locator("input[name=cut_card]").fill("3")
    form.locator("input[name=side_wager_maximum_cents]").fill("100")
    assert fits_width(page)
    shoot(page, f"61-new-baccarat-table-form-{size}")
    form.get_by_role("button", name="Create the table").click()
    refusal = page.locator("#new-table-form [role=alert]")
    expect(refusal).to_contain_text("the cut card's place from the end of the shoe must be")
    expect(refusal).not_to_contain_text("cut_card")
    assert fits_width(page)
    shoot(page, f"62-new-baccarat-table-refused-{size}")
    page.locator("#new-table-form input[name=cut_card]").fill("16")
    page.locator("#new-table-form").get_by_role("button", name="Create the table").click()
    expect(page.locator("body")).to_contain_text("table BAC-2 created (EZ Baccarat)")

    page.goto(f"{live_server.url}/console/waitlists/")
    expect(page.locator(f"#wl-{row.pk}")).to_contain_text("$20.00 - $2,000.00 EZ Baccarat")
    assert fits_width(page)
    shoot(page, f"63-waitlists-by-game-{size}")

    page.goto(f"{live_server.url}/console/calculator/?game=ez_baccarat")
    calc = page.locator("#calculator-form")
    calc.locator("select[name=pd_seat]").select_option("5")
    calc.locator("input[name=bank]").fill("500")
    calc.locator("input[name=player_cards]").fill("2c 3d 4d")
    calc.locator("input[name=banker_cards]").fill("Kd 5s 3h")
    calc.locator("input[name=s1_player]").fill("25")
    calc.locator("input[name=s1_tie]").fill("5")
    calc.locator("input[name=s7_banker]").fill("100")
    calc.locator("input[name=s7_dragon_7]").fill("10")
    calc.get_by_role("button", name="Settle").click()
    expect(page.locator("#calc-outcome")).to_have_text("the Player wins")
    expect(page.locator("#calc-net")).to_have_text("$90.00")
    assert fits_width(page)
    shoot(page, f"64-calculator-baccarat-{size}")

    page.goto(f"{live_server.url}/console/tables/{bac.table_id}/math/")
    expect(page.locator("#figures")).to_contain_text("Banker")
    assert fits_width(page)
    shoot(page, f"65-baccarat-game-math-{size}")

    board = new_page(viewport=SIZES[size])
    board.goto(f"{live_server.url}/board/{TOKEN}/")
    stakes = board.locator("[data-game='EZ Baccarat'][data-stakes='$20.00 - $2,000.00']")
    expect(stakes).to_contain_text("Maria G.")
    expect(stakes).to_contain_text("BAC-1")
    shoot(board, f"66-board-two-games-{size}")
