"""The room's table board (docs/rules.md §3.6): no sign-in, shown only for the configured
token; board names only, no money amounts but the stakes."""

from __future__ import annotations

import re

import pytest

from tables.services import waitlists
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

TOKEN = "a-long-board-token"


@pytest.fixture
def board_on(settings):
    settings.CARDROOM_BOARD_TOKEN = TOKEN


@pytest.fixture
def room(staff, clock):
    f = open_floor("PPPP..", staff=staff, minimum_cents=500, maximum_cents=50_000, name="UTH-7")
    row = waitlists.open_waitlist(minimum_cents=500, maximum_cents=50_000, by=staff.supervisor)
    maria = make_player(name="Maria Gonzalez")
    tom = make_player(name="Tom Okafor")
    for p in (maria, tom):
        waitlists.join(waitlist_id=row.pk, player_id=p.pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=5, by=staff.supervisor)
    return f


@pytest.mark.parametrize("path", [f"/board/{TOKEN}/", f"/board/{TOKEN}/panel/"])
def test_the_board_is_off_when_no_token_is_set(client, settings, room, path):
    settings.CARDROOM_BOARD_TOKEN = ""
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("token", ["wrong", TOKEN[:-1], TOKEN + "x", "A-LONG-BOARD-TOKEN"])
def test_any_other_token_is_404(client, board_on, room, token):
    assert client.get(f"/board/{token}/").status_code == 404
    assert client.get(f"/board/{token}/panel/").status_code == 404


def test_the_board_needs_no_sign_in_and_shows_tables_lists_and_calls(client, board_on, room):
    response = client.get(f"/board/{TOKEN}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "$5.00 - $500.00" in html
    assert "UTH-7" in html and "4 playing" in html and "2 open seats" in html
    assert "Maria G." in html and "Tom O." in html
    assert html.index("Maria G.") < html.index("Tom O.")
    calling = 'Calling <strong>Maria G.</strong> to <span class="where">UTH-7 seat 5</span>'
    assert calling in html
    assert f'hx-get="/board/{TOKEN}/panel/"' in html and 'hx-trigger="every 5s"' in html


def test_no_full_names_and_no_amount_but_the_stakes(client, board_on, room, staff):
    open_floor("PP....", staff=staff, minimum_cents=2_500, maximum_cents=250_000)
    for path in (f"/board/{TOKEN}/", f"/board/{TOKEN}/panel/"):
        html = client.get(path).content.decode()
        assert "Gonzalez" not in html and "Okafor" not in html
        amounts = set(re.findall(r"\$[\d,]+\.\d\d", html))
        assert amounts == {"$5.00", "$500.00", "$25.00", "$2,500.00"}
        assert "player_number" not in html and "PL-" not in html


def test_the_panel_is_the_fragment_alone(client, board_on, room):
    html = client.get(f"/board/{TOKEN}/panel/").content.decode()
    assert "<html" not in html and "Maria G." in html


def test_the_board_takes_no_write(client, board_on, room):
    assert client.post(f"/board/{TOKEN}/").status_code == 405


def test_the_clock_is_the_cardrooms_stamped_by_the_server(client, board_on, room):
    """10:00 in the cardroom (18:00 UTC, the frozen clock): the page and each panel carry the
    server's clock with the cardroom's offset, for the TV's clock to run on in any zone."""
    html = client.get(f"/board/{TOKEN}/").content.decode()
    assert (
        '<p class="clock" data-clock data-server-now="2026-11-20T10:00:00-08:00">10:00</p>' in html
    )
    panel = client.get(f"/board/{TOKEN}/panel/").content.decode()
    assert 'class="stakes-grid"' in panel and 'data-server-now="2026-11-20T10:00:00-08:00"' in panel
