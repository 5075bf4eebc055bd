"""The table board (docs/rules.md §3.6): a TV in the room showing the games running by
stakes, each list's players in order by their board names ("Maria G.", never a full name,
nothing about money but the stakes) and who is being called to which seat.

No sign-in: the board is shown only at ``/board/<CARDROOM_BOARD_TOKEN>/``; with the setting
empty the board is off, and any other token is a 404 (compared in constant time), checked on
every request before anything is read.

The panel (polled by every screen every ``REFRESH_SECONDS``) is drawn once per change and
shared by every screen and server process through the ``floor`` cache
(``CONSOLE_FLOOR_CACHE_SECONDS``, at most the poll; 0 draws it on every request). It is kept
under the room's version (``tables.selectors.board.board_room``: the open tables as the board shows
them and the lists' and names' change markers, one statement) and a poll-long slice of time,
and no longer than the next moment the clock alone changes a list (a call's answer-by, a
call-in's lapse). The server's clock (the countdowns' start, the refreshed-at stamp) is
written into the panel as it is served, never kept.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import date as date_format
from django.template.defaultfilters import time as time_format
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.views.decorators.http import require_GET

from cardroom import sharedcache
from cardroom.clock import now
from tables.selectors import board as board_selectors

REFRESH_SECONDS = 5
# Where the moment the panel is served goes, filled in for each request. Text the database
# keeps never holds a NUL, so no name on the board can be taken for either.
SERVER_NOW = "\x00server-now\x00"
REFRESHED = "\x00refreshed\x00"


def _check(token: str) -> None:
    expected = getattr(settings, "CARDROOM_BOARD_TOKEN", "") or ""
    if not expected or not secrets.compare_digest(token.encode(), expected.encode()):
        raise Http404("no such board")


def _seconds() -> int:
    """How long a drawn panel is shared: the floor cache's slice, at most the board's poll."""
    return min(getattr(settings, "CONSOLE_FLOOR_CACHE_SECONDS", 0) or 0, REFRESH_SECONDS)


def _key(version: tuple, slice_: int) -> str:
    """The panel of this room at this version, in this slice of time. The key names the
    deployment (``sharedcache.key``), so two rooms sharing one cache are kept apart."""
    digest = hashlib.sha256(repr(version).encode()).hexdigest()
    return sharedcache.key("board", slice_, digest)


def _draw(moment: datetime, room=None) -> tuple[str, datetime | None]:
    """The panel as it is at ``moment`` (its server clock left to fill in), and when the clock
    alone next changes it (None: not before something is written)."""
    stakes = board_selectors.table_board(moment=moment, room=room)
    context = {"stakes": stakes, "server_now": SERVER_NOW, "refreshed": REFRESHED}
    changes = [s.changes_at for s in stakes if s.changes_at is not None]
    return render_to_string("board/_board.html", context), min(changes, default=None)


def _shared(moment: datetime, seconds: int) -> str:
    """The panel from the shared cache, drawn and kept there when it is not (or no longer)."""
    room = board_selectors.board_room()  # before the lists: the panel is never older than it
    version = room.version
    if version is None:
        return _draw(moment, room)[0]
    at = moment.timestamp()
    slice_ = int(at) // seconds
    key = _key(version, slice_)
    kept = sharedcache.get("floor", key)
    if kept is not None:
        html, until = kept
        if at < until:
            return html
    html, changes_at = _draw(moment, room)
    until = (slice_ + 1) * seconds
    if changes_at is not None:
        until = min(until, changes_at.timestamp())
    if at < until:
        sharedcache.put("floor", key, (html, until), 2 * seconds)
    return html


def panel_html(moment: datetime | None = None) -> str:
    """The board's changing part as it is at ``moment`` (now), with the server's clock of this
    request."""
    moment = moment or now()
    seconds = _seconds()
    html = _shared(moment, seconds) if seconds else _draw(moment)[0]
    local = template_localtime(moment)
    return html.replace(SERVER_NOW, date_format(local, "c")).replace(
        REFRESHED, time_format(local, "H:i:s")
    )


@require_GET
def board(request, token: str):
    """The whole board. Its wall clock shows the cardroom's time (``TIME_ZONE``), from the
    server's clock stamped on the page and on each panel polled, never the TV browser's zone."""
    _check(token)
    moment = now()
    context = {
        "panel": mark_safe(panel_html(moment)),
        "token": token,
        "refresh": REFRESH_SECONDS,
        "now": template_localtime(moment),
    }
    return render(request, "board/board.html", context)


@require_GET
def board_panel(request, token: str):
    """The board's changing part, polled by htmx every few seconds."""
    _check(token)
    return HttpResponse(panel_html())
