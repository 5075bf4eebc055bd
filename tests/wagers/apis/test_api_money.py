"""The money endpoints through the API: each one's answer, and its 400 / 404 / 409 errors."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.errors import Rule
from rounds import services as rounds
from tables.services import floor
from tests.builders.factories import PlayerFactory, TPPPRegistrationFactory
from wagers.models import Account, Bet, LedgerTransaction, PlayerDealerBank
from wagers.services import chips

pytestmark = pytest.mark.django_db


def ok(response, code=200):
    assert response.status_code == code, getattr(response, "data", response)
    return response.data


def broken(response, field: str, rule: Rule) -> str:
    """A 400 for a broken rule naming ``field`` and ``rule``; returns the message."""
    assert response.status_code == 400, response.data
    assert response.data["code"] == "rule_broken", response.data
    assert (response.data["field"], response.data["rule"]) == (field, rule), response.data
    assert response.data["section"] == rule.section
    return response.data["message"]


def invalid(response) -> dict:
    """A 400 for input that does not parse; returns DRF's errors by field."""
    assert response.status_code == 400, response.data
    assert response.data["code"] == "invalid", response.data
    errors = response.data["errors"]
    assert response.data["field"] == next(iter(errors))
    return errors


def chips_of(player, table) -> int:
    account = chips.chip_account(player, table)
    return account.balance_cents if account else 0


def ledger_size() -> tuple[int, int, int]:
    return LedgerTransaction.objects.count(), Bet.objects.count(), PlayerDealerBank.objects.count()


def open_round(on_floor, table, banker_seat: int = 1):
    """A round in wagering with neither the bank nor any wager."""
    on_floor.bank(table, banker_seat)
    return rounds.start_round(table_id=table.pk, by=on_floor.dealer)


def players_at(table) -> dict:
    return {s.seat: s.player for s in table.seatings.filter(left_at__isnull=True)}


@pytest.fixture
def table(on_floor):
    """Seats 1 to 4 taken, each player with 100000 cents of chips; a game open."""
    return on_floor.ready_table()


# --- The bank ---------------------------------------------------------------------------------


def test_post_the_bank(as_dealer, on_floor, table):
    round_ = open_round(on_floor, table)
    pd = players_at(table)[1]
    data = ok(as_dealer.post(f"/api/rounds/{round_.pk}/bank/", {"amount": 30_000}), 201)
    bank = data["bank"]
    assert (bank["amount"], bank["net"], bank["remaining"], bank["exhausted"]) == (
        30_000,
        None,
        None,
        None,
    )
    assert bank["player"]["id"] == pd.pk
    assert bank["posted_by"] == "dealer"
    assert chips_of(pd, table) == on_floor.chips - 30_000
    in_play = Account.objects.get(round=round_, kind="round_bank")
    assert in_play.balance_cents == 30_000


def test_a_second_bank_is_409(as_dealer, on_floor, table):
    round_ = on_floor.start(table)
    before = ledger_size()
    response = as_dealer.post(f"/api/rounds/{round_.pk}/bank/", {"amount": 1000})
    assert response.status_code == 409
    assert response.data["code"] == "wagering"
    assert response.data["message"] == "the player-dealer's bank is already posted for this round"
    assert response.data["rule"] == Rule.BANK
    assert ledger_size() == before


@pytest.mark.parametrize(
    ("amount", "message", "rule"),
    [
        (100_100, "the bank of $1,001.00 is more than", Rule.CHIPS_IN_FRONT),
        (
            0,
            "the player-dealer's bank must be a whole number of cents above zero, not 0",
            Rule.BANK,
        ),
        (
            -500,
            "the player-dealer's bank must be a whole number of cents above zero, not -500",
            Rule.BANK,
        ),
        (1050, "a bank of $10.50 is not in whole chips of $1.00", Rule.BANK),
    ],
)
def test_bank_rules(as_dealer, on_floor, table, amount, message, rule):
    round_ = open_round(on_floor, table)
    before = ledger_size()
    response = as_dealer.post(f"/api/rounds/{round_.pk}/bank/", {"amount": amount})
    assert broken(response, "amount", rule).startswith(message)
    assert ledger_size() == before


