"""No hole card on the console before the showdown (docs/rules.md §2.3, §2.6). A card-entry
table keys no card at the deal and the hole cards only at the showdown, as they are turned
face up; the card pickers know only the board; a refused entry names no card typed but one
already on the board, and its form comes back empty; the audit trail (its page, its export,
the admin) records that cards were keyed, never which, on the console and from the API."""

from __future__ import annotations

import html
import io
import json
import random
import re
from datetime import date
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from cardroom.errors import State
from console.audit import KEYED_CARDS_NOT_RECORDED
from console.audit_export import KIND, REPORT_TYPE
from console.models import StaffAction
from console.templatetags.console import card
from reports import services as report_services
from reports.parameters import normalise
from rounds import services as rounds
from tables.models import DealMode, Round
from tests.builders.factories import UserFactory
from tests.builders.floor import PLAY_RIVER, Cards
from tests.builders.money import Wager, money_table, play_round

pytestmark = pytest.mark.django_db

DAY = "2026-11-20"  # the clock fixture's gaming day
BOARD = ["7c", "8d", "9s", "Jc", "Qd"]
DEALT = Cards(["2c", "3d"], {1: ["Ah", "Ad"], 3: ["Kc", "Qc"]}, BOARD)
HOLES = ["2c", "3d", "Ah", "Ad", "Kc", "Qc"]  # as keyed at the showdown, in picker order
CARD_CODE = re.compile(r"\b[2-9TJQKA][cdhs]\b")


class Page(HTMLParser):
    """The pickers' buttons (field -> {card: data-used}), their owners, the cards shown as
    cards, and every text input's value."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.pickers: dict[str, dict[str, str]] = {}
        self.owners: dict[str, str] = {}
        self.counts: dict[str, str] = {}
        self.shown: list[str] = []
        self.values: dict[str, str] = {}
        self._picker: str | None = None
        self._depth = 0
        self._in_card = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "div" and "picker" in classes:
            self._picker, self._depth = attrs["data-field"], 0
            self.pickers[self._picker] = {}
            self.owners[self._picker] = attrs.get("data-owners", "")
            self.counts[self._picker] = attrs["data-count"]
        elif tag == "div" and self._picker is not None:
            self._depth += 1
        if self._picker is not None and tag == "button" and "data-card" in attrs:
            self.pickers[self._picker][attrs["data-card"]] = attrs["data-used"]
        if tag == "input" and attrs.get("type") == "text":
            self.values[attrs.get("id") or attrs["name"]] = attrs.get("value") or ""
        self._in_card = tag == "span" and "card" in classes

    def handle_endtag(self, tag):
        if tag == "div" and self._picker is not None:
            if self._depth == 0:
                self._picker = None
            else:
                self._depth -= 1
        if tag == "span":
            self._in_card = False

    def handle_data(self, data):
        if self._in_card and data.strip():
            self.shown.append(data.strip())

    def greyed(self, field: str) -> set[str]:
        return {c for c, used in self.pickers[field].items() if used == "1"}


def table_page(client, table) -> Page:
    response = client.get(reverse("console:table", args=[table.pk]))
    assert response.status_code == 200
    return Page(response.content.decode())


def act(client, table, action, data):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data)


def refusal(response) -> str:
    """The refusal box of a refused action's page, as text."""
    body = response.content.decode()
    return html.unescape(body.split('id="refusal"')[1].split("</div>")[0])


def decide_all(client, table, round_, action="check", multiple=0):
    for seat in (1, 3):
        data = {"round_id": round_.pk, "seat": seat, "action": action, "multiple": multiple}
        assert act(client, table, "decide", data).status_code == 302


@pytest.fixture
def rng_table(staff):
    """As ``card_table``, at a table dealing by RNG."""
    return money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, deal_mode=DealMode.RNG)


def play(mt, until: State) -> Round:
    """Seat 2 banks; seats 1 and 3 wager and play on the river; the cards are ``DEALT``
    (keyed: the board as it is turned, the hole cards at the showdown) or the RNG's."""
    entry = mt.table.deal_mode == DealMode.CARD_ENTRY
    return play_round(
        mt,
        pd_seat=2,
        bank=10_000,
        wagers=[Wager(1, 1_000), Wager(3, 1_000)],
        decisions={1: PLAY_RIVER, 3: PLAY_RIVER},
        cards=DEALT if entry else None,
        rng=None if entry else random.Random(12),
        until=until,
    )


@pytest.mark.parametrize("state", [State.PREFLOP, State.FLOP])
def test_an_rng_tables_hole_cards_are_neither_greyed_nor_shown(as_user, rng_table, state):
    round_ = play(rng_table, state)
    holes = {*round_.dealer_hole, *(c for hand in round_.hands.all() for c in hand.hole)}
    assert len(holes) == 6
    page = table_page(as_user("dealer"), rng_table.table)
    assert page.pickers == {}  # an RNG table deals by itself: no picker
    assert set(page.shown) & {card(c) for c in holes} == set()


