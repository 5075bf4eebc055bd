"""The round state a round-locking call reads with the lock (wagers.services.round_lock.
lock_round_state) is a named hot-path reader: on PostgreSQL the lock's one statement
(tables.services.locks.lock_round_reading: tables.sql.lock_and_read). Over rounds in every
state, each of its reads answers exactly what its ORM read answers (the model instances, field
by field, with the same Python types), and the whole state is the state the ORM path (SQLite's)
builds."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from django.db import connection, transaction
from django.db.models import Model

from cardroom.errors import State
from cardroom.sql import table
from fees.models import FeeLine
from fees.services import waivers
from fees.services.assessment import AT_CLOSE, AT_VOID
from fees.sql import FEE_READS
from rounds import services as rounds
from tables.models import Round
from tables.services import locks
from tests.builders.fees import table_schedule
from tests.builders.floor import give_button
from tests.builders.money import Wager, money_table
from wagers.services import round_lock, wagering
from wagers.sql import ROUND_READS

pytestmark = [pytest.mark.django_db, pytest.mark.requires_postgres]

# The statements proved here: tables.sql.lock_and_read with wagers.sql.ROUND_READS and
# fees.sql.FEE_READS (cardroom.sql's registry).
READS = {**ROUND_READS, **FEE_READS}


def _plain(value):
    """A value as compared: a model instance as its class, its state and every concrete
    field's value (with the account read with it); ``repr`` tells the Python types apart
    (a time zone object, an int from a bool)."""
    if isinstance(value, Model):
        fields = {f.attname: getattr(value, f.attname) for f in value._meta.concrete_fields}
        account = value._state.fields_cache.get("account")
        return (
            type(value).__name__,
            value._state.adding,
            value._state.db,
            fields,
            None if account is None else _plain(account),
        )
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _agree(left, right) -> None:
    assert _plain(left) == _plain(right)
    assert repr(_plain(left)) == repr(_plain(right))


def _each_read_agrees(round_id: int) -> dict:
    """Every read, by its SQL (as the lock's statement embeds it) and by the ORM."""
    round_ = Round.objects.get(pk=round_id)
    answered = {}
    with connection.cursor() as cursor:
        for name, read in READS.items():
            cursor.execute(
                f'SELECT {read.sql} FROM {table(Round)} AS "r" WHERE "r"."id" = %s', [round_id]
            )
            (value,) = cursor.fetchone()
            loaded = read.load(value) if read.load else value
            _agree(loaded, read.orm(round_))
            answered[name] = loaded
    return answered


def _state(round_id: int) -> round_lock.RoundState:
    with transaction.atomic():
        state = round_lock.lock_round_state(
            round_id,
            decisions=True,
            bets=True,
            bank=True,
            accounts=True,
            chips=True,
            seated=True,
            also={**AT_CLOSE, **AT_VOID},
        )
        transaction.set_rollback(True)  # the version bumped by the lock, put back
    return state


def _states_agree(round_id: int, monkeypatch) -> round_lock.RoundState:
    """The whole state, from the lock's one statement and from the ORM path."""
    one = _state(round_id)
    with monkeypatch.context() as patched:
        patched.setattr(round_lock, "lock_round_reading", locks._lock_and_read_with_orm)
        orm = _state(round_id)
    assert (
        one.table.version == orm.table.version == Round.objects.get(pk=round_id).table.version + 1
    )
    for name in ("table", "round", "hands", "decisions", "bets", "bank", "accounts", "chips"):
        _agree(getattr(one, name), getattr(orm, name))
    for name in ("seated", "also"):
        _agree(getattr(one, name), getattr(orm, name))
    assert [bet.hand for bet in one.bets] == [bet.hand for bet in orm.bets]
    assert all(bet.hand in one.hands for bet in one.bets)  # the same instances
    assert all(hand.round is one.round for hand in one.hands)
    assert one.round.table is one.table
    return one


def _rounds(staff, clock) -> Iterator[tuple[str, int]]:
    """Rounds at a table with fees, backline bettors and a TPPP seated, in every state: each
    yielded (what, round id) as the next service call would find it."""
    mt = money_table(
        staff,
        {1: 400_000, 2: 300_000, 3: 200_000, 4: 150_000, 5: 500_000},
        deal_mode="rng",
        tppp_seats=[5],
        backliners=[90_000, 60_000, 0],
    )
    table_schedule(mt.table, by=staff.supervisor)
    by = staff.dealer
    for ending in ("settled", "voided"):
        clock.advance(seconds=61, microseconds=123_457)
        give_button(mt.table.pk, 1, by=by)
        round_ = rounds.start_round(table_id=mt.table.pk, by=by)
        yield "wagering, no bank, no bets", round_.pk
        clock.advance(seconds=3, microseconds=500_001)
        rounds.post_bank(round_id=round_.pk, amount=150_000, by=by)
        yield "wagering, the bank, no bets", round_.pk
        clock.advance(seconds=2, microseconds=17)
        wagering.place_bets(
            round_id=round_.pk,
            bets=[
                Wager(2, 1_000, trips=500).request(mt),
                Wager(4, 2_000, bad_beat=500).request(mt),
            ],
            by=by,
        )
        clock.advance(seconds=1, microseconds=999_999)
        wagering.place_bets(
            round_id=round_.pk,
            bets=[
                Wager(3, 1_500).request(mt),
                Wager(2, 1_000, behind=0).request(mt),
                Wager(2, 0, trips=500, behind=1).request(mt),
            ],
            by=by,
        )
        yield "wagering, bets and the bank", round_.pk
        rounds.close_wagering(round_id=round_.pk, by=by)
        yield "no more bets", round_.pk
        if ending == "voided":  # a fee waived is not returned by the void
            line = FeeLine.objects.filter(round_id=round_.pk).order_by("order").last()
            waivers.waive_fee(fee_line_id=line.pk, reason="a regular", by=staff.supervisor)
            yield "no more bets, a fee waived", round_.pk
        rounds.deal(round_id=round_.pk, by=by, rng=random.Random(11))
        yield "preflop", round_.pk
        clock.advance(seconds=5, microseconds=250_000)
        rounds.decide_street(round_id=round_.pk, decisions=[(2, "play", 4), (3, "check", 0)], by=by)
        yield "preflop, some decided", round_.pk
        if ending == "voided":
            rounds.void_round(round_id=round_.pk, by=staff.supervisor, reason="misdeal")
            yield "voided", round_.pk
            continue
        rounds.decide_street(round_id=round_.pk, decisions=[(4, "check", 0)], by=by)
        rounds.reveal_flop(round_id=round_.pk, by=by)
        yield "flop", round_.pk
        rounds.decide_street(round_id=round_.pk, decisions=[(3, "play", 2), (4, "check", 0)], by=by)
        rounds.reveal_turn_and_river(round_id=round_.pk, by=by)
        yield "river", round_.pk
        rounds.decide_street(round_id=round_.pk, decisions=[(4, "fold", 0)], by=by)
        yield "river, decided", round_.pk
        rounds.showdown(round_id=round_.pk, by=by)
        yield "showdown", round_.pk
        rounds.settle(round_id=round_.pk, by=by)
        yield "settled", round_.pk


def test_each_read_and_the_whole_state_are_the_orms_in_every_state(staff, clock, monkeypatch):
    seen = []
    for what, round_id in _rounds(staff, clock):
        answered = _each_read_agrees(round_id)
        state = _states_agree(round_id, monkeypatch)
        seen.append(
            (
                what,
                state.round.state,
                *(len(answered[name]) for name in ("hands", "decisions", "bets", "bank")),
                len(answered["accounts"]),
                len(answered["fee_lines"]),
                answered["fee_schedule"] is not None,
                answered["drop_account_id"] is not None,
            )
        )
    # What the rounds held (hands, decisions, bets, bank, own accounts, fee lines not waived;
    # a schedule frozen, the drop opened): the reads were compared over all of these, empty
    # and not. The table's first round: no drop until its first fees; its second: a fee
    # waived, then voided once the Plays are in.
    W, N, P = State.WAGERING, State.NO_MORE_BETS, State.PREFLOP
    assert seen == [
        ("wagering, no bank, no bets", W, 0, 0, 0, 0, 0, 0, True, False),
        ("wagering, the bank, no bets", W, 0, 0, 0, 1, 2, 0, True, False),
        ("wagering, bets and the bank", W, 3, 0, 5, 1, 2, 0, True, False),
        ("no more bets", N, 3, 0, 5, 1, 2, 22, True, True),
        ("preflop", P, 3, 0, 5, 1, 2, 22, True, True),
        ("preflop, some decided", P, 3, 2, 5, 1, 2, 22, True, True),
        ("flop", State.FLOP, 3, 3, 5, 1, 2, 22, True, True),
        ("river", State.RIVER, 3, 5, 5, 1, 2, 22, True, True),
        ("river, decided", State.RIVER, 3, 6, 5, 1, 2, 22, True, True),
        ("showdown", State.SHOWDOWN, 3, 6, 5, 1, 2, 22, True, True),
        ("settled", State.SETTLED, 3, 6, 5, 1, 2, 22, True, True),
        ("wagering, no bank, no bets", W, 0, 0, 0, 0, 0, 0, True, True),
        ("wagering, the bank, no bets", W, 0, 0, 0, 1, 2, 0, True, True),
        ("wagering, bets and the bank", W, 3, 0, 5, 1, 2, 0, True, True),
        ("no more bets", N, 3, 0, 5, 1, 2, 22, True, True),
        ("no more bets, a fee waived", N, 3, 0, 5, 1, 2, 21, True, True),
        ("preflop", P, 3, 0, 5, 1, 2, 21, True, True),
        ("preflop, some decided", P, 3, 2, 5, 1, 2, 21, True, True),
        ("voided", State.VOIDED, 3, 2, 5, 1, 2, 21, True, True),
    ]


def test_a_table_first_round_reads_no_schedule_and_no_drop(staff, clock, monkeypatch):
    mt = money_table(staff, {1: 100_000, 2: 100_000}, deal_mode="rng")
    give_button(mt.table.pk, 1, by=staff.dealer)
    round_ = rounds.start_round(table_id=mt.table.pk, by=staff.dealer)
    answered = _each_read_agrees(round_.pk)
    assert answered["fee_schedule"] is None and answered["drop_account_id"] is None
    assert answered["chips"] and answered["seated"]
    assert answered["fee_lines"] == []
    _states_agree(round_.pk, monkeypatch)


def test_a_missing_round_is_the_orms_does_not_exist(db):
    for read in (locks._lock_and_read_in_one_statement, locks._lock_and_read_with_orm):
        with pytest.raises(Round.DoesNotExist, match="no round 987654"), transaction.atomic():
            read(987_654, READS)
