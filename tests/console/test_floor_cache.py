"""The floor map is rendered once per change, not once per viewer (console.views.pages): each
table's part is kept in the shared ``floor`` cache under its table's version (bumped by every
write that locks the table) and a poll-long slice of time, so a poll reads the versions and
renders only the tables that changed; and it costs a fixed number of statements at 250
tables."""

from __future__ import annotations

import random

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.errors import State
from console import selectors as console_selectors
from tables.models import Table
from tables.services import floor
from tests.builders.floor import give_button, make_player, open_floor, play_round

pytestmark = pytest.mark.django_db

POLL = 5


@pytest.fixture
def shared(settings):
    """The floor cache on. This process's own cache is emptied before and after (SQLite
    reuses a rolled-back table's id); Redis, shared with the report queue, is never flushed:
    there the keys hold the test database's name and ids PostgreSQL never hands out twice."""
    settings.CONSOLE_FLOOR_CACHE_SECONDS = POLL
    own = isinstance(caches["floor"], LocMemCache)
    if own:
        caches["floor"].clear()
    yield
    if own:
        caches["floor"].clear()


@pytest.fixture
def rendered(monkeypatch) -> list[list[int]]:
    """The tables each poll rendered (the ids asked of the floor map's selector)."""
    calls: list[list[int]] = []
    real = console_selectors.floor_map

    def recording(moment=None, *, table_ids=None):
        calls.append(sorted(table_ids) if table_ids is not None else [])
        return real(moment, table_ids=table_ids)

    monkeypatch.setattr(console_selectors, "floor_map", recording)
    return calls


def _poll(client) -> str:
    response = client.get("/console/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_a_tables_part_is_rendered_once_per_change_for_every_viewer(
    staff, clock, as_user, shared, rendered
):
    tables = [open_floor("PP....", staff=staff, name=f"CACHE-{n}").table for n in range(3)]
    dealer, supervisor = as_user("dealer"), as_user("supervisor")
    first = _poll(dealer)
    assert rendered == [sorted(t.pk for t in tables)]
    # Another viewer, another role, in the same slice: nothing rendered again, the same page.
    assert _table_parts(_poll(supervisor)) == _table_parts(first)
    assert rendered[1:] == []
    # A player seated at one table: only that table is drawn again, at the next poll.
    newcomer = make_player(name="Newcomer Nell")
    floor.seat_player(table_id=tables[1].pk, seat=5, player_id=newcomer.pk, by=staff.supervisor)
    page = _poll(dealer)
    assert rendered[1:] == [[tables[1].pk]]
    assert "Newcomer Nell" in page
    # A correction of a seated player's name bumps their table too.
    floor.update_player_identification(
        player_id=newcomer.pk, by=staff.supervisor, changes={"name": "Nell Newcomer"}
    )
    page = _poll(supervisor)
    assert rendered[2:] == [[tables[1].pk]]
    assert "Nell Newcomer" in page and "Newcomer Nell" not in page


def test_every_part_is_at_most_one_poll_old(staff, clock, as_user, shared, rendered):
    """The counters count minutes: a part kept longer than the poll would show a game's
    minutes late. Each table's slices are staggered, so within one poll every part is drawn
    again, but not all by the same request."""
    floors = [open_floor("PP....", staff=staff, name=f"SLICE-{n}") for n in range(POLL)]
    client = as_user("dealer")
    _poll(client)
    for _ in range(POLL):
        clock.advance(seconds=1)
        _poll(client)
    again = [pk for call in rendered[1:] for pk in call]
    assert sorted(again) == sorted(f.table.pk for f in floors)  # each once
    assert all(len(call) < POLL for call in rendered[1:])
    clock.advance(minutes=3)
    assert "game open 3 min" in _poll(client)


@pytest.mark.parametrize("setting", ["HOST", "PORT", "NAME"])
def test_another_rooms_parts_are_never_shown(
    staff, as_user, shared, rendered, monkeypatch, setting
):
    """Two rooms sharing one cache (another database server with a database of the same name,
    or another database on the same server): each room's parts are its own."""
    table = open_floor("PP....", staff=staff, name="ROOM-A").table
    client = as_user("dealer")
    _poll(client)
    with monkeypatch.context() as patch:
        patch.setitem(connection.settings_dict, setting, "another")
        _poll(client)
    assert rendered == [[table.pk], [table.pk]]


def test_a_round_played_bumps_its_tables_version_at_every_step(staff, clock):
    open_ = open_floor(staff=staff)
    versions = []
    give_button(open_.table_id, 1, by=staff.supervisor)
    versions.append(Table.objects.get(pk=open_.table_id).version)

    def step(round_) -> None:
        versions.append(Table.objects.get(pk=open_.table_id).version)

    round_ = play_round(
        open_.table_id, by=staff.dealer, rng=random.Random(1), on_step=step, until=State.SETTLED
    )
    assert round_.state == State.SETTLED
    assert versions == sorted(set(versions))  # rose at every step, never stood still


def test_the_page_is_drawn_when_the_cache_is_unreachable(staff, as_user, settings):
    open_floor("PP....", staff=staff, name="NO-CACHE")
    settings.CONSOLE_FLOOR_CACHE_SECONDS = POLL
    settings.CACHES = {
        **settings.CACHES,
        "floor": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    assert 'data-table="NO-CACHE"' in _poll(as_user("dealer"))


def _table_parts(page: str) -> str:
    """The page without its refreshed-at stamp."""
    return page[page.index("<section") :]


def _statements(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        _poll(client)
    return len(queries)


# The session, the user and their roles (3), the closed tables with their Reopen buttons for
# a supervisor (1), the table versions (1); then, for the tables that changed, the floor map's
# nine (tables, seatings, games, rounds in play, the rotation's recent hands, the last
# rounds, the holds, the counters' hands and the seated patrons' currency totals of the
# gaming day, for the Title 31 warning).
WARM, COLD = 5, 14


def test_the_floor_map_costs_the_same_statements_at_5_and_250_tables(staff, clock, as_user, shared):
    client = as_user("supervisor")

    def room() -> tuple[int, int]:
        clock.advance(seconds=POLL)  # every table in a new slice: nothing shared yet
        cold = _statements(client)
        return cold, _statements(client)

    def grow(count: int) -> None:
        for number in range(count):
            open_ = open_floor("PP....", staff=staff, chips=0)
            if number % 5 == 0:  # a hand in play at every fifth table
                give_button(open_.table_id, 1, by=staff.supervisor)
                play_round(open_.table_id, by=staff.dealer, until=State.WAGERING)

    grow(5)
    assert room() == (COLD, WARM)
    grow(245)
    assert Table.objects.count() == 250
    assert room() == (COLD, WARM)