def test_a_card_entry_hand_on_the_console_from_the_deal_to_the_showdown(as_user, card_table, clock):
    table = card_table.table
    round_ = play(card_table, State.NO_MORE_BETS)
    client = as_user("dealer")

    # The deal keys no card: cards typed anyway are refused, and the form is not refilled.
    page = table_page(client, table)
    assert page.pickers == {} and "id_cards" not in page.values
    refused = act(client, table, "deal", {"round_id": round_.pk, "cards": " ".join(HOLES)})
    assert refused.status_code == 400
    assert rounds.CARDS_AT_THE_DEAL in refusal(refused)
    assert not CARD_CODE.search(refusal(refused))
    assert "id_cards" not in Page(refused.content.decode()).values
    assert act(client, table, "deal", {"round_id": round_.pk}).status_code == 302
    round_.refresh_from_db()
    assert round_.state == State.PREFLOP and round_.dealer_hole is None
    decide_all(client, table, round_)

    # The flop picker: only the board shown so far is greyed (none yet). A refused flop names
    # no card typed and comes back empty.
    page = table_page(client, table)
    assert list(page.pickers) == ["id_flop_cards"] and page.greyed("id_flop_cards") == set()
    refused = act(client, table, "flop", {"round_id": round_.pk, "cards": "7c 7c 9s"})
    assert refused.status_code == 400
    assert "cards 1 and 2 keyed for the flop are the same card" in refusal(refused)
    assert not CARD_CODE.search(refusal(refused))
    assert Page(refused.content.decode()).values["id_flop_cards"] == ""
    assert act(client, table, "flop", {"round_id": round_.pk, "cards": "7c 8d 9s"}).status_code == (
        302
    )
    decide_all(client, table, round_)

    # A card already on the board is named: it is no secret.
    refused = act(client, table, "turn_river", {"round_id": round_.pk, "cards": "9s 4h"})
    assert refused.status_code == 400
    assert "card 9s is already on the board" in refusal(refused)
    assert set(CARD_CODE.findall(refusal(refused))) == {"9s"}
    assert Page(refused.content.decode()).greyed("id_tr_cards") == {"7c", "8d", "9s"}
    assert act(
        client, table, "turn_river", {"round_id": round_.pk, "cards": "Jc Qd"}
    ).status_code == (302)
    decide_all(client, table, round_, action="play", multiple=1)

    # The showdown: the picker keys the player-dealer's two, then seat 1's and seat 3's; it
    # greys out the board only.
    page = table_page(client, table)
    assert list(page.pickers) == ["id_showdown_cards"]
    assert page.owners["id_showdown_cards"] == (
        "player-dealer,player-dealer,seat 1,seat 1,seat 3,seat 3"
    )
    assert page.counts["id_showdown_cards"] == "6"
    assert page.greyed("id_showdown_cards") == set(BOARD)
    refused = act(client, table, "showdown", {"round_id": round_.pk,
                                              "cards": "2c 3d Ah Ah Kc Qc"})  # fmt: skip
    assert refused.status_code == 400
    assert "cards 1 and 2 keyed for seat 1 are the same card" in refusal(refused)
    assert not CARD_CODE.search(refusal(refused))
    assert Page(refused.content.decode()).values["id_showdown_cards"] == ""  # not refilled
    assert Round.objects.get(pk=round_.pk).dealer_hole is None
    for typed, words in (
        ("2c 3d Ah Ad Kc", "5 cards keyed; the showdown needs 6: the player-dealer's two "
                           "cards, then two for each of seats 1, 3"),
        ("2c 7c Ah Ad Kc Qc", "a card keyed for the player-dealer is also on the board"),
    ):  # fmt: skip
        refused = act(client, table, "showdown", {"round_id": round_.pk, "cards": typed})
        assert refused.status_code == 400 and words in refusal(refused)
        assert set(CARD_CODE.findall(refusal(refused))) == set()
    done = act(client, table, "showdown", {"round_id": round_.pk, "cards": " ".join(HOLES)})
    assert done.status_code == 302
    round_.refresh_from_db()
    assert round_.state == State.SHOWDOWN and round_.dealer_hole == ["2c", "3d"]
    assert {card(c) for c in HOLES} <= set(table_page(client, table).shown)  # face up now

    # The trail: every card-entry row says cards were keyed, never which; only the board
    # card a refusal named is in it.
    steps = ["deal", "show the flop", "show the turn and river", "showdown"]
    rows = StaffAction.objects.filter(action__in=steps)
    assert rows.count() == 10
    for row in rows:
        assert json.loads(row.detail)["cards"] == KEYED_CARDS_NOT_RECORDED
        assert set(CARD_CODE.findall(row.detail + row.message)) <= {"9s"}, row.message
    assert_nowhere_on_the_trail(as_user, HOLES)