def test_bank_input_errors(as_dealer, on_floor, table):
    round_ = open_round(on_floor, table)
    response = as_dealer.post(f"/api/rounds/{round_.pk}/bank/", {"amount": "lots"})
    assert set(invalid(response)) == {"amount"}
    assert response.data["field"] == "amount"
    assert as_dealer.post(f"/api/rounds/{round_.pk}/bank/", {}).status_code == 400
    assert as_dealer.post("/api/rounds/99999/bank/", {"amount": 1000}).status_code == 404


def test_the_bank_is_refused_after_no_more_bets(as_dealer, on_floor):
    round_ = on_floor.round_in("no_more_bets")
    response = as_dealer.post(f"/api/rounds/{round_.pk}/bank/", {"amount": 1000})
    assert response.status_code == 409
    assert response.data["code"] == "no_more_bets"
    assert response.data["rule"] == Rule.ROUND_SEQUENCE


# --- Wagers -----------------------------------------------------------------------------------


def wager_url(round_) -> str:
    return f"/api/rounds/{round_.pk}/wagers/"


def test_place_wagers(as_dealer, on_floor, table):
    round_ = on_floor.start(table, join=())
    player = players_at(table)[2]
    body = {"seat": 2, "ante": 1000, "blind": 1000, "trips": 500, "bad_beat": 500}
    data = ok(as_dealer.post(wager_url(round_), body, format="json"), 201)
    (hand,) = data["hands"]
    (bet,) = hand["bets"]
    assert bet == {
        "bettor": "seat",
        "player": {"id": player.pk, "player_number": player.player_number, "name": player.name},
        "ante": 1000,
        "blind": 1000,
        "trips": 500,
        "bad_beat": 500,
        "play": 0,
        "placed_at": bet["placed_at"],
    }
    assert chips_of(player, table) == on_floor.chips - 3000
    assert Account.objects.get(round=round_, kind="round_wagers").balance_cents == 3000


def test_a_wager_above_the_patrons_chips_is_400(as_dealer, on_floor, table):
    player = PlayerFactory()
    floor.seat_player(table_id=table.pk, seat=5, player_id=player.pk, by=on_floor.dealer)
    chips.buy_in(
        table_id=table.pk, player_id=player.pk, amount=1500, currency=True, by=on_floor.dealer
    )
    round_ = on_floor.start(table, join=())
    before = ledger_size()
    response = as_dealer.post(
        wager_url(round_), {"seat": 5, "ante": 500, "blind": 500, "trips": 1000}, format="json"
    )
    message = broken(response, "trips", Rule.CHIPS_IN_FRONT)
    assert "$20.00" in message and "$15.00" in message
    assert ledger_size() == before
    assert not round_.hands.exists()
    assert chips_of(player, table) == 1500


def test_a_seated_player_without_chips_cannot_wager(as_dealer, on_floor, table):
    player = PlayerFactory()
    floor.seat_player(table_id=table.pk, seat=5, player_id=player.pk, by=on_floor.dealer)
    round_ = on_floor.start(table, join=())
    response = as_dealer.post(wager_url(round_), {"seat": 5, "ante": 500, "blind": 500})
    assert "more than the bettor's $0.00 in chips" in broken(response, "ante", Rule.CHIPS_IN_FRONT)


