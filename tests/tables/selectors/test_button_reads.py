"""The button's one-statement read (``tables.selectors.button._read_in_one_statement``, its
statement ``tables.sql.button_reads``) is a named hot-path reader (plain SQL, PostgreSQL): it
reads exactly what the ORM reads (``_read_with_orm``, the reader elsewhere) in every state of the
button: the same rows, the same instances (related rows cached and offers prefetched as the ORM
leaves them, so nothing is read again), the same ``button_state``, and the same table view."""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest
from django.db import connection, models
from django.test.utils import CaptureQueriesContext

from cardroom.errors import Refused, State
from rounds import services as rounds
from tables import options as table_options
from tables import selectors
from tables.apis.serializers import TableDetailSerializer
from tables.models import OfferAnswer, OfferRound, OfferRoundStatus, Table
from tables.selectors.button import _decided, _read_in_one_statement, _read_with_orm
from tables.services import button, floor
from tests.builders.floor import bank_and_play, give_button, open_floor, play_round

pytestmark = [pytest.mark.django_db, pytest.mark.requires_postgres]


def assert_same(sql, orm, path: str = "", seen: set | None = None) -> None:
    """``sql`` is what ``orm`` is: models field by field (and what the ORM cached or
    prefetched with them, cached or prefetched too), dataclasses field by field."""
    seen = set() if seen is None else seen
    if isinstance(orm, models.Model):
        assert type(sql) is type(orm), path
        if (id(sql), id(orm)) in seen:
            return
        seen.add((id(sql), id(orm)))
        for column in orm._meta.concrete_fields:
            name = column.attname
            assert_same(getattr(sql, name), getattr(orm, name), f"{path}.{name}", seen)
        assert (sql._state.adding, sql._state.db) == (orm._state.adding, orm._state.db), path
        for name, related in orm._state.fields_cache.items():
            assert name in sql._state.fields_cache, f"{path}.{name} is not cached"
            assert_same(sql._state.fields_cache[name], related, f"{path}.{name}", seen)
        prefetched = getattr(orm, "_prefetched_objects_cache", {})
        assert set(getattr(sql, "_prefetched_objects_cache", {})) == set(prefetched), path
        for name, rows in prefetched.items():
            assert_same(
                list(sql._prefetched_objects_cache[name]), list(rows), f"{path}.{name}", seen
            )
    elif dataclasses.is_dataclass(orm) and not isinstance(orm, type):
        assert type(sql) is type(orm), path
        for item in dataclasses.fields(orm):
            name = item.name
            assert_same(getattr(sql, name), getattr(orm, name), f"{path}.{name}", seen)
    elif isinstance(orm, list | tuple):
        assert type(sql) is type(orm) and len(sql) == len(orm), (path, sql, orm)
        for index, (one, other) in enumerate(zip(sql, orm, strict=True)):
            assert_same(one, other, f"{path}[{index}]", seen)
    elif isinstance(orm, datetime):
        assert sql == orm and sql.utcoffset() == orm.utcoffset(), (path, sql, orm)
    else:
        assert type(sql) is type(orm) and sql == orm, (path, sql, orm)


def check(table_id: int, *, moment: datetime | None = None) -> selectors.ButtonState:
    """Both readers at ``table_id`` (with a hand starting at ``moment``): the same reads, the
    same button state, the same table view; the one statement is one statement."""
    table = Table.objects.get(pk=table_id)
    policy = table_options.rotation_policy(table_options.snapshot(table))
    since = None if moment is None or policy.window is None else moment - policy.window
    with CaptureQueriesContext(connection) as sent:
        read = _read_in_one_statement(table, since)
    assert len(sent) == 1
    reference = _read_with_orm(table, since)
    assert_same(read, reference)
    with CaptureQueriesContext(connection) as sent:
        shown = selectors.button_state(table, moment=moment)
    assert len(sent) == 1
    expected = _decided(table, policy, reference)
    assert_same(shown, expected)
    with CaptureQueriesContext(connection) as sent:
        view = TableDetailSerializer(selectors.TableFloor(shown)).data
    assert view == TableDetailSerializer(selectors.TableFloor(expected)).data
    # Only the game's staff are read for the view (the ORM's reader does not join them).
    assert len(sent) == (0 if shown.game is None else 1 + (shown.game.ended_by_id is not None))
    return shown


def test_no_game_then_a_game_closed_then_one_ended_by_the_40_minute_rule(staff, clock):
    f = open_floor("PP....", staff=staff, open_game=False)
    assert check(f.table_id).state is State.NO_GAME
    floor.open_game_at(table_id=f.table_id, first_offer_seat=1, by=staff.supervisor)
    floor.close_game(table_id=f.table_id, by=staff.supervisor, detail="end of the shift")
    said = check(f.table_id, moment=clock.now())
    assert said.state is State.NO_GAME and said.history == [] and said.latest is None

    f = open_floor("PPT...", staff=staff, chips=5_000_000)
    ended = None
    while ended is None:
        for seat in (3, 1):
            clock.advance(minutes=6)
            give_button(f.table_id, seat, by=staff.dealer)
            started = rounds.start_round(table_id=f.table_id, by=staff.dealer)
            if isinstance(started, Refused):
                ended = started
                break
            rounds.void_round(round_id=started.pk, by=staff.supervisor, reason="misdeal")
    assert check(f.table_id).state is State.GAME_ENDED


