"""Two TVs in the room show one shared drawing of the table board (console.views.board), as
they would from two server processes: a change is on both screens at the next poll, and a
call's countdown runs from the server's clock of each poll, not of the drawing.

The live server runs in this process, so it reads the test's frozen clock."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tables.selectors import board as board_selectors
from tables.services import waitlists
from tests.builders.floor import make_player, open_floor
from tests.e2e.conftest import TABLET, fits_width

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

TOKEN = "e2e-shared-board"
STAKES = {"minimum_cents": 500, "maximum_cents": 50_000}


def test_two_screens_share_the_board_and_see_each_change(
    live_server, new_page, shoot, staff, clock, settings, monkeypatch
):
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    settings.CONSOLE_FLOOR_CACHE_SECONDS = 5
    own = uuid.uuid4().hex
    floor_cache = {**settings.CACHES["floor"], "KEY_PREFIX": f"board-e2e-{own}"}
    if floor_cache["BACKEND"].endswith("LocMemCache"):
        floor_cache["LOCATION"] = own
    settings.CACHES = {**settings.CACHES, "floor": floor_cache}
    table = open_floor("PPPP..", staff=staff, name="UTH-7", **STAKES)
    open_floor(
        "PP....", staff=staff, chips=0, name="UTH-25", minimum_cents=2_500, maximum_cents=250_000
    )
    row = waitlists.open_waitlist(**STAKES, by=staff.supervisor)
    for name in ("Maria Gonzalez", "Tom Okafor"):
        waitlists.join(waitlist_id=row.pk, player_id=make_player(name=name).pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=table.table_id, seat=5, by=staff.supervisor)

    drawn, served = [], []
    real = board_selectors.table_board
    monkeypatch.setattr(board_selectors, "table_board", lambda **kw: drawn.append(1) or real(**kw))
    screens = [new_page(viewport=TABLET) for _ in range(2)]
    for screen in screens:
        screen.on("response", lambda r: served.append(1) if f"/board/{TOKEN}/" in r.url else None)
    for screen in screens:
        screen.goto(f"{live_server.url}/board/{TOKEN}/")
        stakes = screen.locator("[data-stakes='$5.00 - $500.00']")
        expect(stakes.locator("[data-calling]")).to_contain_text("Calling Maria G. to UTH-7 seat 5")
        # Three minutes to answer, counted from the server's clock when the panel came.
        expect(stakes.locator("[data-answer-by]")).to_have_text(re.compile(r"^[23]:\d\d left"))
        expect(stakes.locator("ol.waiting li")).to_have_text(["Maria G.", "Tom O."])
        assert fits_width(screen)
    shoot(screens[0], "80-board-shared-calling")

    waitlists.join(
        waitlist_id=row.pk, player_id=make_player(name="Ana Lopez").pk, by=staff.supervisor
    )
    for screen in screens:  # the next 5-second poll
        stakes = screen.locator("[data-stakes='$5.00 - $500.00']")
        expect(stakes.locator("ol.waiting li")).to_have_text(
            ["Maria G.", "Tom O.", "Ana L."], timeout=12_000
        )
        expect(stakes.locator("[data-answer-by]")).to_have_text(re.compile(r"^[23]:\d\d left"))
    shoot(screens[1], "81-board-shared-joined")
    # Once for the first screen, once after the change (twice if both polled at once).
    assert len(drawn) <= 3 < len(served)