@pytest.mark.parametrize(
    ("body", "field", "message", "rule"),
    [
        (
            {"ante": 500, "blind": 1000},
            "blind",
            "Ante ($5.00) and Blind ($10.00) must be equal",
            Rule.ANTE_BLIND,
        ),
        ({"ante": 0, "blind": 0}, "ante", "Ante and Blind are both required", Rule.ANTE_BLIND),
        (
            {"ante": 0, "blind": 0, "bad_beat": 500},
            "bad_beat",
            "a Bad Beat wager needs Ante and Blind",
            Rule.BAD_BEAT,
        ),
        ({"ante": 400, "blind": 400}, "ante", "the Ante of $4.00 is below the table", Rule.LIMITS),
        (
            {"ante": 500, "blind": 500, "trips": 60_000},
            "trips",
            "the Trips of $600.00 is above",
            Rule.LIMITS,
        ),
        (
            {"ante": 550, "blind": 550},
            "ante",
            "the Ante of $5.50 is not in whole chips",
            Rule.CHIP_UNIT,
        ),
        ({"ante": -500, "blind": -500}, "ante", "the Ante must be a whole number", Rule.CHIP_UNIT),
    ],
)
def test_wager_rules(as_dealer, on_floor, table, body, field, message, rule):
    round_ = on_floor.start(table, join=())
    before = ledger_size()
    response = as_dealer.post(wager_url(round_), {"seat": 2, **body}, format="json")
    assert broken(response, field, rule).startswith(message)
    assert ledger_size() == before
    assert not round_.hands.exists()


def test_bad_beat_needs_a_table_that_offers_it(as_dealer, on_floor):
    table = on_floor.ready_table(bad_beat_paytable=None)
    round_ = on_floor.start(table, join=())
    body = {"seat": 2, "ante": 500, "blind": 500, "bad_beat": 500}
    response = as_dealer.post(wager_url(round_), body, format="json")
    assert broken(response, "bad_beat", Rule.BAD_BEAT) == "this table offers no Bad Beat wager"


def test_a_wager_after_no_more_bets_is_409(as_dealer, on_floor):
    round_ = on_floor.round_in("no_more_bets")
    before = ledger_size()
    response = as_dealer.post(wager_url(round_), {"seat": 4, "ante": 500, "blind": 500})
    assert response.status_code == 409
    assert response.data["code"] == "no_more_bets"
    assert ledger_size() == before


def test_a_seat_wagers_once(as_dealer, on_floor, table):
    round_ = on_floor.start(table, join=(2,))
    response = as_dealer.post(wager_url(round_), {"seat": 2, "ante": 500, "blind": 500})
    assert response.status_code == 409
    assert response.data["code"] == "wagering"
    assert response.data["message"] == (
        "seat 2 has placed its wagers; nothing is increased or withdrawn"
    )


def test_a_tppp_cannot_wager(as_dealer, on_floor):
    table = on_floor.ready_table(seats=(1, 2))
    tppp = TPPPRegistrationFactory().player
    on_floor.seat(table, 3, tppp)
    round_ = on_floor.start(table, join=(2,))
    before = ledger_size()
    response = as_dealer.post(wager_url(round_), {"seat": 3, "ante": 500, "blind": 500})
    assert broken(response, "seat", Rule.TPPP_BANKS_ONLY).startswith("seat 3 is a TPPP player")
    body = {"seat": 2, "ante": 500, "blind": 500, "backline_player": tppp.pk}
    response = as_dealer.post(wager_url(round_), body, format="json")
    assert broken(response, "backline_player", Rule.TPPP_BANKS_ONLY) == (
        "a TPPP player accepts and settles wagers only while holding the position"
    )
    assert ledger_size() == before


def backliner(on_floor, table, amount=20_000):
    """A player standing behind the seats, with chips at the table."""
    player = PlayerFactory()
    chips.buy_in(
        table_id=table.pk, player_id=player.pk, amount=amount, currency=False, by=on_floor.dealer
    )
    return player


def test_backline_is_a_table_option(as_dealer, on_floor):
    table = on_floor.ready_table(backline_allowed=False)
    round_ = on_floor.start(table)
    body = {"seat": 2, "ante": 500, "blind": 500, "backline_player": backliner(on_floor, table).pk}
    before = ledger_size()
    response = as_dealer.post(wager_url(round_), body, format="json")
    message = broken(response, "seat", Rule.BACKLINE)
    assert message == "this table does not allow backline wagers"
    assert ledger_size() == before


