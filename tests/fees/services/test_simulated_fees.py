"""``manage.py simulate`` and ``load_demo`` play with collection fees, and the books verify."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from cardroom.errors import State
from fees.models import DropBox, DropCount, FeeLine
from fees.selectors import reconcile
from tables.models import Round
from tests.builders.fees import differences
from wagers.models import Account, AccountKind

pytestmark = pytest.mark.django_db


def _fee_lines(prefix: str) -> list[tuple]:
    lines = FeeLine.objects.filter(round__table__name__startswith=prefix).order_by(
        "round__table__name", "round__number", "order"
    )
    return [
        (
            x.round.table.name.rsplit("-", 1)[1],
            x.round.number,
            x.payer_kind,
            x.seat,
            x.square,
            x.amount_cents,
        )
        for x in lines.select_related("round__table")
    ]


def test_simulated_tables_collect_fees_and_a_seed_repeats_them():
    for prefix in ("FA", "FB"):
        call_command("simulate", tables=2, rounds=12, seed=3, prefix=prefix, stdout=StringIO())
    first, second = _fee_lines("FA-"), _fee_lines("FB-")
    assert first and first == second
    assert {x[4] for x in first} & {"table_action"}  # one table charges the dealer on action
    dealt = Round.objects.filter(state=State.SETTLED, fee_lines__isnull=True)
    assert not dealt.exists()  # every settled hand paid fees
    for account in Account.objects.filter(kind=AccountKind.DROP):
        kept = FeeLine.objects.filter(round__table=account.table).exclude(
            transaction__reversed_by__isnull=False
        )
        assert account.balance_cents == sum(x.amount_cents for x in kept)
    assert list(differences()) == []


def test_the_demo_floor_has_fees_and_counted_drop_boxes(settings):
    settings.DEBUG = True
    call_command("load_demo", stdout=StringIO())
    assert FeeLine.objects.exists() and DropBox.objects.exists()
    for box in DropBox.objects.all():
        result = reconcile(box)
        if DropCount.objects.filter(box=box).exists():
            assert result.difference_cents == 0
    assert list(differences()) == []
