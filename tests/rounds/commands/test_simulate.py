"""``manage.py simulate``: a seed reproduces the same floor, and the books verify."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from cardroom.errors import State
from tables.models import Round
from tests.builders.money import calculator_lines, rolled_back, stored_lines
from wagers.models import PlayerDealerBank, SettlementLine
from wagers.verification import differences

ARGS = {"tables": 2, "rounds": 10, "seed": 7}


def _simulate(**args) -> str:
    out = StringIO()
    call_command("simulate", stdout=out, **{**ARGS, **args})
    return out.getvalue()


def _table_index(name: str) -> int:
    return int(name.rsplit("-", 1)[1])  # SIM-<run>-<index>


def settled_floor(run_prefix: str) -> list[tuple]:
    """Every line of the run's rounds, without database ids or run tags."""
    lines = (
        SettlementLine.objects.filter(round__table__name__startswith=run_prefix)
        .select_related("round__table", "bet__player")
        .order_by("round__table__name", "round__number", "order")
    )
    return [
        (
            _table_index(line.round.table.name),
            line.round.number,
            line.round.player_dealer_seat,
            line.round.deck,
            tuple(line.round.board),
            line.order,
            line.settlement_pass,
            line.seat,
            line.bettor,
            line.wager,
            line.stake_cents,
            line.outcome,
            line.paid_cents,
            line.collected_cents,
            line.returned_uncovered_cents,
            line.unpaid_uncovered_cents,
            line.rounded_off_cents,
        )
        for line in lines
    ]


def banks(run_prefix: str) -> list[tuple]:
    return list(
        PlayerDealerBank.objects.filter(round__table__name__startswith=run_prefix)
        .order_by("round__table__name", "round__number")
        .values_list("round__number", "amount_cents", "net_cents", "exhausted")
    )


def _prefix_of_last_run() -> str:
    name = Round.objects.order_by("-id").first().table.name
    return name.rsplit("-", 1)[0] + "-"


@pytest.mark.django_db
def test_a_seed_reproduces_the_same_settlement_lines():
    with rolled_back():  # the first run's data is gone before the second: fresh data twice
        report = _simulate()
        assert report.startswith("simulated 10 rounds at 2 tables")
        first_prefix = _prefix_of_last_run()
        first, first_banks = settled_floor(first_prefix), banks(first_prefix)
        assert list(differences()) == []

    assert not Round.objects.exists()
    _simulate()
    prefix = _prefix_of_last_run()
    second, second_banks = settled_floor(prefix), banks(prefix)

    assert first  # rounds were really settled, with lines
    assert len({(entry[0], entry[1]) for entry in first}) >= 8
    assert second == first
    assert second_banks == first_banks
    assert list(differences()) == []
    out = StringIO()
    call_command("verify_ledger", stdout=out)
    assert "no differences" in out.getvalue()


@pytest.mark.django_db
def test_a_seed_reproduces_the_floor_on_top_of_earlier_data():
    _simulate()
    earlier = _prefix_of_last_run()
    _simulate()
    later = _prefix_of_last_run()
    assert later != earlier  # a second run at new tables
    assert settled_floor(later) == settled_floor(earlier)
    assert banks(later) == banks(earlier)
    assert list(differences()) == []


@pytest.mark.django_db
def test_another_seed_gives_another_floor():
    _simulate()
    seven = settled_floor(_prefix_of_last_run())
    _simulate(seed=8)
    assert settled_floor(_prefix_of_last_run()) != seven


@pytest.mark.django_db
def test_simulated_rounds_settle_as_the_calculator_does():
    _simulate()
    settled = Round.objects.filter(state=State.SETTLED)
    assert settled.count() >= 8
    for round_ in settled:
        assert stored_lines(round_) == calculator_lines(round_), round_


@pytest.mark.django_db
def test_baccarat_tables_play_through_the_same_services():
    _simulate(tables=1, baccarat_tables=1, rounds=12, prefix="SIMB")
    coups = Round.objects.filter(table__name__startswith="SIMB-", table__game="ez_baccarat")
    settled = coups.filter(state=State.SETTLED)
    assert settled.exists() and all(r.player_cards and r.banker_cards for r in settled)
    assert (
        Round.objects.filter(table__name__startswith="SIMB-")
        .exclude(table__game="ez_baccarat")
        .exists()
    )
    assert list(differences()) == []