def test_backline_errors(as_dealer, on_floor, table):
    round_ = on_floor.start(table, join=(2,))
    behind = backliner(on_floor, table)
    cases = [
        ({"seat": 3, "backline_player": behind.pk}, "seat", "seat 3 has no wagers to bet behind"),
        (
            {"seat": 2, "backline_player": players_at(table)[3].pk},
            "backline_player",
            "a seated player plays their own seat",
        ),
        (
            {"seat": 2, "backline_player": behind.pk, "bad_beat": 500},
            "bad_beat",
            "backline bettors make Ante, Blind and Trips only",
        ),
    ]
    for body, field, message in cases:
        response = as_dealer.post(
            wager_url(round_), {"ante": 500, "blind": 500, **body}, format="json"
        )
        assert broken(response, field, Rule.BACKLINE).startswith(message)
    response = as_dealer.post(
        wager_url(round_),
        {"seat": 2, "ante": 500, "blind": 500, "backline_player": 99999},
        format="json",
    )
    assert set(invalid(response)) == {"backline_player"}


def test_backline_bettors_follow_the_seat_to_the_settlement(as_dealer, as_compliance, on_floor):
    table = on_floor.ready_table()
    round_ = on_floor.start(table)
    behind = backliner(on_floor, table)
    body = {"seat": 2, "ante": 1000, "blind": 1000, "trips": 500, "backline_player": behind.pk}
    data = ok(as_dealer.post(wager_url(round_), body, format="json"), 201)
    seat2 = next(h for h in data["hands"] if h["seat"] == 2)
    assert [(b["bettor"], b["player"]["id"], b["ante"]) for b in seat2["bets"]] == [
        ("seat", players_at(table)[2].pk, 500),
        ("backline-1", behind.pk, 1000),
    ]
    by = on_floor.dealer
    rounds.close_wagering(round_id=round_.pk, by=by)
    rounds.deal(round_id=round_.pk, by=by, rng=random.Random(7))
    rounds.decide(round_id=round_.pk, seat=2, action="play", multiple=4, by=by)
    rounds.decide(round_id=round_.pk, seat=3, action="check", by=by)
    rounds.reveal_flop(round_id=round_.pk, by=by)
    rounds.decide(round_id=round_.pk, seat=3, action="check", by=by)
    rounds.reveal_turn_and_river(round_id=round_.pk, by=by)
    rounds.decide(round_id=round_.pk, seat=3, action="play", multiple=1, by=by)
    rounds.showdown(round_id=round_.pk, by=by)
    rounds.settle(round_id=round_.pk, by=by)

    settlement = ok(as_compliance.get(f"/api/rounds/{round_.pk}/settlement/"))
    lines = settlement["lines"]
    assert [line["order"] for line in lines] == list(range(1, len(lines) + 1))
    # At seat 2, the backline bettor comes right after the seat's own wagers.
    at_seat_2 = [(line["bettor"], line["wager"]) for line in lines if line["seat"] == 2]
    assert at_seat_2 == [
        ("seat", "ante"),
        ("seat", "play"),
        ("seat", "blind"),
        ("backline-1", "ante"),
        ("backline-1", "play"),
        ("backline-1", "blind"),
        ("backline-1", "trips"),
    ]
    backline = [line for line in lines if line["bettor"] == "backline-1"]
    assert {line["player"]["id"] for line in backline} == {behind.pk}
    assert next(line["stake"] for line in backline if line["wager"] == "play") == 4000
    won = sum(line["paid"] - line["collected"] for line in backline)
    assert chips_of(behind, table) == 20_000 + won
    bank = settlement["bank"]
    assert bank["net"] == sum(line["collected"] - line["paid"] for line in lines)
    assert bank["remaining"] == bank["amount"] + bank["net"]


# --- The settlement ---------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["wagering", "river", "showdown"])
def test_settlement_before_settled_is_409(as_compliance, on_floor, state):
    round_ = on_floor.round_in(state)
    response = as_compliance.get(f"/api/rounds/{round_.pk}/settlement/")
    assert response.status_code == 409
    assert response.data["code"] == state
    assert "its settlement is posted when it is settled" in response.data["message"]


