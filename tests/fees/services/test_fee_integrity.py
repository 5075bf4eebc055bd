"""``verify_ledger`` finds tampered fees; PostgreSQL refuses edits to fee history."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import InternalError

from fees.models import FeeLine, FeeRate
from fees.selectors import fee_lines
from fees.services import waivers
from tests.builders.fees import assessed_round, differences

pytestmark = pytest.mark.django_db


@pytest.fixture
def assessed(staff, clock):
    mt, round_ = assessed_round(staff, clock)
    assert list(differences()) == []
    return mt, round_


def test_a_fee_line_changed_behind_the_ledger_is_found(assessed, tamper):
    _, round_ = assessed
    line = fee_lines(round_).first()
    tamper(
        "UPDATE fees_feeline SET amount_cents = amount_cents + 100 WHERE id = %s",
        [line.pk],
        "UPDATE fees_feeline SET amount_cents = amount_cents - 100 WHERE id = %s",
    )
    found = {d.check for d in differences()}
    assert found == {"fee line disagrees with its transaction", "drop differs from the fees kept"}


def test_a_waiver_that_reverses_another_fee_is_found(assessed, tamper, staff):
    _, round_ = assessed
    first, second = fee_lines(round_)[:2]
    waiver = waivers.waive_fee(fee_line_id=first.pk, reason="comp", by=staff.supervisor)
    tamper(
        "UPDATE fees_feewaiver SET fee_line_id = %s WHERE id = %s",
        [second.pk, waiver.pk],
        "UPDATE fees_feewaiver SET fee_line_id = %s WHERE id = %s",
        [first.pk, waiver.pk],
    )
    assert {(d.check, d.row_id, d.expected, d.found) for d in differences()} == {
        # the waiver names the second fee, whose transaction its reversal does not reverse
        (
            "fee waiver does not reverse its fee",
            waiver.pk,
            second.transaction_id,
            first.transaction_id,
        )
    }


@pytest.mark.requires_postgres
def test_postgresql_refuses_to_edit_fee_history(assessed):
    _, round_ = assessed
    line = FeeLine.objects.filter(round=round_).first()
    rate = FeeRate.objects.first()
    for statement, params in [
        ("UPDATE fees_feeline SET amount_cents = 1 WHERE id = %s", [line.pk]),
        ("DELETE FROM fees_feeline WHERE id = %s", [line.pk]),
        ("UPDATE fees_feerate SET player_fee_cents = 1 WHERE id = %s", [rate.pk]),
        ("UPDATE fees_feescheduleversion SET note = 'x' WHERE id = %s", [rate.version_id]),
    ]:
        with (
            pytest.raises((IntegrityError, InternalError), match="history"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(statement, params)
