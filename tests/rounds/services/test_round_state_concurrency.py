"""The round read in the lock's own statement is current even when the lock was waited for
(PostgreSQL, real commits; tables.services.locks.lock_round_reading).

Under READ COMMITTED a statement reads from the snapshot taken when it starts: an UPDATE
that waits for a row lock then updates the row as the lock's holder committed it, but every
other row the statement reads is still as it was before the wait. Here the first call holds
the table's lock and moves the round on; the second blocks in the lock meanwhile. Its first
statement's round is stale (the trap, shown by running it raw), the version it answers is
two above the one its snapshot saw, and the reader reads again: the second call sees what
the first committed.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from cardroom.errors import State
from cardroom.sql import load
from rounds import services as rounds
from tables import sql as tables_sql
from tables.models import HandDecision, Round
from tests.builders.money import Wager, money_table, play_round
from wagers.models import Account, Bet
from wagers.services import round_lock

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

WAIT = 30.0  # seconds for a step of the other thread


def _statements(sent: CaptureQueriesContext) -> list[str]:
    """The statements sent, the transaction's own BEGIN and COMMIT left out."""
    return [q["sql"] for q in sent.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]


def _preflop(staff):
    mt = money_table(staff, {1: 100_000, 2: 100_000, 3: 100_000, 4: 100_000}, deal_mode="rng")
    round_ = play_round(
        mt,
        pd_seat=1,
        bank=50_000,
        wagers=[Wager(2, 1_000), Wager(3, 1_000), Wager(4, 1_000)],
        rng=random.Random(8),
        until=State.PREFLOP,
    )
    return mt, round_


def _blocked_behind(holder: Callable[[], Any], waiter: Callable[[], Any]) -> tuple[Any, Any]:
    """``holder`` runs in a transaction and keeps it open until ``waiter``, in another
    thread and connection, is waiting for a lock; then it commits. Answers both results
    (``waiter``'s: its answer and its statements)."""
    held, waiting_pid, release = threading.Event(), [], threading.Event()
    results: dict[str, Any] = {}

    def hold() -> None:
        try:
            with transaction.atomic():
                results["holder"] = holder()
                held.set()
                assert release.wait(WAIT), "the waiter never blocked"
        except BaseException as error:
            results["holder error"] = error
            held.set()
        finally:
            connections.close_all()

    def wait() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                waiting_pid.append(cursor.fetchone()[0])
            assert held.wait(WAIT)
            with CaptureQueriesContext(connection) as sent:
                answer = waiter()
            results["waiter"] = (answer, _statements(sent))
        except BaseException as error:
            results["waiter error"] = error
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=hold, daemon=True),
        threading.Thread(target=wait, daemon=True),
    ]
    for thread in threads:
        thread.start()
    assert held.wait(WAIT)
    if "holder error" in results:
        raise results["holder error"]
    # The waiter's backend waits for the holder's row lock (seen from a third connection).
    deadline = time.monotonic() + WAIT
    while True:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s",
                [waiting_pid[0] if waiting_pid else 0],
            )
            row = cursor.fetchone()
        if row and row[0] == "Lock":
            break
        assert time.monotonic() < deadline, "the waiter never waited for the lock"
        time.sleep(0.02)
    time.sleep(0.1)  # still waiting: nothing the holder commits can come before its snapshot
    release.set()
    for thread in threads:
        thread.join(WAIT * 2)
        assert not thread.is_alive()
    for name in ("holder error", "waiter error"):
        if name in results:
            raise results[name]
    return results["holder"], results["waiter"]


def test_the_statement_alone_reads_the_round_from_before_the_wait(staff, clock):
    """The trap, shown: the lock's statement run raw answers the table as committed (its
    version bumped twice since its snapshot) and the round as it was before the wait."""
    _, round_ = _preflop(staff)
    seen = Round.objects.select_related("table").get(pk=round_.pk).table.version

    def decide_and_show_the_flop():
        rounds.decide_street(
            round_id=round_.pk,
            decisions=[(2, "play", 4), (3, "check", 0), (4, "check", 0)],
            by=staff.dealer,
        )
        return rounds.reveal_flop(round_id=round_.pk, by=staff.dealer).state

    def statement_alone():
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(tables_sql.LOCK_AND_READ.format(reads=""), [round_.pk] * 3)
            names = [column.name for column in cursor.description]
            row = dict(zip(names, cursor.fetchone(), strict=True))
        return row["version"], row["seen_version"], load(Round, row["round_row"])

    moved, ((version, seen_version, stale), _) = _blocked_behind(
        decide_and_show_the_flop, statement_alone
    )
    assert moved == State.FLOP
    assert seen_version == seen and version == seen + 3  # the holder's two locks, then its own
    assert stale.state == State.PREFLOP and stale.board == []  # from before the wait


