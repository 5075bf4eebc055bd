"""Builders for the fee tests, over ``tests.builders.money``: schedules through the services.

``STANDARD``: a three-rate schedule for the default 500-50000 cent table, per betting square.
``ACTION``: the same player rates, the player-dealer charged on total table action.
``differences``: what ``verify_ledger`` finds: the money and fee checks, every settled hand
played again (``tests.builders.money.verified``).
"""

from __future__ import annotations

from cardroom.errors import State
from fees.services import schedules
from tests.builders.money import Wager, money_table, play_round, verified
from tests.builders.rules import ACTION, STANDARD

__all__ = ["ACTION", "STANDARD", "assessed_round", "differences", "table_schedule"]


def differences():
    """Every difference ``manage.py verify_ledger`` reports."""
    return verified()


def table_schedule(table, *, by, rates=STANDARD, basis="per_betting_square", **extra):
    """A schedule for ``table`` with one version in force now; answers the version."""
    schedule = schedules.create_schedule(name=f"{table.name} fees", table_id=table.pk, by=by)
    return schedules.create_version(
        schedule_id=schedule.pk, rates=rates, player_dealer_basis=basis, by=by, **extra
    )


def assessed_round(staff, clock):
    """A round at "no more bets" with its fees assessed: seats 2 and 3 wager against seat 1."""
    mt = money_table(staff, {1: 100_000, 2: 100_000, 3: 100_000}, deal_mode="rng")
    table_schedule(mt.table, by=staff.supervisor)
    clock.advance(seconds=1)
    round_ = play_round(
        mt,
        pd_seat=1,
        bank=50_000,
        wagers=[Wager(2, 1_000), Wager(3, 5_000)],
        until=State.NO_MORE_BETS,
    )
    return mt, round_
