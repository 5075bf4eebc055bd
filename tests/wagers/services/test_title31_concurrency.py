"""Title 31 under concurrency (docs/rules.md §10.7): two cashiers buy the same patron in at
two tables at once, on PostgreSQL with real commits. The patron's day row is locked after
the table, so the second buy-in sees the first: a patron without ID at $6,000 + $6,000 gets
exactly one of them, never both ($12,000 unreported); the totals match the slips."""

from __future__ import annotations

import pytest

from cardroom.errors import Rule, RuleError
from tests.builders.floor import make_player
from tests.concurrency import race
from wagers.models import CageSlip, CurrencyDay, CurrencyTransactionReport, MtlEntry
from wagers.services import chips

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]

REPEATS = 3


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_two_simultaneous_buy_ins_cannot_both_stay_unreported(on_floor, repeat):
    first, second = on_floor.table(), on_floor.table()
    patron = make_player(identified=False)

    def buy_in(table):
        return lambda: chips.buy_in(
            table_id=table.pk, player_id=patron.pk, amount=600_000, currency=True,
            by=on_floor.dealer,
        )  # fmt: skip

    outcomes = race(buy_in(first), buy_in(second))
    errors = [o.error for o in outcomes if o.error is not None]
    assert len(errors) == 1, outcomes
    assert isinstance(errors[0], RuleError) and errors[0].rule == Rule.CTR_IDENTIFICATION
    day = CurrencyDay.objects.get(player=patron)
    assert day.cash_in_cents == 600_000
    assert CageSlip.objects.filter(player=patron).count() == 1
    assert MtlEntry.objects.filter(player=patron).count() == 1
    assert not CurrencyTransactionReport.objects.filter(player=patron).exists()


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_an_identified_patron_gets_both_and_one_ctr(on_floor, repeat):
    first, second = on_floor.table(), on_floor.table()
    patron = make_player(identified=False)
    patron.id_type, patron.id_number = "passport", "Z1234567"
    patron.save(update_fields=["id_type", "id_number"])

    def buy_in(table):
        return lambda: chips.buy_in(
            table_id=table.pk, player_id=patron.pk, amount=600_000, currency=True,
            by=on_floor.dealer,
        )  # fmt: skip

    outcomes = race(buy_in(first), buy_in(second))
    assert all(o.error is None for o in outcomes), outcomes
    assert CurrencyDay.objects.get(player=patron).cash_in_cents == 1_200_000
    assert CurrencyTransactionReport.objects.filter(player=patron).count() == 1
