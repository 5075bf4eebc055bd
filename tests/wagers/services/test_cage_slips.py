"""Cage slips (docs/money.md, "Cage slips"): every buy-in, cash-out, fill and credit is a
slip and the ledger transaction it causes, written together; the slips of movements made
before them come from the ledger (the migration); on PostgreSQL a slip is never edited."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction
from django.db.models import F

from cardroom.errors import RuleError
from tests.builders.floor import make_player
from tests.builders.money import money_table, verified
from tests.builders.tampering import raw
from wagers.models import Account, AccountKind, CageSlip, LedgerEntry, TransactionKind
from wagers.services import chips

pytestmark = pytest.mark.django_db

SLIP_FIELDS = ("transaction_id", "kind", "table_id", "player_id", "account_id", "amount_cents",
               "currency")  # fmt: skip


def slips() -> list[tuple]:
    return list(CageSlip.objects.order_by("transaction_id").values_list(*SLIP_FIELDS))


@pytest.fixture
def movements(staff):
    """A patron's buy-in (currency), cash-out (chips) and cash-out of the rest (currency); a
    TPPP's fill and credit; a patron carried to another table (a cash-out and a buy-in)."""
    mt = money_table(staff, {1: 50_000, 2: 80_000}, tppp_seats=(2,))
    other = money_table(staff, {1: 10_000})
    patron, tppp, by = mt.seated[1], mt.seated[2], staff.dealer
    chips.buy_in(table_id=mt.table.pk, player_id=patron.pk, amount=30_000, currency=True, by=by)
    chips.cash_out(table_id=mt.table.pk, player_id=patron.pk, amount=5_000, currency=False, by=by)
    chips.fill(table_id=mt.table.pk, player_id=tppp.pk, amount=20_000, by=by)
    chips.credit(table_id=mt.table.pk, player_id=tppp.pk, amount=40_000, by=by)
    walker = make_player()
    chips.buy_in(table_id=mt.table.pk, player_id=walker.pk, amount=7_000, currency=True, by=by)
    chips.carry(from_table_id=mt.table.pk, to_table_id=other.table.pk, player_id=walker.pk, by=by)
    chips.cash_out(table_id=mt.table.pk, player_id=patron.pk, amount=None, currency=True, by=by)
    return mt, other


def test_each_chip_movement_is_a_slip_and_its_transaction(movements):
    mt, other = movements
    chip_kinds = [AccountKind.PATRON_CHIPS, AccountKind.BANKROLL]
    for slip in CageSlip.objects.select_related("transaction", "account"):
        legs = {
            e.account.kind: e.amount_cents
            for e in LedgerEntry.objects.filter(transaction=slip.transaction).select_related(
                "account"
            )
        }
        brought = slip.kind in (TransactionKind.BUY_IN, TransactionKind.FILL)
        sign = 1 if brought else -1
        assert slip.transaction.kind == slip.kind
        assert slip.transaction.currency == slip.currency
        assert legs == {AccountKind.CAGE: -sign * slip.amount_cents,
                        slip.account.kind: sign * slip.amount_cents}  # fmt: skip
        assert slip.account.kind in chip_kinds
        assert (slip.account.player_id, slip.account.table_id) == (slip.player_id, slip.table_id)
    patron = mt.seated[1]
    assert [
        (s.kind, s.amount_cents, s.currency)
        for s in CageSlip.objects.filter(player=patron, table=mt.table).order_by("id")
    ] == [
        ("buy_in", 50_000, True),  # the builder's own buy-in
        ("buy_in", 30_000, True),
        ("cash_out", 5_000, False),
        ("cash_out", 75_000, True),  # the rest
    ]
    walker_slips = CageSlip.objects.exclude(
        player__in=[*mt.seated.values(), *other.seated.values()]
    )
    assert [(s.kind, s.table_id, s.currency) for s in walker_slips.order_by("id")] == [
        ("buy_in", mt.table.pk, True),
        ("cash_out", mt.table.pk, False),  # carried: no currency changes hands
        ("buy_in", other.table.pk, False),
    ]
    assert verified() == []


def test_a_refused_movement_leaves_no_slip(movements):
    mt, _ = movements
    count = CageSlip.objects.count()
    with pytest.raises(RuleError, match="by a credit"):
        chips.cash_out(
            table_id=mt.table.pk, player_id=mt.seated[2].pk, amount=100, currency=True,
            by=mt.staff.dealer,
        )  # fmt: skip
    assert CageSlip.objects.count() == count


def test_the_migration_writes_the_slips_of_earlier_movements_from_the_ledger(movements):
    """Movements posted before the slips existed get them from the ledger as it stands:
    the same slips the services write."""
    written = slips()
    raw_delete = "DELETE FROM wagers_cageslip WHERE id = %s"
    for pk in CageSlip.objects.values_list("pk", flat=True):
        raw(raw_delete, [pk])
    assert verified() != []  # a chip movement without its slip is all extra
    migration = importlib.import_module("wagers.migrations.0005_cage_slips")
    migration.slips_from_the_ledger(apps, None)
    assert slips() == written
    assert verified() == []


def _delete(pk: int) -> None:
    """A raw DELETE, with the database's guards on (the ORM would stop at PROTECT first)."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM wagers_cageslip WHERE id = %s", [pk])


@pytest.mark.requires_postgres
@pytest.mark.django_db(transaction=True)
def test_a_slip_is_never_edited(staff):
    mt = money_table(staff, {1: 10_000})
    slip = CageSlip.objects.get(player=mt.seated[1])
    edits = {
        "update": lambda: CageSlip.objects.filter(pk=slip.pk).update(
            amount_cents=F("amount_cents") + 50_000
        ),
        "delete": lambda: _delete(slip.pk),
    }
    for what, edit in edits.items():
        with pytest.raises(IntegrityError, match="cannot be changed"), transaction.atomic():
            edit()
        assert CageSlip.objects.get(pk=slip.pk).amount_cents == 10_000, what
    assert Account.objects.get(pk=slip.account_id).balance_cents == 10_000
