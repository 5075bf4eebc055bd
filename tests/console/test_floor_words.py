"""The floor's words (docs/console.md): every console page, as each role sees it in every
state of a hand, and every API refusal speak as the floor does. No count of cents, no
``snake_case`` identifier, no ISO duration, no words run together from an internal name.

The visible text of each page is scanned (not its attributes, scripts or styles); the API's
refusals are scanned in their ``message``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tables.services import waitlists
from tests.builders.fees import table_schedule
from tests.builders.floor import make_player
from tests.console.test_forms import act, wagering

pytestmark = pytest.mark.django_db

INTERNAL = [
    (re.compile(r"\b\d[\d,]*\s*cents\b"), "a count of cents"),
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "a snake_case identifier"),
    (re.compile(r"\bP(?:\d+[YMWD])*T\d+(?:\.\d+)?[HMS]\b"), "an ISO duration"),
    (
        re.compile(r"\b(?:startround|turnriver|perbettingsquare|notconfigured)\b"),
        "words run together",
    ),
]


class _Text(HTMLParser):
    """The text a person reads: outside <script>, <style>, <template> and <textarea> (the
    settlement calculator's input is its JSON format, as the API's)."""

    HIDDEN = {"script", "style", "template", "textarea"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def internal_names(text: str) -> list[str]:
    found = []
    for pattern, what in INTERNAL:
        for match in pattern.finditer(text):
            start = max(match.start() - 40, 0)
            found.append(f"{what}: {match.group(0)!r} in …{text[start : match.end() + 40]}…")
    return found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Ante $10.00 · Blind $10.00", False),
        ("Ante (1000)", False),  # caught by the page checks of amounts, not this pattern
        ("500000 cents", True),
        ("(rate1_wager_from_cents)", True),
        ("gaming_day", True),
        ("Wait PT15M", True),
        ("startround", True),
        ("two_pair fold", True),
        ("turn and river · per betting square · two pair", False),
    ],
)
def test_the_scan_finds_internal_names(text, found):
    assert bool(internal_names(text)) is found


@pytest.fixture
def busy_floor(on_floor, staff, clock):
    """A card-entry table with a settled hand and a hand at the flop, a fee schedule, a
    waitlist with a call, a player with identification, and a refused action on the trail."""
    table = on_floor.ready_table()
    table_schedule(table, by=staff.supervisor)
    settled = on_floor.round_in("settled", table)
    in_play = on_floor.round_in("flop", table)
    row = waitlists.open_waitlist(
        minimum_cents=table.minimum_cents, maximum_cents=table.maximum_cents, by=staff.supervisor
    )
    waiting = make_player(name="Wanda Waits")
    waitlists.join(waitlist_id=row.pk, player_id=waiting.pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=table.pk, seat=6, by=staff.supervisor)
    return {"table": table, "settled": settled, "in_play": in_play, "player": waiting}


def _pages(floor_):
    table = floor_["table"]
    return [
        reverse("console:floor"),
        reverse("console:table", args=[table.pk]),
        reverse("console:table-options", args=[table.pk]),
        reverse("console:table-math", args=[table.pk]),
        reverse("console:players"),
        reverse("console:bankroll", args=[floor_["in_play"].player_dealer_id]),
        reverse("console:bankroll", args=[floor_["player"].pk]),
        reverse("console:audit"),
        reverse("console:fees"),
        reverse("console:reports"),
        reverse("console:calculator") + f"?round={floor_['settled'].pk}",
        reverse("console:waitlists"),
    ]


def test_the_table_board_speaks_the_floors_words(client, busy_floor, settings):
    settings.CARDROOM_BOARD_TOKEN = "words-board"
    problems = []
    for url in ("/board/words-board/", "/board/words-board/panel/"):
        response = client.get(url)
        assert response.status_code == 200, url
        problems += [f"{url}: {p}" for p in internal_names(visible_text(response.content.decode()))]
    assert problems == []
    assert "Wanda W." in client.get("/board/words-board/panel/").content.decode()


@pytest.mark.parametrize("role", ["supervisor", "dealer", "compliance"])
def test_every_page_speaks_the_floors_words(as_user, busy_floor, role):
    client = as_user(role)
    problems = []
    for url in _pages(busy_floor):
        response = client.get(url)
        if response.status_code == 403:
            continue
        assert response.status_code == 200, url
        problems += [f"{url}: {p}" for p in internal_names(visible_text(response.content.decode()))]
    assert problems == []


def test_every_state_of_a_hand_on_the_table_view(as_user, on_floor, clock):
    client = as_user("dealer")
    problems = []
    for state in ("wagering", "no_more_bets", "preflop", "flop", "river", "showdown", "settled"):
        round_ = on_floor.round_in(state, on_floor.ready_table())
        html = client.get(reverse("console:table", args=[round_.table_id])).content.decode()
        problems += [f"{state}: {p}" for p in internal_names(visible_text(html))]
    assert problems == []


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/tables/", {"name": "X", "minimum_cents": 700, "maximum_cents": 500}),
        ("post", "/api/tables/{table}/seats/", {"seat": 9, "player": 1}),
        ("post", "/api/tables/{table}/game/open/", {"first_offer_seat": 1}),
        ("post", "/api/rounds/{round}/decisions/", {"seat": 2, "action": "play", "multiple": 9}),
        ("post", "/api/waitlists/", {"minimum_cents": 123, "maximum_cents": 4567}),
        ("post", "/api/calculator/", {"options": {"trips_paytable": "UTH-99"}}),
    ],
)
def test_api_refusals_speak_the_floors_words(as_supervisor, busy_floor, method, path, body):
    url = path.format(table=busy_floor["table"].pk, round=busy_floor["in_play"].pk)
    response = getattr(as_supervisor, method)(url, body, format="json")
    assert 400 <= response.status_code < 500, response.data
    assert internal_names(str(response.json().get("message", ""))) == []


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("bet", {"seat": 1, "ante": "10.50", "blind": "10.50"}),
        ("bet", {"seat": 1, "ante": "1", "blind": "1"}),
        ("bet", {"seat": 1, "ante": "10", "blind": "10", "bad_beat": "5000"}),
        ("bet", {"seat": 1, "ante": "9000", "blind": "9000"}),
        ("fill", {"seat": 9, "amount": "-3"}),
    ],
)
def test_refusals_on_the_table_view_speak_the_floors_words(as_user, card_table, action, data):
    round_ = wagering(card_table)
    response = act(as_user("dealer"), card_table.table, action, {"round_id": round_.pk, **data})
    assert response.status_code in (400, 409)
    assert internal_names(visible_text(response.content.decode())) == []


def test_refused_forms_elsewhere_speak_the_floors_words(as_user, busy_floor):
    client = as_user("supervisor")
    table = busy_floor["table"]
    posts = [
        (reverse("console:table-options", args=[table.pk]), {"chip_unit_cents": "3"}),
        (reverse("console:fees-create-version"), {"schedule": "1", "rate0_player_fee_cents": "x"}),
        (reverse("console:waitlists-open"), {"stakes": "1-2", "response_minutes": "-1"}),
        (reverse("console:tables-create"), {"name": "", "minimum_cents": "7"}),
        (reverse("console:players-create"), {"player_number": "", "name": ""}),
    ]
    problems = []
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code in (400, 409), (url, response.status_code)
        problems += [f"{url}: {p}" for p in internal_names(visible_text(response.content.decode()))]
    assert problems == []