def test_a_call_blocked_in_the_lock_sees_what_the_holder_committed(staff, clock):
    """The holder decides the pre-flop (a Play posted, its bet and chips changed, the
    decisions recorded); the waiter, blocked in the lock meanwhile, shows the flop: it must
    see every decision (else it refuses: "have not made their preflop decision"). Its lock
    statement finds the version moved on and reads again: one statement more."""
    _, round_ = _preflop(staff)
    decisions = [(2, "play", 4), (3, "check", 0), (4, "check", 0)]

    def decide():
        return rounds.decide_street(round_id=round_.pk, decisions=decisions, by=staff.dealer)

    def show_the_flop():
        return rounds.reveal_flop(round_id=round_.pk, by=staff.dealer)

    made, (shown, sent) = _blocked_behind(decide, show_the_flop)
    assert len(made) == 3 and shown.state == State.FLOP and len(shown.board) == 3
    assert sent[0].startswith('WITH "seen"') and sent[1].startswith("SELECT json_build_array(")
    assert len(sent) == 3  # the lock, the read again, the move
    stored = Round.objects.get(pk=round_.pk)
    assert stored.state == State.FLOP and stored.board == shown.board


def test_the_state_read_again_is_the_state_as_committed(staff, clock):
    """The whole state the waiter reads after the wait (hands, decisions, bets, chips, the
    round's accounts) is what the ORM reads once the holder has committed."""
    mt, round_ = _preflop(staff)

    def decide():
        rounds.decide_street(
            round_id=round_.pk, decisions=[(2, "play", 4), (3, "check", 0)], by=staff.dealer
        )

    def read_state():
        with transaction.atomic():
            return round_lock.lock_round_state(
                round_.pk, decisions=True, bets=True, accounts=True, chips=True, seated=True
            )

    _, (state, sent) = _blocked_behind(decide, read_state)
    assert len(sent) == 2  # the lock's statement, then the read again
    assert state.round.state == State.PREFLOP
    assert [
        (d.hand.seat, d.action, d.multiple)
        for d in HandDecision.objects.filter(hand__round=round_)
        .select_related("hand")
        .order_by("id")
    ] == [
        (2, "play", 4),
        (3, "check", 0),
    ]
    assert {
        state_hand.seat: [
            (d.street, d.action, d.multiple) for d in state.decisions.get(state_hand.pk, [])
        ]
        for state_hand in state.hands
    } == {2: [("preflop", "play", 4)], 3: [("preflop", "check", 0)], 4: []}
    plays = dict(Bet.objects.filter(hand__round=round_).values_list("hand__seat", "play_cents"))
    assert plays == {2: 4_000, 3: 0, 4: 0}
    assert {bet.hand.seat: bet.play_cents for bet in state.bets} == plays
    balances = dict(Account.objects.values_list("pk", "balance_cents"))
    assert all(bet.account.balance_cents == balances[bet.account_id] for bet in state.bets)
    assert all(
        a.balance_cents == balances[a.pk] for a in [*state.chips.values(), *state.accounts.values()]
    )
    assert state.chips[mt.seated[2].pk].balance_cents == 100_000 - 2_000 - 4_000


def test_without_a_wait_one_statement_reads_it_all(staff, clock):
    _, round_ = _preflop(staff)
    with CaptureQueriesContext(connection) as sent, transaction.atomic():
        state = round_lock.lock_round_state(round_.pk, decisions=True, bets=True)
    assert [sql[:12] for sql in _statements(sent)] == ['WITH "seen" ']
    assert state.round.state == State.PREFLOP and len(state.bets) == 3
