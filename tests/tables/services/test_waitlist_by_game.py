"""Waitlists are kept by game and limits (docs/rules.md §3.6): a player waiting for "$20.00 -
$2,000.00 EZ Baccarat" is never offered an Ultimate Texas Hold'em seat at the same limits, and
the board and the lists name the game."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError, State, StateError
from tables import selectors
from tables.selectors import waitlist_view
from tables.services import waitlists
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

LOW, HIGH = 2_000, 200_000


@pytest.fixture
def room(staff):
    """An EZ Baccarat table (9 seats, 4 taken) and an Ultimate Texas Hold'em table (4 of 6
    taken), both at $20.00 - $2,000.00, each with its list."""
    bac = open_floor(
        "PPPP.....", staff=staff, game="ez_baccarat", name="BAC-1", minimum_cents=LOW,
        maximum_cents=HIGH,
    )  # fmt: skip
    uth = open_floor("PPPP..", staff=staff, name="UTH-1", minimum_cents=LOW, maximum_cents=HIGH)
    lists = {
        game: waitlists.open_waitlist(
            minimum_cents=LOW, maximum_cents=HIGH, game=game, by=staff.supervisor
        )
        for game in ("ez_baccarat", None)
    }
    return bac, uth, lists["ez_baccarat"], lists[None]


def test_each_game_at_the_same_limits_has_its_own_list(room):
    _bac, _uth, baccarat, first = room
    assert (baccarat.game, first.game) == ("ez_baccarat", "ultimate_texas_holdem")
    assert str(baccarat) == "$20.00 - $2,000.00 EZ Baccarat"
    assert str(first) == "$20.00 - $2,000.00 Ultimate Texas Hold'em"


def test_a_list_offers_only_the_seats_of_its_own_games_tables(room):
    _bac, _uth, baccarat, first = room
    seats = {(s.table.name, s.seat) for s in waitlist_view(waitlist_id=baccarat.pk).open_seats}
    assert seats == {("BAC-1", seat) for seat in range(5, 10)}  # nine seats, four taken
    seats = {(s.table.name, s.seat) for s in waitlist_view(waitlist_id=first.pk).open_seats}
    assert seats == {("UTH-1", 5), ("UTH-1", 6)}
    assert [t.name for t in waitlist_view(waitlist_id=baccarat.pk).tables] == ["BAC-1"]


def test_a_baccarat_player_is_not_called_to_an_uth_seat(room, staff):
    bac, uth, baccarat, _first = room
    player = make_player()
    waitlists.join(waitlist_id=baccarat.pk, player_id=player.pk, by=staff.supervisor)
    with pytest.raises(RuleError) as refused:
        waitlists.call(waitlist_id=baccarat.pk, table_id=uth.table_id, seat=5, by=staff.supervisor)
    assert refused.value.rule == Rule.WAITLIST_STAKES and refused.value.field == "table"
    assert refused.value.message == (
        "UTH-1 plays $20.00 - $2,000.00 Ultimate Texas Hold'em; this list is $20.00 - $2,000.00 "
        "EZ Baccarat"
    )
    called = waitlists.call(
        waitlist_id=baccarat.pk, table_id=bac.table_id, seat=9, by=staff.supervisor
    )
    assert (called.player_id, called.seat) == (player.pk, 9)  # a seat only baccarat has


def test_a_seat_the_table_does_not_have_is_refused(room, staff):
    _bac, uth, _baccarat, first = room
    waitlists.join(waitlist_id=first.pk, player_id=make_player().pk, by=staff.supervisor)
    with pytest.raises(RuleError) as refused:
        waitlists.call(waitlist_id=first.pk, table_id=uth.table_id, seat=7, by=staff.supervisor)
    assert refused.value.rule == Rule.SEATS


def test_opening_a_list_needs_an_open_table_of_that_game_and_one_list_per_game(room, staff):
    with pytest.raises(RuleError) as refused:
        waitlists.open_waitlist(
            minimum_cents=LOW, maximum_cents=HIGH * 2, game="ez_baccarat", by=staff.supervisor
        )
    assert refused.value.message == (
        "no open table plays $20.00 - $4,000.00 EZ Baccarat: a list is kept for the game and "
        "stakes of a table"
    )
    with pytest.raises(StateError) as twice:
        waitlists.open_waitlist(
            minimum_cents=LOW, maximum_cents=HIGH, game="ez_baccarat", by=staff.supervisor
        )
    assert twice.value.state == State.ALREADY_RECORDED
    with pytest.raises(RuleError) as unknown:
        waitlists.open_waitlist(
            minimum_cents=LOW, maximum_cents=HIGH, game="blackjack", by=staff.supervisor
        )
    assert (unknown.value.rule, unknown.value.field) == (Rule.WAITLIST_STAKES, "game")


def test_the_board_shows_each_game_at_its_stakes_with_its_own_seats(room, staff):
    _bac, _uth, baccarat, _first = room
    waitlists.join(waitlist_id=baccarat.pk, player_id=make_player().pk, by=staff.supervisor)
    board = {s.label: s for s in selectors.table_board()}
    bac = board["$20.00 - $2,000.00 EZ Baccarat"]
    uth = board["$20.00 - $2,000.00 Ultimate Texas Hold'em"]
    assert [(t.name, t.seated, t.open_seats) for t in bac.tables] == [("BAC-1", 4, 5)]
    assert [(t.name, t.seated, t.open_seats) for t in uth.tables] == [("UTH-1", 4, 2)]
    assert (len(bac.waiting), len(uth.waiting)) == (1, 0)
    assert (bac.stakes, bac.game_name) == ("$20.00 - $2,000.00", "EZ Baccarat")
