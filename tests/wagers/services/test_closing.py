"""Closing a table (wagers.services.closing, docs/rules.md §3.7): between hands only; the
open game ends (reason closed), every seated player leaves with their chips cashed out (in
currency only where the supervisor marked it), anyone else with chips at the table is cashed
out too, the table is marked closed; a closed table seats no one, opens no game and takes no
chips until it is reopened. A refusal changes nothing."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import DealMode, Game, GameEndReason, Seating, Table, WaitlistEvent
from tables.selectors import waitlist_view
from tables.services import floor, waitlists
from tests.builders.fees import differences
from tests.builders.floor import make_player, open_floor
from tests.builders.money import Wager, all_balances, money_table, play_round
from wagers.models import LedgerTransaction, TransactionKind
from wagers.selectors import bankroll, chips_at_table
from wagers.services import chips
from wagers.services.closing import close_table
from wagers.services.leaving import Chips, leave_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def mt(staff):
    """A patron with $500 at seat 1, a TPPP with $300 at seat 2, a patron with no chips at
    seat 6, a backline bettor with $75 behind the seats; a game open."""
    return money_table(
        staff, {1: 50_000, 2: 30_000, 6: 0}, tppp_seats=[2], backliners=[7_500], name="LATE-1"
    )


def floor_now(table: Table) -> tuple:
    """What a refusal must leave as it was: balances, transactions, seats, games, the table."""
    table.refresh_from_db()
    return (
        all_balances(),
        LedgerTransaction.objects.count(),
        list(Seating.objects.filter(table=table).values_list("seat", "left_at")),
        list(Game.objects.filter(table=table).values_list("ended_at", "end_reason")),
        table.closed_at,
    )


def test_closing_ends_the_game_and_cashes_everyone_out(mt, staff):
    game = Game.objects.get(table=mt.table, ended_at__isnull=True)
    behind = mt.backliners[0]
    closed = close_table(
        table_id=mt.table.pk,
        by=staff.supervisor,
        currency_seats=[1],
        currency_players=[behind.pk],
    )
    game.refresh_from_db()
    assert (game.end_reason, game.end_detail) == (GameEndReason.CLOSED, "the table closed")
    assert closed.game == game and game.ended_by == staff.supervisor
    assert not Seating.objects.filter(table=mt.table, left_at__isnull=True).exists()
    posted = {left.seating.seat: left.settled for left in closed.left}
    assert [(t.kind, t.currency) for t in posted[1]] == [(TransactionKind.CASH_OUT, True)]
    assert [(t.kind, t.currency) for t in posted[2]] == [(TransactionKind.CREDIT, False)]
    assert posted[6] == ()  # no chips, nothing posted
    (backline,) = closed.cashed_out
    assert (backline.kind, backline.currency) == (TransactionKind.CASH_OUT, True)
    assert "closed" in backline.memo
    table = Table.objects.get(pk=mt.table.pk)
    assert table.closed_at is not None and table.closed_by == staff.supervisor
    assert closed.chips_cents == 50_000 + 30_000 + 7_500
    assert closed.message == (
        "LATE-1 is closed; the game ended; 3 players left their seats; 1 player behind a "
        "seat cashed out; $875.00 in chips cashed out in all"
    )
    # Nothing is left at the table, nobody holds chips anywhere, the books balance.
    assert chips_at_table(table) == {}
    assert [bankroll(p).balance for p in mt.players] == [0, 0, 0, 0]
    assert list(differences()) == []


def test_no_cash_out_is_a_currency_transaction_unless_marked(mt, staff):
    closed = close_table(table_id=mt.table.pk, by=staff.supervisor)
    cash_outs = [t for left in closed.left for t in left.settled] + list(closed.cashed_out)
    assert len(cash_outs) == 3
    assert not any(t.currency for t in cash_outs)


def test_a_tppp_bankroll_is_credited_even_when_marked(mt, staff):
    closed = close_table(table_id=mt.table.pk, by=staff.supervisor, currency_seats=[2])
    (credit,) = next(left.settled for left in closed.left if left.seating.seat == 2)
    assert (credit.kind, credit.currency) == (TransactionKind.CREDIT, False)


def test_a_table_with_no_game_and_nobody_closes(staff):
    table = floor.create_table(name="EMPTY-1", by=staff.supervisor)
    closed = close_table(table_id=table.pk, by=staff.supervisor)
    assert (closed.game, closed.left, closed.cashed_out) == (None, (), ())
    assert closed.message == "EMPTY-1 is closed"


def test_a_round_in_play_refuses_closing_and_nothing_changes(staff):
    mt = money_table(staff, {1: 50_000, 2: 50_000}, deal_mode=DealMode.RNG)
    play_round(mt, pd_seat=1, bank=20_000, wagers=[Wager(2, 500)], until=State.FLOP)
    before = floor_now(mt.table)
    with pytest.raises(StateError) as raised:
        close_table(table_id=mt.table.pk, by=staff.supervisor)
    assert (raised.value.state, raised.value.rule) == (State.FLOP, Rule.ROUND_SEQUENCE)
    assert "a table closes between hands" in raised.value.message
    assert floor_now(mt.table) == before


REFUSED = [
    # (marks, the rule, the field)
    ({"currency_seats": [3]}, Rule.SEATS, "currency_seats"),  # an empty seat
    ({"currency_seats": [1, 9]}, Rule.SEATS, "currency_seats"),  # no such seat
    ({"currency_players": ["seated"]}, Rule.CHIPS_IN_FRONT, "currency_players"),  # by the seat
    ({"currency_players": ["stranger"]}, Rule.CHIPS_IN_FRONT, "currency_players"),  # no chips
]


@pytest.mark.parametrize(("marks", "rule", "field"), REFUSED)
def test_a_mark_that_names_nobody_is_refused_and_nothing_changes(mt, staff, marks, rule, field):
    players = {"seated": mt.seated[1].pk, "stranger": make_player().pk}
    if "currency_players" in marks:
        marks = {"currency_players": [players[name] for name in marks["currency_players"]]}
    before = floor_now(mt.table)
    with pytest.raises(RuleError) as raised:
        close_table(table_id=mt.table.pk, by=staff.supervisor, **marks)
    assert (raised.value.rule, raised.value.field) == (rule, field)
    assert floor_now(mt.table) == before


def test_a_closed_table_seats_no_one_opens_no_game_and_takes_no_chips(mt, staff):
    other = money_table(staff, {1: 20_000}, name="LATE-2")
    close_table(table_id=mt.table.pk, by=staff.supervisor)
    newcomer = make_player()
    refusals = [
        lambda: floor.seat_player(
            table_id=mt.table.pk, seat=1, player_id=newcomer.pk, by=staff.dealer
        ),
        lambda: floor.open_game_at(table_id=mt.table.pk, first_offer_seat=1, by=staff.supervisor),
        lambda: chips.buy_in(
            table_id=mt.table.pk,
            player_id=newcomer.pk,
            amount=1_000,
            currency=True,
            by=staff.dealer,
        ),
        lambda: leave_seat(  # carried to a closed table: the player stays where they are
            table_id=other.table.pk,
            seat=1,
            by=staff.dealer,
            chips=Chips.CARRY,
            to_table_id=mt.table.pk,
            to_seat=3,
        ),
        lambda: close_table(table_id=mt.table.pk, by=staff.supervisor),
    ]
    for refused in refusals:
        before = (floor_now(mt.table), floor_now(other.table))
        with pytest.raises(StateError) as raised:
            refused()
        assert (raised.value.state, raised.value.rule) == (State.TABLE_CLOSED, Rule.CLOSED_TABLE)
        assert "LATE-1 is" in raised.value.message
        assert (floor_now(mt.table), floor_now(other.table)) == before
    assert chips_at_table(mt.table) == {}


def test_a_reopened_table_seats_players_and_opens_a_game(mt, staff):
    close_table(table_id=mt.table.pk, by=staff.supervisor)
    table = floor.reopen_table(table_id=mt.table.pk, by=staff.supervisor)
    assert (table.closed_at, table.closed_by) == (None, None)
    floor.seat_player(table_id=table.pk, seat=4, player_id=make_player().pk, by=staff.dealer)
    assert floor.open_game_at(table_id=table.pk, first_offer_seat=4, by=staff.supervisor)
    with pytest.raises(StateError) as raised:
        floor.reopen_table(table_id=table.pk, by=staff.supervisor)
    assert (raised.value.state, raised.value.rule) == (State.TABLE_OPEN, Rule.CLOSED_TABLE)


def test_closing_a_table_withdraws_the_calls_to_its_seats(clock, staff):
    """A player called to a seat at a table that closes keeps their place on the list."""
    f = open_floor("PP....", staff=staff, open_game=False, minimum_cents=900, maximum_cents=9000)
    row = waitlists.open_waitlist(minimum_cents=900, maximum_cents=9000, by=staff.supervisor)
    player = make_player()
    waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=f.table_id, seat=4, by=staff.supervisor)
    close_table(table_id=f.table_id, by=staff.supervisor)
    last = WaitlistEvent.objects.filter(waitlist=row).latest("id")
    assert (last.kind, last.player_id, last.by) == ("withdrawn", player.pk, staff.supervisor)
    view = waitlist_view(waitlist_id=row.pk)
    assert view.now.players == (player.pk,) and view.now.entry(player.pk).call is None
    assert view.open_seats == ()  # a closed table's seats are not offered