def test_a_void_round_has_no_settlement(as_compliance, on_floor):
    round_ = on_floor.round_in("voided")
    response = as_compliance.get(f"/api/rounds/{round_.pk}/settlement/")
    assert response.status_code == 409
    assert response.data["code"] == "voided"
    assert as_compliance.get("/api/rounds/99999/settlement/").status_code == 404


def test_settlement_of_a_settled_round(as_compliance, on_floor):
    round_ = on_floor.round_in("settled")
    data = ok(as_compliance.get(f"/api/rounds/{round_.pk}/settlement/"))
    assert (data["round"], data["table"], data["number"], data["state"]) == (
        round_.pk,
        round_.table_id,
        1,
        "settled",
    )
    assert data["bank"]["amount"] == on_floor.bank_cents
    assert {line["seat"] for line in data["lines"]} == {2, 3}


# --- Chips ------------------------------------------------------------------------------------


def chips_url(table, action) -> str:
    return f"/api/tables/{table.pk}/chips/{action}/"


def test_buy_in(as_dealer, on_floor):
    table = on_floor.table()
    player = PlayerFactory()
    body = {"player": player.pk, "amount": 25_000, "currency": True}
    data = ok(as_dealer.post(chips_url(table, "buy-in"), body, format="json"), 201)
    account = chips.chip_account(player, table)
    assert account.kind == "patron_chips"
    assert (data["kind"], data["currency"], data["by"], data["round"], data["reverses"]) == (
        "buy_in",
        True,
        "dealer",
        None,
        None,
    )
    assert data["memo"] == str(table)
    entries = sorted((e["account"], e["amount"]) for e in data["entries"])
    cage = Account.objects.get(kind="cage")
    assert entries == sorted([(cage.pk, -25_000), (account.pk, 25_000)])
    assert account.balance_cents == 25_000
    again = {"player": player.pk, "amount": 5000, "currency": False}
    ok(as_dealer.post(chips_url(table, "buy-in"), again, format="json"), 201)
    assert chips_of(player, table) == 30_000


@pytest.mark.parametrize(
    ("body", "field", "message", "rule"),
    [
        ({"amount": 0}, "amount", "the amount must be a positive whole number", Rule.CHIP_AMOUNT),
        (
            {"amount": -100},
            "amount",
            "the amount must be a positive whole number",
            Rule.CHIP_AMOUNT,
        ),
        (
            {"amount": 150},
            "amount",
            "the amount of $1.50 is not in whole chips of $1.00",
            Rule.CHIP_AMOUNT,
        ),
    ],
)
def test_buy_in_rules(as_dealer, on_floor, body, field, message, rule):
    table = on_floor.table()
    player = PlayerFactory()
    response = as_dealer.post(
        chips_url(table, "buy-in"), {"player": player.pk, "currency": True, **body}, format="json"
    )
    assert broken(response, field, rule).startswith(message)
    assert not LedgerTransaction.objects.exists()


def test_buy_in_input_errors(as_dealer, on_floor):
    table = on_floor.table()
    player = PlayerFactory()
    response = as_dealer.post(
        chips_url(table, "buy-in"), {"player": 99999, "amount": "x"}, format="json"
    )
    assert set(invalid(response)) == {"player", "amount", "currency"}
    body = {"player": player.pk, "amount": 1000, "currency": True}
    assert as_dealer.post("/api/tables/99999/chips/buy-in/", body).status_code == 404
    assert not LedgerTransaction.objects.exists()


def test_a_tppp_is_filled_not_bought_in(as_dealer, on_floor):
    table = on_floor.table()
    tppp = TPPPRegistrationFactory().player
    body = {"player": tppp.pk, "amount": 50_000, "currency": True}
    response = as_dealer.post(chips_url(table, "buy-in"), body, format="json")
    message = broken(response, "player", Rule.TPPP_BANKROLL)
    assert message.startswith("a TPPP's chips come to the table by a fill")
    data = ok(
        as_dealer.post(
            chips_url(table, "fill"), {"player": tppp.pk, "amount": 50_000}, format="json"
        ),
        201,
    )
    assert (data["kind"], data["currency"]) == ("fill", False)
    assert chips.chip_account(tppp, table).kind == "bankroll"
    assert chips_of(tppp, table) == 50_000


