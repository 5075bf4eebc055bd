"""Two walks a newcomer found broken on a live floor, in a real browser at 1024x768:

- a floor supervisor runs a must-move table and a table change from the waitlists page: the
  main game's open seat is offered first to the must-move table's first player (not called
  from the list), who moves there with their chips; a called seat filled another way leaves no
  call behind (docs/rules.md §3.6);
- a dealer's refused backline wager comes back cleared, the backline picker listing only the
  bettors standing at the table, and the next seat's own wager is placed as the seat's
  (docs/rules.md §4.7)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cardroom.errors import State
from tables.models import Seating
from tables.services import floor, waitlists
from tests.builders.floor import bring_chips, make_player, open_floor
from tests.builders.money import Wager, chips_of, money_table, play_round
from tests.e2e.conftest import TABLET, fits_width, sign_in, swapped
from wagers.models import Bet

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_moves_a_must_move_player_to_the_main_game(
    live_server, new_page, shoot, staff, clock
):
    stakes = {"minimum_cents": 2_000, "maximum_cents": 200_000}
    main = money_table(
        staff, {1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, name="MAIN-20", **stakes
    )
    must = open_floor("......", staff=staff, name="MUST-20", open_game=False, **stakes)
    side = money_table(staff, {1: 40_000, 2: 40_000}, name="SIDE-20", **stakes)
    lea, max_ = make_player(name="Lea Lind"), make_player(name="Max Moss")
    for seat, player in ((3, lea), (1, max_)):
        clock.advance(minutes=1)
        floor.seat_player(table_id=must.table_id, seat=seat, player_id=player.pk, by=staff.dealer)
    bring_chips(must.table_id, lea, 30_000, by=staff.dealer)
    row = waitlists.open_waitlist(by=staff.supervisor, **stakes)
    pia = make_player(name="Pia Park")
    waitlists.join(waitlist_id=row.pk, player_id=pia.pk, by=staff.supervisor)
    # Pia is called to MUST-20 seat 6; the dealer seats a walk-in there first.
    waitlists.call(waitlist_id=row.pk, table_id=must.table_id, seat=6, by=staff.supervisor)
    floor.seat_player(
        table_id=must.table_id, seat=6, player_id=make_player(name="Walk In").pk, by=staff.dealer
    )

    page = new_page(TABLET)
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server.url, staff.supervisor.username)
    page.get_by_role("link", name="Waitlists").click()
    panel = page.locator(f"[data-waitlist='{row.pk}']")
    # The call ended with its seat: Pia waits at the top, called to nothing.
    expect(panel.locator("tr[data-player='Pia Park']")).not_to_have_class("called")
    expect(panel).not_to_contain_text("MUST-20 seat 6")

    start = page.locator("#start-must-move")
    start.locator("select[name=table]").select_option(label="MUST-20 ($20.00 - $2,000.00)")
    start.locator("select[name=main_table]").select_option(label="MAIN-20 ($20.00 - $2,000.00)")
    with page.expect_navigation():
        start.get_by_role("button", name="Start").click()
    expect(page.locator(".messages")).to_contain_text("MUST-20 is a must-move table")
    ask = page.locator("#ask-table-change")
    side_player = Seating.objects.get(table=side.table, seat=2, left_at__isnull=True).player
    ask.locator("select[name=player]").select_option(str(side_player.pk))
    ask.locator("select[name=to_table]").select_option(label="MAIN-20 ($20.00 - $2,000.00)")
    with page.expect_navigation():
        ask.get_by_role("button", name="Ask").click()

    seat = panel.locator("[data-seat='MAIN-20-5']")
    expect(seat).to_contain_text("offered first to Lea Lind (must move, from MUST-20 seat 3)")
    expect(seat.get_by_role("button", name=re.compile("^Call"))).to_have_count(0)
    lines = page.locator("#seat-requests")
    expect(lines.locator("[data-must-move='MUST-20']")).to_contain_text(
        "1. Lea Lind, 2. Max Moss, 3. Walk In"
    )
    expect(lines.locator("#table-changes")).to_contain_text(side_player.name)
    assert fits_width(page)
    shoot(page, "90-waitlists-must-move-and-table-change")
    lines.scroll_into_view_if_needed()
    shoot(page, "91-seat-lines-panel", full_page=False)

    with page.expect_navigation():
        seat.get_by_role("button", name="Move Lea Lind").click()
    expect(page.locator(".messages")).to_contain_text(
        "Lea Lind left seat 3 for seat 5 at MAIN-20, with $300.00 in chips"
    )
    assert Seating.objects.get(player=lea, left_at__isnull=True).table_id == main.table.pk
    assert chips_of(lea, main.table) == 30_000
    # MAIN-20 seat 6 goes next to Max (must move), then the table change.
    expect(panel.locator("[data-seat='MAIN-20-6']")).to_contain_text("offered first to Max Moss")
    shoot(page, "92-after-the-move")


def test_a_refused_backline_wager_leaves_nothing_for_the_next_seat(
    live_server, new_page, shoot, staff
):
    mt = money_table(
        staff, {1: 50_000, 2: 50_000, 3: 50_000}, backliners=[50_000, 50_000], name="BACK-1"
    )
    for _ in range(30):  # a full room: none of them is at this table
        make_player()
    round_ = play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING)
    bettor = mt.backliners[0]

    page = new_page(TABLET)
    sign_in(page, live_server.url, staff.dealer.username)
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")
    form = page.locator("#bet-form")
    picker = form.locator("select[name=backline_player] option")
    expect(picker).to_have_count(3)  # the empty choice and the two standing at the table
    # Behind seat 3, which has not wagered yet: refused.
    form.locator("select[name=seat]").select_option("3")
    form.locator("input[name=ante]").fill("10")
    form.locator("input[name=blind]").fill("10")
    form.locator("select[name=backline_player]").select_option(str(bettor.pk))
    with swapped(page):
        form.get_by_role("button", name=re.compile("Place wagers")).click()
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text(f"{bettor.name}'s wager behind seat 3 was not placed")
    expect(refusal).to_contain_text("seat 3 has no wagers to bet behind")
    form = page.locator("#bet-form")
    expect(form.locator("select[name=backline_player]")).to_have_value("")
    expect(form.locator("input[name=ante]")).to_have_value("")
    expect(form.locator("select[name=backline_player] option")).to_have_count(3)
    shoot(page, "93-tablet-backline-refused")
    # The dealer keys seat 3's own wager next: it is the seat's.
    form.locator("select[name=seat]").select_option("3")
    form.locator("input[name=ante]").fill("10")
    form.locator("input[name=blind]").fill("10")
    with swapped(page):
        form.get_by_role("button", name=re.compile("Place wagers")).click()
    expect(page.locator("#refusal")).to_have_count(0)
    assert Bet.objects.filter(hand__round=round_, hand__seat=3, bettor=0).exists()
    assert not Bet.objects.filter(hand__round=round_, player=bettor).exists()
    shoot(page, "94-tablet-next-seat-placed")