def assert_nowhere_on_the_trail(as_user, holes) -> None:
    """No hole card typed on the audit page, in its CSV export or in the admin's StaffAction
    pages, nor found by their search."""
    page = as_user("supervisor").get(reverse("console:audit")).content.decode()
    # As whole words: the page's CSRF token is random letters and may hold "Ah" by chance.
    assert not re.search(r"\b(" + "|".join(holes) + r")\b", page)
    parameters = normalise(
        REPORT_TYPE, {"gaming_day": DAY}, formats=KIND.formats, today=date(2100, 1, 1),
        filters=KIND.filters,
    )  # fmt: skip
    out = io.BytesIO()
    report_services.generate(REPORT_TYPE, parameters, out)
    exported = out.getvalue().decode()
    assert "keyed cards are not recorded here" in exported
    assert not set(CARD_CODE.findall(exported)) & set(holes)
    admin = UserFactory(is_superuser=True, is_staff=True)
    client = as_user("supervisor")
    client.force_login(admin)
    changelist = reverse("admin:console_staffaction_changelist")
    assert not set(CARD_CODE.findall(client.get(changelist).content.decode())) & set(holes)
    for row in StaffAction.objects.all():
        change = client.get(reverse("admin:console_staffaction_change", args=[row.pk]))
        assert not set(CARD_CODE.findall(change.content.decode())) & set(holes)
    for code in ("Kc", "Qc", "3d"):  # a search finds no row by a hole card
        found = client.get(changelist, {"q": code}).context["cl"].result_count
        assert found == 0, code


def test_the_api_trail_keeps_no_card_keyed(as_user, card_table, clock):
    round_ = play(card_table, State.NO_MORE_BETS)
    api = as_user("dealer")
    base = f"/api/rounds/{round_.pk}/"

    def post(step, body, status):
        response = api.post(base + step, body, content_type="application/json")
        assert response.status_code == status, response.content
        return response

    keyed = {"player_dealer": ["2c", "3d"], "hands": {"1": ["Ah", "Ad"], "3": ["Kc", "Qc"]}}
    post("deal/", json.dumps({"cards": keyed}), 400)
    post("deal/", json.dumps(keyed), 200)  # no "cards": dealt face down, the rest ignored
    rounds.decide_street(round_id=round_.pk, decisions=[(1, "check", 0), (3, "check", 0)],
                         by=card_table.staff.dealer)  # fmt: skip
    post("flop/", json.dumps({"cards": ["7c", "7c", "9s"]}), 400)
    post("flop/", json.dumps({"cards": BOARD[:3]}), 200)
    rounds.decide_street(round_id=round_.pk, decisions=[(1, "check", 0), (3, "check", 0)],
                         by=card_table.staff.dealer)  # fmt: skip
    post("turn-river/", json.dumps({"cards": BOARD[3:]}), 200)
    rounds.decide_street(round_id=round_.pk, decisions=[(1, "play", 1), (3, "play", 1)],
                         by=card_table.staff.dealer)  # fmt: skip
    twice = {**keyed, "hands": {"1": ["Ah", "Ah"], "3": ["Kc", "Qc"]}}
    post("showdown/", json.dumps({"cards": twice}), 400)
    post("showdown/", json.dumps(keyed), 400)  # the cards outside "cards": nothing keyed
    post("showdown/", json.dumps([keyed]), 400)  # not even an object
    post("showdown/", json.dumps({"cards": keyed}), 200)

    rows = list(StaffAction.objects.filter(channel="api").order_by("at", "id"))
    assert [(r.action, r.outcome) for r in rows] == [
        ("rounds:round-deal", "refused"),
        ("rounds:round-deal", "done"),
        ("rounds:round-flop", "refused"),
        ("rounds:round-flop", "done"),
        ("rounds:round-turn-river", "done"),
        ("rounds:round-showdown", "refused"),
        ("rounds:round-showdown", "refused"),
        ("rounds:round-showdown", "refused"),
        ("rounds:round-showdown", "done"),
    ]
    for row in rows:
        assert not CARD_CODE.search(row.detail + row.message), (row.detail, row.message)
        assert KEYED_CARDS_NOT_RECORDED in row.detail
    assert rows[0].message == rounds.CARDS_AT_THE_DEAL
    assert json.loads(rows[1].detail) == dict.fromkeys(
        ["hands", "player_dealer"], KEYED_CARDS_NOT_RECORDED
    )
    assert rows[5].message == "cards 1 and 2 keyed for seat 1 are the same card"
    assert rows[7].detail == KEYED_CARDS_NOT_RECORDED
    assert Round.objects.get(pk=round_.pk).dealer_hole == ["2c", "3d"]  # the hand keeps them
    assert_nowhere_on_the_trail(as_user, ["2c", "3d", "Ah", "Ad", "Kc", "Qc"])