def test_a_fill_for_a_patron_is_400(as_dealer, on_floor):
    table = on_floor.table()
    patron = PlayerFactory()
    response = as_dealer.post(
        chips_url(table, "fill"), {"player": patron.pk, "amount": 10_000}, format="json"
    )
    assert broken(response, "player", Rule.TPPP_BANKROLL) == (
        "fills bring a TPPP player-dealer's bankroll to the table; a patron buys in"
    )
    assert not LedgerTransaction.objects.exists()


def test_cash_out(as_dealer, as_compliance, on_floor):
    table = on_floor.table()
    player = PlayerFactory()
    on_floor.bring_chips(table, player, 30_000)
    body = {"player": player.pk, "amount": 10_000, "currency": True}
    data = ok(as_dealer.post(chips_url(table, "cash-out"), body, format="json"), 201)
    assert (data["kind"], data["currency"]) == ("cash_out", True)
    assert chips_of(player, table) == 20_000
    account = chips.chip_account(player, table)
    data = ok(
        as_dealer.post(
            chips_url(table, "cash-out"), {"player": player.pk, "currency": False}, format="json"
        ),
        201,
    )
    assert [e["amount"] for e in data["entries"] if e["account"] == account.pk] == [-20_000]
    closed = ok(as_compliance.get("/api/accounts/", {"player": player.pk, "open": "false"}))
    assert [(a["id"], a["balance"], a["is_open"]) for a in closed["results"]] == [
        (account.pk, 0, False)
    ]
    assert closed["results"][0]["closed_at"]
    assert chips.chip_account(player, table) is None


def test_cash_out_errors(as_dealer, on_floor):
    table = on_floor.table()
    player = PlayerFactory()
    body = {"player": player.pk, "amount": 1000, "currency": True}
    response = as_dealer.post(chips_url(table, "cash-out"), body, format="json")
    message = broken(response, "player", Rule.CHIPS_IN_FRONT)
    assert message.endswith(f"has no chips at {table}")
    on_floor.bring_chips(table, player, 5000)
    before = ledger_size()
    body = {"player": player.pk, "amount": 5100, "currency": True}
    response = as_dealer.post(chips_url(table, "cash-out"), body, format="json")
    message = broken(response, "amount", Rule.CHIPS_IN_FRONT)
    assert message == f"{player.name} has $50.00 in chips at {table}, not $51.00"
    tppp = TPPPRegistrationFactory().player
    on_floor.bring_chips(table, tppp, 5000)
    body = {"player": tppp.pk, "currency": True}
    response = as_dealer.post(chips_url(table, "cash-out"), body, format="json")
    assert response.status_code == 400
    assert response.data["rule"] == Rule.TPPP_BANKROLL
    assert ledger_size()[0] == before[0] + 1  # the TPPP's fill, nothing else
    assert chips_of(player, table) == 5000


def test_credit(as_dealer, on_floor):
    table = on_floor.table()
    tppp = TPPPRegistrationFactory().player
    on_floor.bring_chips(table, tppp, 40_000)
    body = {"player": tppp.pk, "amount": 15_000}
    data = ok(as_dealer.post(chips_url(table, "credit"), body, format="json"), 201)
    assert data["kind"] == "credit"
    assert chips_of(tppp, table) == 25_000
    ok(as_dealer.post(chips_url(table, "credit"), {"player": tppp.pk}, format="json"), 201)
    assert chips.chip_account(tppp, table) is None
    patron = PlayerFactory()
    on_floor.bring_chips(table, patron, 1000)
    response = as_dealer.post(chips_url(table, "credit"), {"player": patron.pk}, format="json")
    assert response.status_code == 400
    assert response.data["rule"] == Rule.TPPP_BANKROLL
    assert chips_of(patron, table) == 1000


# --- Accounts ---------------------------------------------------------------------------------