def test_a_new_game_after_hands_of_an_earlier_one(staff, clock):
    f = open_floor("PPP...", staff=staff, offer_every_hand=False)
    bank_and_play(f, 2)
    floor.close_game(table_id=f.table_id, by=staff.supervisor)
    floor.open_game_at(table_id=f.table_id, first_offer_seat=3, by=staff.supervisor)
    said = check(f.table_id, moment=clock.now())
    # The earlier game's hand is the table's history and latest round, not the game's last.
    assert said.state is State.OFFER_NEEDED and said.keeper is None
    assert said.next_offer.start_seat == 3 and len(said.history) == 1
    assert said.latest.number == 1 and said.window_history == []


def test_no_players_and_a_game_without_hands(staff, clock):
    assert check(open_floor("......", staff=staff).table_id).state is State.NO_PLAYERS
    f = open_floor("PPPP..", staff=staff, first_offer_seat=3)
    for moment in (None, clock.now()):
        said = check(f.table_id, moment=moment)
        assert said.state is State.OFFER_NEEDED and said.latest is None


def test_an_offer_round_passing_over_declined_pending_then_exhausted(staff, clock):
    f = open_floor("PTTP..", staff=staff, max_tppp_per_table=None)
    bank_and_play(f, 2)  # a TPPP banked: the next TPPP is passed over
    offer = button.offer_button(table_id=f.table_id, by=staff.dealer)
    said = check(f.table_id)
    assert said.state is State.OFFER_PENDING and said.pending.seat == offer.seat == 4
    assert [o.answer for o in said.offer_round.offers.all()] == [
        OfferAnswer.INELIGIBLE,
        OfferAnswer.PENDING,
    ]
    button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=False, by=staff.dealer)
    assert check(f.table_id, moment=clock.now()).state is State.OFFERING
    offer = button.offer_button(table_id=f.table_id, by=staff.dealer)
    button.answer_offer(table_id=f.table_id, offer_id=offer.pk, accept=False, by=staff.dealer)
    assert isinstance(button.offer_button(table_id=f.table_id, by=staff.dealer), Refused)
    said = check(f.table_id)
    assert said.state is State.NO_PLAYER_DEALER
    assert said.offer_round.status == OfferRoundStatus.EXHAUSTED


def test_accepted_in_play_and_cancelled(staff, clock):
    f = open_floor("PPPP..", staff=staff)
    bank_and_play(f, 1)
    give_button(f.table_id, 3, by=staff.dealer)
    said = check(f.table_id, moment=clock.now())
    assert said.state is State.ACCEPTED and said.accepted.seat == 3
    assert [hand.seat for hand in said.window_history] == [1]
    round_ = play_round(f.table_id, by=staff.dealer, until=State.FLOP)
    said = check(f.table_id)
    assert said.state is State.ROUND_IN_PLAY and said.offer_round.round is said.active_round
    assert said.active_round.pk == round_.pk and said.latest.number == 2
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    give_button(f.table_id, 2, by=staff.dealer)
    floor.unseat_player(table_id=f.table_id, seat=2, by=staff.dealer)  # cancels the acceptance
    said = check(f.table_id)
    assert said.state is State.OFFER_NEEDED and "was cancelled" in said.status
    assert OfferRound.objects.get(pk=said.offer_round.pk).status == OfferRoundStatus.CANCELLED


def test_a_player_dealer_keeping_the_button_for_a_second_hand(staff, clock):
    f = open_floor("PTP...", staff=staff, offer_every_hand=False)
    bank_and_play(f, 1)
    said = check(f.table_id)
    assert said.state is State.OFFER_NEEDED and said.keeper_seat == 1
    button.keep_button(table_id=f.table_id, by=staff.dealer)
    said = check(f.table_id, moment=clock.now())
    assert said.state is State.ACCEPTED and said.offer_round.kept_without_offers
    round_ = play_round(f.table_id, by=staff.dealer, until=State.WAGERING)
    assert round_.consecutive_count == 2
    said = check(f.table_id)
    assert said.state is State.ROUND_IN_PLAY
    rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
    said = check(f.table_id, moment=clock.now())  # two in a row: no third, no keeper
    assert said.state is State.OFFER_NEEDED and said.keeper is None
    assert said.next_offer.passed_over == () and said.next_offer.start_seat == 2


def test_the_40_minute_window_reaches_past_the_latest_hands(staff, clock):
    f = open_floor("PPT...", staff=staff, chips=5_000_000)
    for hand in range(12):
        clock.advance(minutes=3)
        give_button(f.table_id, 1 + hand % 2, by=staff.dealer)
        started = rounds.start_round(table_id=f.table_id, by=staff.dealer)
        rounds.void_round(round_id=started.pk, by=staff.supervisor, reason="misdeal")
    clock.advance(minutes=3)
    give_button(f.table_id, 3, by=staff.dealer)
    said = check(f.table_id, moment=clock.now())
    assert said.state is State.ACCEPTED
    assert len(said.history) == selectors.HISTORY_HANDS and said.latest.number == 12
    assert len(said.window_history) == 12  # every hand of the last 40 minutes
    assert check(f.table_id).window_history is None
