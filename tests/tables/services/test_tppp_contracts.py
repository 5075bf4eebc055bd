"""TPPP contracts (docs/rules.md §8.7, ``tppp.contract``): a TPPP sits only within its
contract's dates, tables and hours; a contract ending within 90 days with no later one is
flagged for renewal."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.db import IntegrityError, transaction

from cardroom.errors import Rule, RuleError
from tables.models import TPPPContract
from tables.selectors import contracts_to_renew
from tables.services import floor
from tables.services.contracts import record_contract
from tests.builders.floor import make_staff

pytestmark = pytest.mark.django_db


def _tppp(number: str):
    return floor.create_player(
        player_number=number, name=f"Tess {number}",
        tppp={"business_name": "Prop LLC", "badge_number": f"B-{number}",
              "badge_expires_on": date(2099, 1, 1)},
    )  # fmt: skip


def test_a_tppp_sits_only_within_its_contract(clock):
    staff = make_staff()
    main = floor.create_table(name="Main C1", by=staff.supervisor)
    other = floor.create_table(name="Main C2", by=staff.supervisor)
    tess = _tppp("TC-1")
    clock.set(datetime(2026, 6, 1, 3, 0, tzinfo=UTC))  # 20:00 on 31 May, Pacific time

    def seat(table, seat_number=1):
        return floor.seat_player(
            table_id=table.pk, seat=seat_number, player_id=tess.pk, by=staff.supervisor
        )

    with pytest.raises(RuleError, match="has no contract with the cardroom in force") as error:
        seat(main)
    assert error.value.rule == Rule.TPPP_CONTRACT and error.value.field == "player"

    record_contract(
        player_id=tess.pk, table_ids=[main.pk], starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31), approved_on=date(2025, 12, 1), approval_number="GEGC-77",
        opens_at=time(18, 0), closes_at=time(2, 0), by=staff.supervisor,
    )  # fmt: skip
    with pytest.raises(RuleError, match="Main C2 at 20:00: Main C1, 18:00 to 02:00"):
        seat(other)
    clock.set(datetime(2026, 6, 1, 17, 0, tzinfo=UTC))  # 10:00: outside its hours
    with pytest.raises(RuleError, match="Main C1 at 10:00"):
        seat(main)
    clock.set(datetime(2026, 6, 1, 8, 30, tzinfo=UTC))  # 01:30, past midnight: within
    assert seat(main).is_tppp


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"approval_number": " "}, "approval_number"),
        ({"ends_on": date(2025, 1, 1)}, "ends_on"),
        ({"approved_on": date(2026, 2, 1)}, "approved_on"),
        ({"opens_at": time(9, 0)}, "opens_at"),
    ],
)
def test_a_contract_is_recorded_whole(fields, field):
    tess = _tppp(f"TC-{field}")
    values = {"starts_on": date(2026, 1, 1), "ends_on": date(2026, 12, 31),
              "approved_on": date(2025, 12, 1), "approval_number": "GEGC-1"} | fields  # fmt: skip
    with pytest.raises(RuleError) as error:
        record_contract(player_id=tess.pk, **values)
    assert (error.value.rule, error.value.field) == (Rule.TPPP_CONTRACT, field)


def test_renewals_are_flagged_ninety_days_before_expiry():
    soon, later = _tppp("TC-S"), _tppp("TC-L")
    day = date(2026, 10, 1)
    common = {"starts_on": date(2026, 1, 1), "approved_on": date(2025, 12, 1),
              "approval_number": "GEGC-2"}  # fmt: skip
    record_contract(player_id=soon.pk, ends_on=day + timedelta(days=90), **common)
    record_contract(player_id=later.pk, ends_on=day + timedelta(days=91), **common)
    assert [c.registration.player for c in contracts_to_renew(day=day)] == [soon]
    record_contract(player_id=soon.pk, ends_on=date(2027, 12, 31), **common)  # renewed
    assert contracts_to_renew(day=day) == []


@pytest.mark.requires_postgres
def test_the_database_refuses_to_edit_or_delete_a_contract():
    """A contract is never edited (docs/rules.md §8.7): a renewal is a new contract.
    PostgreSQL refuses an UPDATE or a DELETE of the contract and of the tables it names."""
    staff = make_staff()
    main = floor.create_table(name="Main C9", by=staff.supervisor)
    tess = _tppp("TC-9")
    contract = record_contract(
        player_id=tess.pk, table_ids=[main.pk], starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31), approved_on=date(2025, 12, 1), approval_number="GEGC-9",
        by=staff.supervisor,
    )  # fmt: skip
    rows = TPPPContract.objects.filter(pk=contract.pk)
    named = TPPPContract.tables.through.objects.filter(tpppcontract_id=contract.pk)
    for edit in (
        lambda: rows.update(ends_on=date(2027, 12, 31)),
        lambda: rows.update(approval_number="GEGC-FORGED"),
        lambda: rows.delete(),
        lambda: named.delete(),
        lambda: named.update(table_id=main.pk),
    ):
        with pytest.raises(IntegrityError, match="cannot be changed"), transaction.atomic():
            edit()
    assert rows.values_list("ends_on", "approval_number").get() == (date(2026, 12, 31), "GEGC-9")
    assert list(named.values_list("table_id", flat=True)) == [main.pk]
