"""The floor map, the 40-minute warning, the bankroll page and the vendored assets."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from cardroom.errors import State
from console import selectors
from console.templatetags.console import dollars
from tables.models import DealMode, Game, Player, Round, Table
from tables.services import floor
from tests.builders.money import Wager, money_table, play_round
from tests.builders.reports import at
from wagers.models import PlayerDealerBank

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def _round(pk: int, minutes: int, player_id: int, tppp: bool) -> Round:
    return Round(
        pk=pk,
        game_id=1,
        started_at=T0 + timedelta(minutes=minutes),
        player_dealer_seat=1,
        player_dealer_id=player_id,
        player_dealer_is_tppp=tppp,
        tppps_seated=1,
    )


TPPP, ANN, BOB = 100, 1, 2


@pytest.mark.parametrize(
    ("now_minutes", "hands", "warned"),
    [
        # Young game: the rule only bites once the game has run 40 minutes.
        (20, [(0, TPPP, True), (5, TPPP, True)], False),
        # 32 minutes in, only the TPPP has banked: within 10 minutes the game would end.
        (32, [(0, TPPP, True), (10, TPPP, True), (20, TPPP, True)], True),
        # Two other players banked recently enough to still count 10 minutes from now.
        (32, [(5, ANN, False), (10, TPPP, True), (20, BOB, False)], False),
        # One of them banked too long ago: it drops out of the window within 10 minutes.
        (45, [(1, ANN, False), (10, TPPP, True), (40, BOB, False)], True),
    ],
)
def test_the_40_minute_warning(now_minutes, hands, warned):
    table = Table(name="T", created_at=T0)
    game = Game(pk=1, opened_at=T0, first_offer_seat=1)
    rounds = [_round(i + 1, m, p, t).banked_hand() for i, (m, p, t) in enumerate(hands)]
    warning = selectors.rotation_warning(table, game, rounds, T0 + timedelta(minutes=now_minutes))
    assert (warning is not None) == warned
    if warned:
        assert "40-minute" in warning or "40 minutes" in warning
        assert warning.endswith("(rule: the 40-minute rule, docs/rules.md §8.12)")


def test_no_warning_when_the_window_is_off():
    table = Table(name="T", created_at=T0, rotation_window_minutes=None)
    game = Game(pk=1, opened_at=T0, first_offer_seat=1)
    rounds = [_round(1, 0, TPPP, True).banked_hand()]
    assert selectors.rotation_warning(table, game, rounds, T0 + timedelta(hours=2)) is None


def test_floor_map_shows_every_table_at_a_glance(as_user, card_table):
    round_ = play_round(
        card_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING
    )
    client = as_user("compliance")
    page = client.get(reverse("console:floor")).content.decode()
    assert card_table.table.name in page
    assert "game open" in page
    assert f"{round_.number}: Wagering open" in page
    assert f"seat 2, {card_table.seated[2].name}" in page and "(1 in a row)" in page
    assert 'hx-trigger="every 5s"' in page
    partial = client.get(reverse("console:floor"), HTTP_HX_REQUEST="true").content.decode()
    assert card_table.table.name in partial
    assert "<html" not in partial  # htmx swaps the tables only
    # The counters: hands, the last one, the 40-minute rule's time left, minutes seated.
    assert "1 in the last hour" in page and "last 0 min ago" in page
    assert "40-minute rule: 40 min left" in page
    assert f'{card_table.seated[1].name} <span class="helptext">(0 min)</span>' in page


def test_floor_map_queries_do_not_grow_with_tables(as_user, staff, django_assert_max_num_queries):
    for _ in range(6):  # each with a hand in play, whose player-dealer the map names
        mt = money_table(staff, {1: 1_000, 2: 1_000})
        play_round(mt, pd_seat=1, bank=500, wagers=[], until=State.WAGERING)
    client = as_user("supervisor")
    with django_assert_max_num_queries(14):  # with the Title 31 warning's currency totals
        assert client.get(reverse("console:floor")).status_code == 200


def _bankroll_series(page: str) -> dict:
    found = re.search(
        r'<script id="bankroll-series" type="application/json">(.*?)</script>', page, re.S
    )
    assert found, "the page ships the chart's series"
    return json.loads(found.group(1))


def test_bankroll_page_ships_the_chart_series_hand_by_hand_and_by_day(as_user, staff, clock):
    # Gaming day 2026-11-20 starts at 06:00 Pacific; a hand settled at 01:00 the next night
    # still belongs to it, the 10:00 hand to the 21st.
    clock.set(at("2026-11-20T20:00:00"))
    mt = money_table(  # hours apart: no 40-minute rule (docs/rules.md §8.12) at this table
        staff,
        {1: 50_000, 2: 50_000, 3: 50_000},
        deal_mode=DealMode.RNG,
        rotation_window_minutes=None,
    )
    dealer = mt.seated[2]
    rng = random.Random(7)
    banked = []
    for moment in ("2026-11-20T20:00:00", "2026-11-21T01:00:00", "2026-11-21T10:00:00"):
        clock.set(at(moment))
        banked.append(play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], rng=rng))
        clock.advance(minutes=5)  # another player-dealer in between (at most two in a row)
        play_round(mt, pd_seat=3, bank=10_000, wagers=[Wager(1, 1_000)], rng=rng)
    nets = [PlayerDealerBank.objects.get(round=r).net_cents for r in banked]
    assert any(nets), "the seed deals hands the player-dealer wins or loses"

    page = as_user("dealer").get(reverse("console:bankroll", args=[dealer.pk])).content.decode()
    series = _bankroll_series(page)
    assert series["timezone"] == "America/Los_Angeles"
    assert series["hands"] == {
        "time": [
            int(at(moment).timestamp())
            for moment in ("2026-11-20T20:00:00", "2026-11-21T01:00:00", "2026-11-21T10:00:00")
        ],
        "result": [nets[0], nets[0] + nets[1], nets[0] + nets[1] + nets[2]],
        "net": nets,
        "hand": [f"{mt.table.name} round {r.number}" for r in banked],
    }
    assert series["days"] == {
        "day": ["2026-11-20", "2026-11-21"],
        "hands": [2, 1],
        "result": [nets[0] + nets[1], nets[2]],
    }
    assert f"result {dollars(sum(nets))}" in page  # the chart ends at the page's result
    # uPlot and the page's script from /static, only on this page; no inline script.
    assert '<script src="/static/vendor/uplot/uPlot.iife.min.js" defer>' in page
    assert '<link rel="stylesheet" href="/static/vendor/uplot/uPlot.min.css">' in page
    assert '<script src="/static/console/bankroll.js" defer>' in page
    floor_page = as_user("compliance").get(reverse("console:floor")).content.decode()
    assert "uplot" not in floor_page.lower()
    # Without JavaScript: the last gaming days, newest first, in dollars.
    noscript = page[page.index("<noscript>") : page.index("</noscript>")]
    assert noscript.index("Sat Nov 21, 2026") < noscript.index("Fri Nov 20, 2026")
    assert dollars(nets[0] + nets[1]) in noscript and dollars(nets[2]) in noscript


def test_the_chart_keeps_the_older_hands_in_the_running_result(as_user, staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    dealer = mt.seated[2]
    rng = random.Random(11)
    for _ in range(3):
        play_round(mt, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], rng=rng)
        play_round(mt, pd_seat=3, bank=10_000, wagers=[Wager(1, 1_000)], rng=rng)
    nets = list(
        PlayerDealerBank.objects.filter(player=dealer)
        .order_by("round_id")
        .values_list("net_cents", flat=True)
    )
    chart = selectors.bankroll_chart(dealer, hands=2)
    assert chart.data["hands"]["net"] == nets[1:]
    assert chart.data["hands"]["result"] == [nets[0] + nets[1], sum(nets)]


def test_a_player_who_never_banked_gets_no_chart(as_user, staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000})
    page = as_user("dealer").get(reverse("console:bankroll", args=[mt.seated[1].pk]))
    text = page.content.decode()
    assert "No hand banked yet." in text
    assert "bankroll-series" not in text and "uplot" not in text.lower()


def test_static_assets_are_vendored_and_served_locally(as_user, client):
    page = as_user("dealer").get(reverse("console:floor")).content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert "/static/vendor/htmx/htmx.min.js" in scripts
    assert all(src.startswith("/static/") for src in scripts)  # no CDN
    response = client.get("/static/vendor/htmx/htmx.min.js")
    assert response.status_code == 200
    assert b"htmx" in b"".join(response.streaming_content)


def test_the_floor_map_warns_before_the_40_minute_rule_ends_a_tppp_game(as_user, staff, clock):
    start = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
    clock.set(start)
    mt = money_table(
        staff, {1: 50_000, 2: 50_000, 3: 50_000}, tppp_seats=[1], deal_mode=DealMode.RNG
    )
    rng = random.Random(3)
    for minutes, seat in [(0, 1), (5, 2), (10, 1)]:
        clock.set(start + timedelta(minutes=minutes))
        play_round(mt, pd_seat=seat, bank=5_000, wagers=[Wager(3, 500)], rng=rng)
    client = as_user("supervisor")
    clock.set(start + timedelta(minutes=20))
    calm = client.get(reverse("console:floor")).content.decode()
    assert "TPPP" in calm and "game ends unless another player banks" not in calm
    clock.set(start + timedelta(minutes=32))
    page = client.get(reverse("console:floor")).content.decode()
    assert "within 10 minutes the game ends unless another player banks" in page
    assert "only 1 player(s) other than a TPPP held the position" in page


def test_keep_button_only_when_the_rotation_rules_allow_keeping(as_user, staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000}, deal_mode=DealMode.RNG, offer_every_hand=False)
    rng = random.Random(3)
    keep = "Seat 1 keeps it for a second hand"
    page = lambda: as_user("dealer").get(reverse("console:table", args=[mt.table.pk]))  # noqa: E731
    assert keep not in page().content.decode()  # nobody has banked yet
    play_round(mt, pd_seat=1, bank=10_000, wagers=[Wager(2, 1_000)], rng=rng)
    assert keep in page().content.decode()
    play_round(mt, pd_seat=1, bank=10_000, wagers=[Wager(2, 1_000)], rng=rng)
    assert "keeps it for a second hand" not in page().content.decode()  # two in a row: no keep


def test_no_keep_once_the_button_has_been_offered(as_user, staff):
    """Keeping is only before an offer round for the next hand has begun (docs/rules.md §8.4)."""
    mt = money_table(staff, {1: 50_000, 2: 50_000}, deal_mode=DealMode.RNG, offer_every_hand=False)
    play_round(mt, pd_seat=1, bank=10_000, wagers=[Wager(2, 1_000)], rng=random.Random(3))
    client = as_user("dealer")
    table_url = reverse("console:table", args=[mt.table.pk])
    assert "Seat 1 keeps it for a second hand" in client.get(table_url).content.decode()
    offer = client.post(reverse("console:table-action", args=[mt.table.pk, "offer"]))
    assert offer.status_code == 302
    assert "keeps it for a second hand" not in client.get(table_url).content.decode()
    response = client.post(reverse("console:table-action", args=[mt.table.pk, "keep"]))
    assert response.status_code == 409
    body = response.content.decode()
    assert "cannot keep the position without an offer round" in body
    assert "(rule: keeping the button, docs/rules.md §8.4)" in body


def test_floor_map_names_the_last_player_dealer_however_long_ago(staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000}, deal_mode=DealMode.RNG)
    play_round(mt, pd_seat=1, bank=10_000, wagers=[Wager(2, 1_000)], rng=random.Random(5))
    (row,) = [r for r in selectors.floor_map() if r.table == mt.table]
    assert row.last_round.player_dealer == mt.seated[1]
    # An hour later, beyond the 40-minute window the warning reads, it is still named.
    later = row.last_round.started_at + timedelta(hours=1)
    (row,) = [r for r in selectors.floor_map(later) if r.table == mt.table]
    assert row.last_round is not None and row.last_round.player_dealer == mt.seated[1]


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("PL-0042", ["Zed Zimmer"]),  # the number on the player's card
        ("0042", ["Zed Zimmer"]),  # part of it
        ("pl-004", ["Yara Young", "Zed Zimmer"]),
        ("zimmer", ["Zed Zimmer"]),
        ("nobody", []),
    ],
)
def test_the_players_page_finds_a_player_by_name_or_player_number(as_user, typed, found):
    floor.create_player(player_number="PL-0042", name="Zed Zimmer")
    floor.create_player(player_number="PL-0041", name="Yara Young")
    floor.create_player(player_number="VIP-7", name="Xavier Xu")
    response = as_user("dealer").get(reverse("console:players"), {"q": typed})
    assert response.status_code == 200
    assert [p.name for p in response.context["page"]] == found


def test_a_supervisor_registers_players_from_the_console(as_user):
    client = as_user("supervisor")
    url = reverse("console:players-create")
    response = client.post(url, {"player_number": "PL-9001", "name": "Nia Noor"})
    assert response.status_code == 302
    tppp = {
        "player_number": "PL-9002",
        "name": "Oscar Ortiz",
        "tppp": "on",
        "business_name": "Ortiz Proposition Services",
        "badge_number": "B-77",
        "badge_expires_on": "2027-06-30",
    }
    assert client.post(url, tppp).status_code == 302
    assert Player.objects.get(player_number="PL-9002").tppp.badge_number == "B-77"
    # Refused, nothing stored: a number in use (the rule named), a TPPP without its badge.
    response = client.post(url, {"player_number": "PL-9001", "name": "Someone Else"})
    assert response.status_code == 400
    assert "player number PL-9001 is already in use" in response.content.decode()
    response = client.post(url, {**tppp, "player_number": "PL-9003", "badge_number": ""})
    assert response.status_code == 400
    assert "a TPPP needs its business, badge number and expiry" in response.content.decode()
    assert Player.objects.filter(player_number__startswith="PL-900").count() == 2
    # A dealer reads the players page but may not register anyone.
    assert as_user("dealer").post(url, {"player_number": "X", "name": "Y"}).status_code == 403
    assert (
        "Register a player"
        not in as_user("dealer").get(reverse("console:players")).content.decode()
    )


def test_a_supervisor_creates_a_table_from_the_floor_map(as_user):
    client = as_user("supervisor")
    url = reverse("console:tables-create")
    data = {
        "name": "UTH-7",
        "minimum_cents": "25",
        "maximum_cents": "1000",
        "chip_unit_cents": "5",
        "deal_mode": "card_entry",
    }
    response = client.post(url, data)
    table = Table.objects.get(name="UTH-7")
    assert response.status_code == 302 and response.url == reverse("console:table", args=[table.pk])
    assert (table.minimum_cents, table.maximum_cents, table.chip_unit_cents) == (2500, 100_000, 500)
    assert table.deal_mode == DealMode.CARD_ENTRY
    # Refused, nothing stored: the name taken, limits out of order (the options rule named).
    assert client.post(url, data).status_code == 400
    response = client.post(url, {**data, "name": "UTH-8", "minimum_cents": "2000"})
    assert response.status_code == 400
    assert "the options sheet of a table" in response.content.decode()
    assert Table.objects.filter(name__startswith="UTH-").count() == 1
    assert as_user("dealer").post(url, {**data, "name": "UTH-9"}).status_code == 403


# --- A player's identification (docs/rules.md §3.3): typed in full, shown only masked -------

ID = {
    "id_type": "driver_license",
    "id_number": "D1234567",
    "id_issued_by": "California",
    "date_of_birth": "1990-05-17",
}


def test_a_supervisor_registers_a_player_with_identification(as_user, clock):
    from console.models import StaffAction

    client = as_user("supervisor")
    url = reverse("console:players-create")
    response = client.post(url, {"player_number": "PL-7001", "name": "Maria Garcia", **ID})
    assert response.status_code == 302
    player = Player.objects.get(player_number="PL-7001")
    assert (player.id_type, player.id_number, player.id_issued_by) == (
        "driver_license", "D1234567", "California",
    )  # fmt: skip
    # The list shows the type, the number masked, the issuer and the date of birth.
    page = as_user("dealer").get(reverse("console:players")).content.decode()
    assert "Driver&#x27;s license ••••4567 (California)" in page and "1990-05-17" in page
    assert "D1234567" not in page
    # The audit trail records the registration with the number masked.
    (action,) = StaffAction.objects.filter(action="register a player")
    assert "••••4567" in action.detail and "D1234567" not in action.detail


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ({"id_type": "passport"}, "an ID type is recorded with its number"),
        ({"id_number": "X1234567"}, "an ID number is recorded with its type"),
        (
            {"date_of_birth": "2010-01-01"},
            "the player was 16 on 2026-11-20, the day registered; the minimum age is 21",
        ),
    ],
)
def test_refused_identification_shows_the_api_message_on_the_form(as_user, clock, typed, message):
    response = as_user("supervisor").post(
        reverse("console:players-create"), {"player_number": "PL-7002", "name": "Ned", **typed}
    )
    assert response.status_code == 400
    assert (
        f"{message} (rule: identifying a player, docs/rules.md §3.3)" in response.content.decode()
    )
    assert not Player.objects.filter(player_number="PL-7002").exists()


def test_the_player_page_shows_the_identification_and_a_supervisor_edits_it(as_user, clock):
    from console.models import StaffAction

    player = floor.create_player(player_number="PL-7003", name="Oscar Ortiz")
    page_url = reverse("console:bankroll", args=[player.pk])
    url = reverse("console:player-identification", args=[player.pk])
    page = as_user("dealer").get(page_url).content.decode()
    assert "No ID recorded." in page and "Edit identification" not in page
    assert as_user("dealer").post(url, ID).status_code == 403
    assert as_user("compliance").post(url, ID).status_code == 403

    client = as_user("supervisor")
    assert "Edit identification" in client.get(page_url).content.decode()
    response = client.post(url, ID)
    assert response.status_code == 302 and response.url == page_url
    page = client.get(page_url).content.decode()
    assert "Driver&#x27;s license <strong>••••4567</strong>" in page
    assert "issued by California" in page and "Date of birth: 1990-05-17" in page
    # The recorded number is never put back in the page: an empty number keeps it.
    assert "D1234567" not in page and 'placeholder="••••4567"' in page
    assert client.post(url, {**ID, "id_number": "", "id_issued_by": "Nevada"}).status_code == 302
    player.refresh_from_db()
    assert (player.id_number, player.id_issued_by) == ("D1234567", "Nevada")
    # Refused, nothing changed: the message on the form, as the API says it.
    response = client.post(url, {**ID, "date_of_birth": "2030-01-01"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "2030-01-01 is in the future (rule: identifying a player, docs/rules.md §3.3)" in body
    assert '<details class="panel spaced" id="edit-identification" open>' in body
    player.refresh_from_db()
    assert player.date_of_birth.isoformat() == "1990-05-17"
    # An ID type of "none" with no number clears the ID.
    assert client.post(url, {"id_type": "", "date_of_birth": "1990-05-17"}).status_code == 302
    player.refresh_from_db()
    assert (player.id_type, player.id_number, player.id_issued_by) == ("", "", "")
    # The name and the number corrected on the same form; a number in use refused.
    floor.create_player(player_number="PL-7004", name="Pat Other")
    taken = client.post(url, {"player_number": "PL-7004", "date_of_birth": "1990-05-17"})
    assert taken.status_code == 400
    assert "player number PL-7004 is already in use" in taken.content.decode()
    renamed = {"name": "Oscar Ortiz Jr", "player_number": "PL-7005", "date_of_birth": "1990-05-17"}
    assert client.post(url, renamed).status_code == 302
    player.refresh_from_db()
    assert (player.name, player.player_number) == ("Oscar Ortiz Jr", "PL-7005")
    edits = StaffAction.objects.filter(action="edit a player's identification")
    assert [edit.outcome for edit in edits.order_by("id")] == [
        "done",
        "done",
        "refused",
        "done",
        "refused",
        "done",
    ]
    assert not any("D1234567" in edit.detail + edit.message for edit in edits)
