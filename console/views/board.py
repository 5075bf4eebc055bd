"""The table board (docs/rules.md §3.6): a TV in the room showing the games running by
stakes, each list's players in order by their board names ("Maria G.", never a full name,
nothing about money but the stakes) and who is being called to which seat.

No sign-in: the board is shown only at ``/board/<CARDROOM_BOARD_TOKEN>/``; with the setting
empty the board is off, and any other token is a 404 (compared in constant time).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from cardroom.clock import now
from tables import selectors as floor_selectors

REFRESH_SECONDS = 5


def _check(token: str) -> None:
    expected = getattr(settings, "CARDROOM_BOARD_TOKEN", "") or ""
    if not expected or not secrets.compare_digest(token.encode(), expected.encode()):
        raise Http404("no such board")


def _context(token: str) -> dict:
    moment = now()
    return {
        "stakes": floor_selectors.table_board(moment=moment),
        "moment": moment,
        "token": token,
        "refresh": REFRESH_SECONDS,
    }


@require_GET
def board(request, token: str):
    _check(token)
    return render(request, "board/board.html", _context(token))


@require_GET
def board_panel(request, token: str):
    """The board's changing part, polled by htmx every few seconds."""
    _check(token)
    return render(request, "board/_board.html", _context(token))