def test_accounts_list_filters(as_compliance, on_floor):
    round_ = on_floor.round_in("settled")
    other = on_floor.table()
    pd = round_.player_dealer
    on_floor.bring_chips(other, pd, 7000)

    def rows(**params):
        return ok(as_compliance.get("/api/accounts/", params))["results"]

    mine = rows(player=pd.pk)
    assert sorted(a["table"] for a in mine) == sorted([round_.table_id, other.pk])
    assert {a["kind"] for a in mine} == {"patron_chips"}
    assert mine[0]["player"]["id"] == pd.pk
    assert [a["balance"] for a in rows(player=pd.pk, table=other.pk)] == [7000]
    assert len(rows(table=round_.table_id, kind="patron_chips")) == 4
    assert [a["kind"] for a in rows(kind="cage")] == ["cage"]
    assert sorted(a["kind"] for a in rows(round=round_.pk)) == ["round_bank", "round_wagers"]
    assert all(a["is_open"] for a in rows(open="true"))
    assert rows(open="false") == []
    assert rows(player=99999) == []
    bad = as_compliance.get("/api/accounts/", {"kind": "piggy_bank"})
    assert set(invalid(bad)) == {"kind"}
    page = ok(as_compliance.get("/api/accounts/", {"limit": 2}))
    assert len(page["results"]) == 2 and page["count"] > 2 and page["next"]


def test_account_detail_and_statement(as_compliance, on_floor):
    round_ = on_floor.round_in("settled")
    seat2 = round_.hands.get(seat=2).player
    account = chips.chip_account(seat2, round_.table)
    data = ok(as_compliance.get(f"/api/accounts/{account.pk}/"))
    assert (data["id"], data["kind"], data["balance"]) == (
        account.pk,
        "patron_chips",
        account.balance_cents,
    )
    full = ok(as_compliance.get(f"/api/accounts/{account.pk}/transactions/"))
    kinds = [line["transaction"]["kind"] for line in full["results"]]
    assert kinds[:3] == ["buy_in", "wager", "play"]
    assert set(kinds[3:]) == {"settlement"}
    running = 0
    for line in full["results"]:
        mine = [e["amount"] for e in line["transaction"]["entries"] if e["account"] == account.pk]
        assert line["change"] == sum(mine)
        assert sum(e["amount"] for e in line["transaction"]["entries"]) == 0
        running += line["change"]
        assert line["balance"] == running
    assert running == account.balance_cents
    ids = [line["transaction"]["id"] for line in full["results"]]
    assert ids == sorted(ids)
    # A later page starts from the balance before it.
    page = ok(
        as_compliance.get(f"/api/accounts/{account.pk}/transactions/", {"limit": 2, "offset": 2})
    )
    assert page["results"] == full["results"][2:4]
    assert as_compliance.get("/api/accounts/99999/").status_code == 404
    assert as_compliance.get("/api/accounts/99999/transactions/").status_code == 404


# --- A player's money -------------------------------------------------------------------------


def test_bankroll_of_a_tppp(as_dealer, on_floor):
    table = on_floor.ready_table(seats=(2, 3), max_tppp_per_table=1)
    tppp = TPPPRegistrationFactory().player
    on_floor.seat(table, 1, tppp)  # a fill of on_floor.chips
    chips.credit(table_id=table.pk, player_id=tppp.pk, amount=30_000, by=on_floor.dealer)
    round_ = on_floor.start(table, banker_seat=1, join=(2, 3))
    data = ok(as_dealer.get(f"/api/players/{tppp.pk}/bankroll/"))
    assert data["player"]["id"] == tppp.pk
    assert data["is_tppp"] is True
    assert data["balance"] == on_floor.chips - 30_000 - on_floor.bank_cents  # the bank is in play
    assert data["movements"] == {
        "fills": on_floor.chips,
        "credits": 30_000,
        "buy_ins": 0,
        "cash_outs": 0,
        "fees": 0,
    }
    assert data["banking"]["hands_banked"] == 0  # not settled yet
    rounds.void_round(round_id=round_.pk, by=on_floor.supervisor, reason="misdeal")
    data = ok(as_dealer.get(f"/api/players/{tppp.pk}/bankroll/"))
    assert data["balance"] == on_floor.chips - 30_000


