"""The table board's panel is drawn once per change, not once per screen (console.views.board):
kept in the shared ``floor`` cache under the room's version (the open tables as the board
shows them, the lists' and the names' change markers: one statement) and a poll-long slice of
time, never past the next moment the clock alone changes a list, with the server's clock
written in as it is served; and it costs a fixed number of statements at 5 and 250 tables."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.timezone import localtime

from cardroom.errors import State
from tables.models import Player, Table
from tables.selectors import board as board_selectors
from tables.services import floor, waitlists
from tests.builders.floor import PINNED, give_button, make_player, open_floor, play_round

pytestmark = pytest.mark.django_db

POLL = 5
TOKEN = "a-shared-board-token"
PANEL = f"/board/{TOKEN}/panel/"
STAKES = {"minimum_cents": 500, "maximum_cents": 50_000}


@pytest.fixture
def shared(settings):
    """The board on and its panel shared, under a key prefix of this test's own: no two tests
    (nor two runs, the test database's ids starting again) read each other's panels, and the
    cache (Redis, shared with the report queue) is never flushed."""
    settings.CARDROOM_BOARD_TOKEN = TOKEN
    settings.CONSOLE_FLOOR_CACHE_SECONDS = POLL
    own = uuid.uuid4().hex
    floor_cache = {**settings.CACHES["floor"], "KEY_PREFIX": f"board-test-{own}"}
    if floor_cache["BACKEND"].endswith("LocMemCache"):
        floor_cache["LOCATION"] = own
    settings.CACHES = {**settings.CACHES, "floor": floor_cache}


@pytest.fixture
def drawn(monkeypatch) -> list[datetime]:
    """The moment of each drawing of the panel (each call of the board's selector)."""
    moments: list[datetime] = []
    real = board_selectors.table_board

    def recording(*, moment=None, room=None):
        moments.append(moment)
        return real(moment=moment, room=room)

    monkeypatch.setattr(board_selectors, "table_board", recording)
    return moments


@pytest.fixture
def room(staff, clock):
    """A table at $5-$500 with four players, its list with two waiting, the first called."""
    table = open_floor("PPPP..", staff=staff, name="UTH-7", **STAKES)
    row = waitlists.open_waitlist(**STAKES, by=staff.supervisor)
    for name in ("Maria Gonzalez", "Tom Okafor"):
        player = make_player(name=name)
        waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=table.table_id, seat=5, by=staff.supervisor)
    return row


def _poll(client: Client | None = None) -> str:
    response = (client or Client()).get(PANEL)  # a TV: no session
    assert response.status_code == 200
    return response.content.decode()


def _afresh(settings) -> str:
    """The panel drawn for this request alone (the shared cache off)."""
    seconds = settings.CONSOLE_FLOOR_CACHE_SECONDS
    settings.CONSOLE_FLOOR_CACHE_SECONDS = 0
    try:
        return _poll()
    finally:
        settings.CONSOLE_FLOOR_CACHE_SECONDS = seconds


def _server_now(html: str) -> set[datetime]:
    return {datetime.fromisoformat(v) for v in re.findall(r'data-server-now="([^"]+)"', html)}


def test_one_drawing_serves_every_screen_and_server_process(shared, room, drawn, settings):
    first = _poll()
    assert len(drawn) == 1 and "Calling <strong>Maria G.</strong>" in first
    # Another screen in the same slice: nothing drawn again, the same panel.
    assert _poll(Client()) == first
    # Another server process: its own connection to the cache, the same panel, not drawn.
    caches["floor"] = caches.create_connection("floor")
    assert _poll(Client()) == first
    # The full page shows the same shared panel.
    page = Client().get(f"/board/{TOKEN}/").content.decode()
    assert first in page
    assert len(drawn) == 1
    # And it is the panel as a screen of its own would have drawn it.
    assert _afresh(settings) == first


def test_every_change_the_board_shows_is_on_the_next_poll(shared, room, drawn, staff, settings):
    _poll()
    supervisor = staff.supervisor
    # A player joins the list.
    ana = make_player(name="Ana Lopez")
    waitlists.join(waitlist_id=room.pk, player_id=ana.pk, by=supervisor)
    html = _poll()
    assert len(drawn) == 2 and "<li>Ana L.</li>" in html
    assert "<span data-waiting-count>3</span>" in html
    # The called player takes the seat: five playing, the call and her place gone.
    maria = Player.objects.get(name="Maria Gonzalez")
    waitlists.answer(waitlist_id=room.pk, player_id=maria.pk, by=supervisor, take=True)
    html = _poll()
    assert len(drawn) == 3 and "5 playing" in html and "1 open seat" in html
    assert "Maria G." not in html and "data-calling" not in html
    # A waiting player's name corrected (their table's version does not move: none).
    tom = Player.objects.get(name="Tom Okafor")
    floor.update_player_identification(
        player_id=tom.pk, by=supervisor, changes={"name": "Tomas Oka"}
    )
    html = _poll()
    assert len(drawn) == 4 and "<li>Tomas O.</li>" in html and "Tom O." not in html
    # The list's policy changed; a table opened at other stakes; a table closed.
    waitlists.change_policy(waitlist_id=room.pk, by=supervisor, response_minutes=5)
    _poll()
    assert len(drawn) == 5
    other = open_floor(
        "PP....", staff=staff, chips=0, name="UTH-9", minimum_cents=2_500, maximum_cents=250_000
    )
    html = _poll()
    assert len(drawn) == 6 and 'data-table="UTH-9"' in html
    floor.close_game(table_id=other.table_id, by=supervisor)
    for seat in (1, 2):
        floor.unseat_player(table_id=other.table_id, seat=seat, by=supervisor)
    floor.mark_table_closed(table_id=other.table_id, by=supervisor)
    html = _poll()
    assert 'data-table="UTH-9"' not in html
    # Each time the panel a screen of its own would have drawn.
    assert html == _afresh(settings)


def test_a_round_played_draws_nothing_again(shared, staff, drawn, clock, settings):
    """The board shows no round: a round bumps its table's version at every step, and the
    board's panel is still the one drawn before it."""
    open_ = open_floor(staff=staff, name="UTH-R")
    first = _poll()
    before = Table.objects.get(pk=open_.table_id).version
    give_button(open_.table_id, 1, by=staff.supervisor)
    play_round(open_.table_id, by=staff.dealer, until=State.SETTLED)
    assert Table.objects.get(pk=open_.table_id).version > before
    assert _poll() == first
    assert len(drawn) == 1
    assert _afresh(settings) == first


def test_the_panel_is_never_older_than_the_poll(shared, room, drawn, clock):
    """Within its slice the shared panel is served with the server's clock of each request
    (the countdowns start from it); a change no marker sees (a name edited in the admin) is
    on the board at the next slice; the next slice draws it again."""
    assert PINNED.timestamp() % POLL == 0  # the first poll starts a slice
    _poll()
    Player.objects.filter(name="Tom Okafor").update(name="Thomas Okafor")
    for _ in range(1, POLL):
        moment = clock.advance(seconds=1)
        html = _poll()
        assert _server_now(html) == {moment}
        assert f'data-refreshed="{localtime(moment):%H:%M:%S}"' in html
        assert "Tom O." in html
    assert len(drawn) == 1
    clock.advance(seconds=1)
    html = _poll()
    assert len(drawn) == 2 and "Thomas O." in html


def test_a_call_running_out_draws_the_panel_again_at_its_deadline(shared, staff, drawn, clock):
    open_floor("PPPP..", staff=staff, name="UTH-D", **STAKES)
    row = waitlists.open_waitlist(**STAKES, by=staff.supervisor)
    waitlists.join(
        waitlist_id=row.pk, player_id=make_player(name="Maria Gonzalez").pk, by=staff.supervisor
    )
    clock.advance(seconds=2)
    table = Table.objects.get(name="UTH-D")
    waitlists.call(waitlist_id=row.pk, table_id=table.pk, seat=5, by=staff.supervisor)
    deadline = clock.now() + timedelta(minutes=3)  # the default response time
    assert deadline.timestamp() % POLL == 2  # inside a slice, not at its end
    clock.set(deadline - timedelta(seconds=1))
    assert "Calling <strong>Maria G.</strong>" in _poll()
    clock.advance(seconds=0.5)
    _poll()
    assert len(drawn) == 1
    clock.set(deadline)  # the same slice: passed over, whatever was drawn before
    html = _poll()
    assert len(drawn) == 2 and "data-calling" not in html and "<li>Maria G.</li>" in html


@pytest.mark.parametrize("setting", ["HOST", "PORT", "NAME"])
def test_another_rooms_panel_is_never_shown(shared, room, drawn, monkeypatch, setting):
    """Two rooms sharing one cache: each database's panels are its own (the same key as the
    floor map's parts, ``cardroom.sharedcache.key``)."""
    _poll()
    with monkeypatch.context() as patch:
        patch.setitem(connection.settings_dict, setting, "another_cardroom")
        _poll()
    assert len(drawn) == 2


def test_the_token_is_checked_before_anything_is_read(shared, room):
    _poll()
    with CaptureQueriesContext(connection) as queries:
        assert Client().get("/board/wrong-token/panel/").status_code == 404
    assert len(queries) == 0


def test_the_panel_is_drawn_when_the_cache_is_unreachable(shared, room, settings):
    settings.CACHES = {
        **settings.CACHES,
        "floor": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    assert "Calling <strong>Maria G.</strong>" in _poll()


def _statements() -> int:
    with CaptureQueriesContext(connection) as queries:
        _poll()
    return len(queries)


# Warm: the room's version (the open tables as the board shows them, with the lists' and
# names' change markers, in one statement). Cold: then the lists' rows, events, policies and
# players (the tables already read).
COLD, WARM = 5, 1


def test_the_panel_costs_the_same_statements_at_5_and_250_tables(shared, staff, clock):
    row = None

    def grow(count: int) -> None:
        nonlocal row
        for _ in range(count):
            open_floor("PP....", staff=staff, chips=0, **STAKES)
        if row is None:
            row = waitlists.open_waitlist(**STAKES, by=staff.supervisor)
        for _ in range(count):
            waitlists.join(waitlist_id=row.pk, player_id=make_player().pk, by=staff.supervisor)

    def room() -> tuple[int, int]:
        clock.advance(seconds=POLL)  # a new slice: nothing shared yet
        cold = _statements()
        return cold, _statements()

    grow(5)
    assert room() == (COLD, WARM)
    grow(245)
    assert Table.objects.count() == 250
    assert room() == (COLD, WARM)


def test_the_rooms_statement_written_once_reads_what_the_orm_reads(shared, room, staff):
    """``board_room`` runs the ORM's statement compiled once: it answers what the ORM's own
    query answers, the markers on every row."""
    open_floor(
        "PP....", staff=staff, chips=0, name="UTH-0", minimum_cents=2_500, maximum_cents=250_000
    )
    read = board_selectors.board_room()
    rows = list(board_selectors._board_room_query())
    assert [tuple(row[:8]) for row in rows] == list(read.tables)
    assert {row[8:] for row in rows} == {(read.lists, read.names)}
    assert read.lists > 0 and [t[1] for t in read.tables] == ["UTH-7", "UTH-0"]
