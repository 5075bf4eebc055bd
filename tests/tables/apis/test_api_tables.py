"""Tables and their options, seats and seatings, games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom import bounds
from cardroom.errors import Refused, Rule, State
from rounds import services as rounds
from tables.models import Game, Seating, Table, TableOptionChange
from tables.selectors import NO_PLAYER_DEALER_STATUS
from tables.services import button, floor
from tests.builders.factories import PlayerFactory, TPPPRegistrationFactory
from tests.builders.floor import make_player

pytestmark = pytest.mark.django_db

URL = "/api/tables/"


# --- Create, list, detail -----------------------------------------------------------------


def test_create_with_options(as_supervisor):
    body = {
        "name": "Main 1",
        "minimum_cents": 1000,
        "deal_mode": "card_entry",
        "preflop_multiples": [4],
        "trips_paytable": "UTH-03",
        "bad_beat_paytable": None,
    }
    response = as_supervisor.post(URL, body, format="json")
    assert response.status_code == 201, response.data
    options = response.data["options"]
    assert options["minimum_cents"] == 1000
    assert options["deal_mode"] == "card_entry"
    assert options["preflop_multiples"] == [4]
    assert options["bad_beat_paytable"] is None
    assert options["offer_every_hand"] is True  # California 2026 default
    assert response.data["button_state"] == "no_game"
    table = Table.objects.get(name="Main 1")
    assert (table.minimum_cents, table.trips_paytable) == (1000, "UTH-03")


def test_create_with_an_unknown_option_names_the_rule(as_supervisor):
    response = as_supervisor.post(URL, {"name": "T", "colour": "green"}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "colour"
    assert response.data["message"] == "unknown option colour"
    assert response.data["rule"] == Rule.OPTIONS
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "message", "rule"),
    [
        (
            {"minimum_cents": 60_000},
            "minimum_cents",
            "the table minimum is above the table maximum",
            Rule.OPTIONS,
        ),
        (
            {"chip_unit_cents": 0},
            "chip_unit_cents",
            "the chip must be a whole number of cents",
            Rule.OPTIONS,
        ),
        ({"max_consecutive_hands": 3}, "max_consecutive_hands", "at most 2", Rule.OPTIONS),
        (
            {"preflop_multiples": [2]},
            "preflop_multiples",
            "must be 3 or 4, not 2",
            Rule.PREFLOP_MULTIPLES,
        ),
        ({"trips_paytable": "UTH-99"}, "trips_paytable", "", Rule.PAYTABLES),
    ],
)
def test_create_with_a_broken_option_names_the_field_and_rule(
    as_supervisor, body, field, message, rule
):
    response = as_supervisor.post(URL, {"name": "T", **body}, format="json")
    assert response.status_code == 400, response.data
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == field
    assert message in response.data["message"]
    assert response.data["rule"] == rule
    assert not Table.objects.exists()


def test_create_with_a_service_argument_as_an_option(as_supervisor):
    response = as_supervisor.post(URL, {"name": "T", "by": 1}, format="json")
    assert response.status_code == 400
    assert response.data["field"] == "by"
    assert response.data["message"] == "unknown option by"
    assert response.data["rule"] == Rule.OPTIONS
    assert not Table.objects.exists()


def test_create_with_wrong_types_is_a_field_error(as_supervisor):
    response = as_supervisor.post(
        URL, {"minimum_cents": "lots", "offer_every_hand": "perhaps"}, format="json"
    )
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "minimum_cents"  # the options first, then the name
    assert response.data["message"] == bounds.NOT_AN_INTEGER
    assert set(response.data["errors"]) == {"name", "minimum_cents", "offer_every_hand"}


def test_duplicate_table_name(as_supervisor, on_floor):
    table = on_floor.table()
    response = as_supervisor.post(URL, {"name": table.name}, format="json")
    assert response.status_code == 400
    assert response.data["rule"] == Rule.TABLE_NAME
    assert response.data["field"] == "name"
    assert response.data["message"] == f"a table named {table.name!r} exists"


def test_list_shows_seats_game_and_round(as_compliance, on_floor):
    busy = on_floor.ready_table()
    round_ = on_floor.start(busy)
    idle = on_floor.table()
    response = as_compliance.get(URL)
    assert response.status_code == 200
    rows = {row["id"]: row for row in response.data["results"]}
    assert [s["seat"] for s in rows[busy.pk]["seated"]] == [1, 2, 3, 4]
    assert rows[busy.pk]["open_game"] == Game.objects.get(table=busy).pk
    assert rows[busy.pk]["active_round"] == {"id": round_.pk, "number": 1, "state": "wagering"}
    assert rows[idle.pk]["seated"] == []
    assert rows[idle.pk]["open_game"] is None
    assert rows[idle.pk]["active_round"] is None


def test_detail_shows_the_floor(as_dealer, on_floor, dealer):
    table = on_floor.ready_table(seats=(1, 3))
    tppp = TPPPRegistrationFactory().player
    on_floor.seat(table, 5, tppp)
    offer = button.offer_button(table_id=table.pk, by=dealer)
    response = as_dealer.get(f"{URL}{table.pk}/")
    assert response.status_code == 200
    data = response.data
    assert [(s["seat"], s["is_tppp"]) for s in data["seated"]] == [
        (1, False),
        (3, False),
        (5, True),
    ]
    assert data["seated"][2]["player"]["id"] == tppp.pk
    assert data["game"]["first_offer_seat"] == 1
    assert data["active_round"] is None
    assert data["offer_round"]["offers"][0]["id"] == offer.pk
    assert data["offer_round"]["offers"][0]["offered_by"] == "dealer"
    assert data["button_state"] == "offer_pending"
    assert data["button_status"] == (
        "seat 1 is being offered the player-dealer position; record the answer"
    )


def test_detail_of_a_missing_table_is_404(as_dealer):
    assert as_dealer.get(f"{URL}99999/").status_code == 404


def status_of(client, table):
    data = client.get(f"{URL}{table.pk}/").data
    return data["button_state"], data["button_status"]


def test_button_status_follows_the_button(as_dealer, on_floor, dealer, supervisor):
    table = on_floor.table()
    assert status_of(as_dealer, table) == (
        "no_game",
        "no game is open: a floor supervisor opens one",
    )
    floor.open_game_at(table_id=table.pk, first_offer_seat=2, by=supervisor)
    assert status_of(as_dealer, table)[0] == "no_players"
    for seat in (1, 2, 3):
        on_floor.seat(table, seat)
    assert status_of(as_dealer, table) == (
        "offer_needed",
        "offer the button: offers start at seat 2 and go clockwise",
    )
    offer = button.offer_button(table_id=table.pk, by=dealer)
    button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=False, by=dealer)
    assert status_of(as_dealer, table) == (
        "offering",
        "offer the button to the next seat clockwise",
    )
    offer = button.offer_button(table_id=table.pk, by=dealer)
    button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=True, by=dealer)
    assert status_of(as_dealer, table) == ("accepted", "seat 3 accepted; start the round")
    round_ = rounds.start_round(table_id=table.pk, by=dealer)
    assert status_of(as_dealer, table) == (
        "round_in_play",
        "round 1 is wagering open; seat 3 holds the player-dealer position",
    )
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    assert status_of(as_dealer, table) == (
        "offer_needed",
        "offer the button: offers start at seat 4 and go clockwise",
    )
    for _ in range(3):
        offer = button.offer_button(table_id=table.pk, by=dealer)
        button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=False, by=dealer)
    refused = button.offer_button(table_id=table.pk, by=dealer)
    assert isinstance(refused, Refused)
    assert refused.error.state == State.NO_PLAYER_DEALER
    assert refused.error.rule == Rule.NO_PLAYER_DEALER
    assert refused.error.message == NO_PLAYER_DEALER_STATUS
    assert status_of(as_dealer, table) == ("no_player_dealer", NO_PLAYER_DEALER_STATUS)
    assert NO_PLAYER_DEALER_STATUS == (
        "no eligible seated player accepted the player-dealer position, so no round can start "
        "at this table until one does: begin a new offer round"
    )


def test_button_status_offers_keeping_when_offers_are_not_every_hand(
    as_dealer, on_floor, supervisor
):
    table = on_floor.ready_table(offer_every_hand=False, max_tppp_per_table=None)
    round_ = on_floor.start(table, banker_seat=1)
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    assert status_of(as_dealer, table) == (
        "offer_needed",
        "offer the button: offers start at seat 2 and go clockwise, "
        "or seat 1 may keep it for a second consecutive hand",
    )
    assert as_dealer.get(f"{URL}{table.pk}/").data["keeper_seat"] == 1


def test_button_status_stops_offering_keeping_once_an_offer_round_has_begun(
    as_dealer, on_floor, supervisor, dealer
):
    """Once an offer round for the next hand has begun, even one every seat declined, the
    last player-dealer may no longer keep the button (docs/rules.md §8.4)."""
    table = on_floor.ready_table(offer_every_hand=False, max_tppp_per_table=None)
    round_ = on_floor.start(table, banker_seat=1)
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    for _ in range(4):  # seats 2, 3, 4, then 1 (asked last) decline
        offer = button.offer_button(table_id=table.pk, by=dealer)
        button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=False, by=dealer)
    exhausted = as_dealer.post(f"{URL}{table.pk}/button/offer/")
    assert exhausted.status_code == 409
    assert exhausted.data["code"] == State.NO_PLAYER_DEALER
    data = as_dealer.get(f"{URL}{table.pk}/").data
    assert (data["button_state"], data["button_status"]) == (
        "no_player_dealer",
        NO_PLAYER_DEALER_STATUS,
    )
    assert data["keeper_seat"] is None
    response = as_dealer.post(f"{URL}{table.pk}/button/keep/")
    assert response.status_code == 409
    assert response.data["code"] == State.OFFERS_REQUIRED
    assert (response.data["rule"], response.data["section"]) == (Rule.KEEP, "8.4")


def test_button_status_after_the_40_minute_rule_ends_the_game(
    as_dealer, on_floor, clock, supervisor
):
    table = on_floor.ready_table(seats=(1, 2))
    round_ = on_floor.start(table, banker_seat=1, join=(2,))
    rounds.void_round(round_id=round_.pk, by=supervisor, reason="misdeal")
    clock.advance(minutes=41)
    on_floor.bank(table, 1)  # seat 2 declines, seat 1 (asked last) keeps it
    response = as_dealer.post(f"{URL}{table.pk}/rounds/")
    assert response.status_code == 409
    assert response.data["code"] == State.GAME_ENDED
    assert response.data["rule"] == Rule.WINDOW
    assert response.data["section"] == "8.12"
    assert response.data["message"].startswith("the game has ended: only 1 player(s) other")
    state, status = status_of(as_dealer, table)
    assert state == "game_ended"
    assert status.startswith("the game ended: only 1 player(s) other than a TPPP")
    assert status.endswith("a floor supervisor may open a new game")


# --- Options --------------------------------------------------------------------------------


def test_change_options_is_logged(as_supervisor, on_floor, supervisor):
    table = on_floor.table()
    response = as_supervisor.patch(
        f"{URL}{table.pk}/", {"minimum_cents": 1000, "offer_every_hand": False}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["options"]["minimum_cents"] == 1000
    assert response.data["options"]["offer_every_hand"] is False
    changes = as_supervisor.get(f"{URL}{table.pk}/option-changes/")
    assert changes.status_code == 200
    rows = [
        (r["option"], r["old_value"], r["new_value"], r["changed_by"])
        for r in changes.data["results"]
    ]
    assert rows == [
        ("minimum_cents", 500, 1000, "supervisor"),
        ("offer_every_hand", True, False, "supervisor"),
    ]


def test_change_options_unknown_option(as_supervisor, on_floor):
    table = on_floor.table()
    response = as_supervisor.patch(f"{URL}{table.pk}/", {"name": "renamed"}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "name"
    assert response.data["message"] == "unknown option name"
    assert response.data["rule"] == Rule.OPTIONS
    assert not TableOptionChange.objects.exists()


def test_change_options_breaking_a_rule(as_supervisor, on_floor):
    table = on_floor.table()
    response = as_supervisor.patch(f"{URL}{table.pk}/", {"maximum_cents": 250}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "minimum_cents"
    assert response.data["message"] == "the table minimum is above the table maximum"
    assert response.data["rule"] == Rule.OPTIONS
    assert not TableOptionChange.objects.exists()


def test_change_options_during_a_round_is_409(as_supervisor, on_floor):
    table = on_floor.ready_table()
    on_floor.round_in("preflop", table)
    response = as_supervisor.patch(f"{URL}{table.pk}/", {"minimum_cents": 1000}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.PREFLOP
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert response.data["message"] == (
        "round 1 is hole cards dealt: pre-flop decisions; options change between hands"
    )
    assert not TableOptionChange.objects.exists()


def test_option_changes_of_a_missing_table_is_404(as_supervisor):
    assert as_supervisor.get(f"{URL}99999/option-changes/").status_code == 404


def test_patch_of_a_missing_table_is_404(as_supervisor):
    assert as_supervisor.patch(f"{URL}99999/", {}, format="json").status_code == 404


# --- Seats ----------------------------------------------------------------------------------


def seat_url(table, seat=None):
    return f"{URL}{table.pk}/seats/" + (f"{seat}/" if seat else "")


def test_seat_a_player(as_dealer, on_floor):
    table = on_floor.table()
    player = PlayerFactory()
    response = as_dealer.post(seat_url(table), {"seat": 4, "player": player.pk}, format="json")
    assert response.status_code == 201, response.data
    assert response.data["seat"] == 4
    assert response.data["player"]["id"] == player.pk
    assert response.data["seated_by"] == "dealer"
    assert response.data["left_at"] is None
    assert Seating.objects.get(table=table, left_at__isnull=True).player == player


@pytest.mark.parametrize(
    ("seat", "player", "field", "message", "rule"),
    [
        (2, "other", "seat", "seat 2 is taken", Rule.SEATS),
        (7, "new", "seat", "seat 7 does not exist", Rule.SEATS),
        (3, "seated", "player", "is already seated at", Rule.ONE_SEAT_PER_PLAYER),
    ],
)
def test_seating_errors_name_the_rule(as_dealer, on_floor, seat, player, field, message, rule):
    table = on_floor.table()
    seated = on_floor.seat(table, 2).player
    player = seated if player == "seated" else PlayerFactory()
    response = as_dealer.post(seat_url(table), {"seat": seat, "player": player.pk}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == field
    assert message in response.data["message"]
    assert response.data["rule"] == rule
    assert Seating.objects.count() == 1


def test_seating_tppp_limits(as_dealer, on_floor):
    table = on_floor.table()
    on_floor.seat(table, 1, TPPPRegistrationFactory().player)
    second = TPPPRegistrationFactory().player
    response = as_dealer.post(seat_url(table), {"seat": 2, "player": second.pk}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "player"
    assert response.data["message"] == "2 TPPP players would be seated; this table allows 1"
    assert response.data["rule"] == Rule.TPPP_PER_TABLE
    assert response.data["section"] == "8.10"
    expired = TPPPRegistrationFactory(
        badge_expires_on=timezone.localdate() - timedelta(days=1)
    ).player
    response = as_dealer.post(seat_url(table), {"seat": 3, "player": expired.pk}, format="json")
    assert response.status_code == 400
    assert response.data["field"] == "player"
    assert "badge expired" in response.data["message"]
    assert response.data["rule"] == Rule.TPPP_REGISTERED


def test_seating_input_errors(as_dealer, on_floor):
    table = on_floor.table()
    response = as_dealer.post(seat_url(table), {"seat": "one", "player": 999999}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "seat"
    assert response.data["message"] == bounds.NOT_AN_INTEGER
    assert set(response.data["errors"]) == {"seat", "player"}


def test_seat_at_a_missing_table_is_404(as_dealer):
    player = PlayerFactory()
    response = as_dealer.post("/api/tables/99999/seats/", {"seat": 1, "player": player.pk})
    assert response.status_code == 404


def test_unseat(as_dealer, on_floor):
    table = on_floor.table()
    seating = floor.seat_player(
        table_id=table.pk, seat=5, player_id=make_player().pk, by=on_floor.dealer
    )  # no chips at the table
    response = as_dealer.delete(seat_url(table, 5))
    assert response.status_code == 200, response.data
    assert response.data["seating"]["id"] == seating.pk
    assert response.data["seating"]["left_at"] is not None
    assert response.data["seating"]["unseated_by"] == "dealer"
    assert (response.data["chips"], response.data["transactions"]) == (0, [])
    seating.refresh_from_db()
    assert seating.left_at is not None


def test_unseat_an_empty_seat(as_dealer, on_floor):
    table = on_floor.table()
    response = as_dealer.delete(seat_url(table, 5))
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "seat"
    assert response.data["message"] == "seat 5 is empty"
    assert response.data["rule"] == Rule.SEATS


def test_the_player_dealer_cannot_leave_during_the_hand(as_dealer, on_floor):
    table = on_floor.ready_table()
    on_floor.round_in("flop", table)
    response = as_dealer.delete(seat_url(table, 1))
    assert response.status_code == 409
    assert response.data["code"] == State.FLOP
    assert response.data["rule"] == Rule.STAYS_SEATED
    assert "stays for the whole hand" in response.data["message"]
    response = as_dealer.post(seat_url(table, 2) + "leave/", {"chips": "cash_out"})
    assert response.status_code == 409
    assert response.data["code"] == State.FLOP
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert Seating.objects.filter(table=table, left_at__isnull=True).count() == 4


def test_seatings_filters(as_compliance, on_floor, dealer):
    first, second = on_floor.table(), on_floor.table()
    a = on_floor.seat(first, 1)
    b = on_floor.seat(first, 2)
    c = on_floor.seat(second, 1)
    floor.unseat_player(table_id=first.pk, seat=2, by=dealer)

    def ids(**params):
        response = as_compliance.get("/api/seatings/", params)
        assert response.status_code == 200, response.data
        return {row["id"] for row in response.data["results"]}

    assert ids() == {a.pk, b.pk, c.pk}
    assert ids(table=first.pk) == {a.pk, b.pk}
    assert ids(table=first.pk, active="true") == {a.pk}
    assert ids(active="false") == {b.pk}
    assert ids(player=c.player_id) == {c.pk}
    assert as_compliance.get("/api/seatings/", {"table": "x"}).status_code == 400


# --- Games ----------------------------------------------------------------------------------


def test_open_and_close_a_game(as_supervisor, on_floor):
    table = on_floor.table()
    response = as_supervisor.post(
        f"{URL}{table.pk}/game/open/", {"first_offer_seat": 3}, format="json"
    )
    assert response.status_code == 201, response.data
    assert response.data["is_open"] is True
    assert response.data["first_offer_seat"] == 3
    assert response.data["opened_by"] == "supervisor"
    response = as_supervisor.post(
        f"{URL}{table.pk}/game/close/", {"detail": "end of shift"}, format="json"
    )
    assert response.status_code == 200, response.data
    assert response.data["is_open"] is False
    assert response.data["end_reason"] == "closed"
    assert response.data["end_detail"] == "end of shift"
    assert response.data["ended_by"] == "supervisor"


def test_open_game_errors(as_supervisor, on_floor):
    table = on_floor.table()
    url = f"{URL}{table.pk}/game/open/"
    response = as_supervisor.post(url, {}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["field"] == "first_offer_seat"
    assert response.data["message"] == "This field is required."
    response = as_supervisor.post(url, {"first_offer_seat": 9}, format="json")
    assert response.status_code == 400
    assert response.data["code"] == "rule_broken"
    assert response.data["field"] == "first_offer_seat"
    assert response.data["message"] == "seat 9 does not exist: the table has seats 1 to 6"
    assert response.data["rule"] == Rule.SEATS
    assert as_supervisor.post(url, {"first_offer_seat": 1}, format="json").status_code == 201
    response = as_supervisor.post(url, {"first_offer_seat": 1}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.GAME_OPEN
    assert response.data["rule"] == Rule.GAME
    assert response.data["message"] == f"a game is already open at {table}"
    assert Game.objects.filter(table=table).count() == 1


def test_close_game_errors(as_supervisor, on_floor):
    table = on_floor.table()
    response = as_supervisor.post(f"{URL}{table.pk}/game/close/", {}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.NO_GAME
    assert response.data["rule"] == Rule.GAME
    busy = on_floor.ready_table()
    on_floor.round_in("river", busy)
    response = as_supervisor.post(f"{URL}{busy.pk}/game/close/", {}, format="json")
    assert response.status_code == 409
    assert response.data["code"] == State.RIVER
    assert response.data["rule"] == Rule.ROUND_SEQUENCE
    assert response.data["message"].endswith("; a game closes between hands")
    assert Game.objects.get(table=busy).ended_at is None


def test_games_filters(as_compliance, on_floor, supervisor):
    first = on_floor.ready_table(seats=())
    second = on_floor.ready_table(seats=())
    floor.close_game(table_id=second.pk, by=supervisor)
    open_one = Game.objects.get(table=first)
    closed = Game.objects.get(table=second)

    def ids(**params):
        response = as_compliance.get("/api/games/", params)
        assert response.status_code == 200, response.data
        return {row["id"] for row in response.data["results"]}

    assert ids() == {open_one.pk, closed.pk}
    assert ids(table=second.pk) == {closed.pk}
    assert ids(open="true") == {open_one.pk}
    assert ids(open="false") == {closed.pk}


def test_detail_counts_the_game(as_dealer, on_floor, clock):
    """The open game's counters: minutes open, hands (all, the last hour, per hour), the
    last hand, the 40-minute rule's time left, each seat's minutes seated."""
    table = on_floor.ready_table()
    assert as_dealer.get(f"{URL}{table.pk}/").data["counters"]["hands"] == 0
    clock.advance(minutes=12)
    on_floor.round_in("wagering", table)
    clock.advance(minutes=3)
    counters = as_dealer.get(f"{URL}{table.pk}/").data["counters"]
    assert counters["game_open_minutes"] == 15
    assert (counters["hands"], counters["hands_last_hour"]) == (1, 1)
    assert counters["hands_per_hour"] == "4.0"  # one hand in a quarter of an hour
    assert counters["minutes_since_last_hand"] == 3
    assert counters["minutes_to_window_limit"] == 25  # the game reaches 40 minutes then
    assert counters["seated_minutes"] == {"1": 15, "2": 15, "3": 15, "4": 15}