def test_bankroll_counts_each_hand_banked_once(as_compliance, on_floor):
    table = on_floor.ready_table()
    first = on_floor.round_in("settled", table)
    second = on_floor.round_in("settled", table)  # seat 1 keeps the bank a second time
    assert first.player_dealer_id == second.player_dealer_id
    banks = list(PlayerDealerBank.objects.filter(player=first.player_dealer).order_by("id"))
    lines = [b.round.settlement_lines.count() for b in banks]
    assert all(n > 1 for n in lines)
    data = ok(as_compliance.get(f"/api/players/{first.player_dealer_id}/bankroll/"))
    assert data["banking"] == {
        "hands_banked": 2,
        "total_result": sum(b.net_cents for b in banks),
        "largest_exposure": on_floor.bank_cents,
        "returned_uncovered": sum(
            line.returned_uncovered_cents for b in banks for line in b.round.settlement_lines.all()
        ),
        "unpaid_uncovered": sum(
            line.unpaid_uncovered_cents for b in banks for line in b.round.settlement_lines.all()
        ),
    }
    assert data["balance"] == on_floor.chips + sum(b.net_cents for b in banks)


def test_banks_and_sessions(as_compliance, on_floor):
    table = on_floor.ready_table()
    first = on_floor.round_in("settled", table)
    second = on_floor.round_in("settled", table)
    pd = first.player_dealer
    data = ok(as_compliance.get(f"/api/players/{pd.pk}/banks/"))
    assert data["count"] == 2
    newest, oldest = data["results"]
    assert (newest["round"]["id"], oldest["round"]["id"]) == (second.pk, first.pk)
    bank = PlayerDealerBank.objects.get(round=first)
    assert oldest["round"] == {
        "id": first.pk,
        "table": table.pk,
        "table_name": table.name,
        "number": 1,
        "seat": 1,
    }
    assert (oldest["amount"], oldest["net"], oldest["exhausted"]) == (
        on_floor.bank_cents,
        bank.net_cents,
        bank.exhausted,
    )
    sessions = ok(as_compliance.get(f"/api/players/{pd.pk}/sessions/"))
    (session,) = sessions["results"]
    assert session["seating"]["table"] == table.pk
    assert session["seating"]["seat"] == 1
    assert session["seating"]["left_at"] is None
    assert session["movements"]["buy_ins"] == on_floor.chips
    assert session["banking"]["hands_banked"] == 2
    assert session["banking"]["total_result"] == sum(
        b.net_cents for b in PlayerDealerBank.objects.filter(player=pd)
    )
    patron = first.hands.get(seat=2).player
    assert ok(as_compliance.get(f"/api/players/{patron.pk}/banks/"))["results"] == []
    for path in ("bankroll", "banks", "sessions", "playing-book.csv"):
        suffix = path if path.endswith(".csv") else f"{path}/"
        assert as_compliance.get(f"/api/players/99999/{suffix}").status_code == 404


# --- Lists cost a constant number of queries --------------------------------------------------


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_money_lists_use_a_constant_number_of_queries(as_compliance, on_floor):
    table = on_floor.ready_table()
    first = on_floor.round_in("settled", table)
    pd = first.player_dealer
    account = chips.chip_account(pd, table)
    urls = [
        "/api/accounts/",
        f"/api/players/{pd.pk}/banks/",
        f"/api/accounts/{account.pk}/transactions/",
        f"/api/rounds/{first.pk}/settlement/",
        f"/api/players/{pd.pk}/bankroll/",
        f"/api/players/{pd.pk}/playing-book.csv",
    ]
    few = [queries(as_compliance, url) for url in urls]
    later = on_floor.round_in("settled", table)
    assert later.player_dealer_id == pd.pk
    for _ in range(3):
        on_floor.bring_chips(table, pd, 1000)
    urls[3] = f"/api/rounds/{later.pk}/settlement/"
    assert [queries(as_compliance, url) for url in urls] == few
