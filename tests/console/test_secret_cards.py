"""No hole card on the console before the showdown (docs/rules.md §2.6): the card pickers know
only the board, the table shows no hole card, the audit trail keeps none; a card entered
twice is refused by the service on submit, in the floor's words, without naming it."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from cardroom.errors import State
from console.models import StaffAction
from console.templatetags.console import card
from tables.models import DealMode, Round
from tests.builders.floor import PLAY_RIVER, Cards
from tests.builders.money import Wager, money_table, play_round

pytestmark = pytest.mark.django_db

DEALT = Cards(["2c", "3d"], {1: ["Ah", "Ad"], 3: ["Kc", "Qc"]}, ["7c", "8d", "9s", "Jc", "Qd"])


class Page(HTMLParser):
    """The pickers' buttons (field -> {card: data-used}) and the cards shown as cards."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.pickers: dict[str, dict[str, str]] = {}
        self.shown: list[str] = []
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
        elif tag == "div" and self._picker is not None:
            self._depth += 1
        if self._picker is not None and tag == "button" and "data-card" in attrs:
            self.pickers[self._picker][attrs["data-card"]] = attrs["data-used"]
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


@pytest.fixture
def rng_table(staff):
    """As ``card_table``, at a table dealing by RNG."""
    return money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, deal_mode=DealMode.RNG)


def play(mt, until: State) -> Round:
    """Seat 2 banks; seats 1 and 3 wager; the cards are ``DEALT`` or the RNG's."""
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


def hole_cards(round_: Round) -> set[str]:
    return {*round_.dealer_hole, *(c for hand in round_.hands.all() for c in hand.hole)}


# The picker on the page in each state (card entry): the flop's, then the turn and river's.
PICKER = {State.PREFLOP: "id_flop_cards", State.FLOP: "id_tr_cards"}


@pytest.mark.parametrize("mode", [DealMode.CARD_ENTRY, DealMode.RNG])
@pytest.mark.parametrize("state", [State.PREFLOP, State.FLOP])
def test_no_hole_card_is_greyed_or_shown_before_the_showdown(
    as_user, card_table, rng_table, mode, state
):
    mt = card_table if mode == DealMode.CARD_ENTRY else rng_table
    round_ = play(mt, state)
    holes = hole_cards(round_)
    assert len(holes) == 6  # the player-dealer's two and two for each of seats 1 and 3
    page = table_page(as_user("dealer"), mt.table)
    greyed = set().union(*(page.greyed(field) for field in page.pickers))
    assert greyed & holes == set()
    assert set(page.shown) & {card(c) for c in holes} == set()
    if mode == DealMode.CARD_ENTRY:
        # While the street's decisions are pending they are the one next action: no picker.
        assert page.pickers == {}
        for seat in (1, 3):
            act(
                as_user("dealer"),
                mt.table,
                "decide",
                {"round_id": round_.pk, "seat": seat, "action": "check"},
            )
        page = table_page(as_user("dealer"), mt.table)
        assert set(page.shown) & {card(c) for c in holes} == set()
        # Then the one picker on the page greys out exactly the board shown so far.
        assert list(page.pickers) == [PICKER[state]]
        assert len(page.pickers[PICKER[state]]) == 52
        assert page.greyed(PICKER[state]) == set(round_.board)
        assert round_.board == DEALT.board[: 3 if state == State.FLOP else 0]
    else:
        assert page.pickers == {}  # an RNG table deals by itself: no picker


def test_hole_cards_are_shown_from_the_showdown_on(as_user, card_table):
    round_ = play(card_table, State.SHOWDOWN)
    page = table_page(as_user("dealer"), card_table.table)
    assert {card(c) for c in hole_cards(round_)} <= set(page.shown)


def test_a_hole_card_entered_at_the_turn_is_refused_in_the_floors_words(as_user, card_table):
    round_ = play(card_table, State.FLOP)
    client = as_user("dealer")
    for seat in (1, 3):
        act(
            client,
            card_table.table,
            "decide",
            {"round_id": round_.pk, "seat": seat, "action": "check"},
        )
    response = act(
        client, card_table.table, "turn_river", {"round_id": round_.pk, "cards": "Kc 4h"}
    )
    assert response.status_code == 400
    refusal = Page(response.content.decode())
    body = response.content.decode()
    assert (
        "Community cards: one of these cards is already in a hand dealt this round (which one "
        "stays secret until the showdown): check the cards turned up and enter them again, or "
        "call the floor supervisor if the deck holds a card twice (rule: each card is dealt once, "
        "docs/rules.md §1.2)"
    ) in body
    assert "Kc" not in body.split('id="refusal"')[1].split("</div>")[0]
    assert refusal.greyed("id_tr_cards") == {"7c", "8d", "9s"}  # still only the board
    # A card already on the board is named: it is no secret.
    response = act(
        client, card_table.table, "turn_river", {"round_id": round_.pk, "cards": "9s 4h"}
    )
    assert response.status_code == 400
    assert (
        "card 9s is already on the board (rule: each card is dealt once, docs/rules.md §1.2)"
        in (response.content.decode())
    )
    assert Round.objects.get(pk=round_.pk).board == ["7c", "8d", "9s"]


def test_the_audit_trail_keeps_no_hole_card_keyed_in(as_user, card_table):
    round_ = play(card_table, State.NO_MORE_BETS)
    client = as_user("dealer")
    refused = act(client, card_table.table, "deal", {"round_id": round_.pk, "cards": "2c 3d Ah Ah"})
    assert refused.status_code == 400
    assert "card Ah appears twice" in refused.content.decode()  # on the dealer's form
    done = act(
        client, card_table.table, "deal", {"round_id": round_.pk, "cards": "2c 3d Ah Ad Kc Qc"}
    )
    assert done.status_code == 302
    rows = StaffAction.objects.filter(action="deal").order_by("at", "id")
    assert [row.outcome for row in rows] == ["refused", "done"]
    for row in rows:
        assert "hole cards withheld until the showdown" in row.detail
        for code in ("2c", "3d", "Ah", "Ad", "Kc", "Qc"):
            assert code not in row.detail and code not in row.message
    assert rows[0].message.startswith(
        "card entry refused (rule: each card is dealt once, docs/rules.md §1.2)"
    )
    page = as_user("supervisor").get(reverse("console:audit")).content.decode()
    # As whole words: the page's CSRF token is random letters and may hold "Ah" by chance.
    assert not re.search(r"\b(Ah|Qc)\b", page)


def test_the_audit_trail_keeps_no_hole_card_sent_to_the_api(as_user, card_table):
    round_ = play(card_table, State.NO_MORE_BETS)
    cards = {"player_dealer": ["2c", "3d"], "hands": {"1": ["Ah", "Ad"], "3": ["Kc", "Qc"]}}
    response = as_user("dealer").post(
        f"/api/rounds/{round_.pk}/deal/", {"cards": cards}, content_type="application/json"
    )
    assert response.status_code == 200
    row = StaffAction.objects.get(action="rounds:round-deal")
    assert row.detail == '{"cards": "(withheld until the showdown, docs/rules.md §2.6)"}'
    assert Round.objects.get(pk=round_.pk).dealer_hole == ["2c", "3d"]  # the round keeps them
