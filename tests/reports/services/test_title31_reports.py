"""The Title 31 live reports (docs/rules.md §10.7): the Multiple Transaction Log and the CTRs
as the chip services recorded them, in CSV and in PDF, through the reports pipeline (stored
with their checksum, the same bytes for the same inputs)."""

from __future__ import annotations

import hashlib

import pytest

from cardroom.clock import now
from cardroom.gaming_day import gaming_day_of
from tests.builders.floor import make_player
from tests.reports.helpers import generate_bytes, read_csv
from wagers.services import chips, title31

pytestmark = pytest.mark.django_db


def test_the_mtl_and_ctr_reports(on_floor, compliance):
    table = on_floor.table()
    patron = make_player(name="Nadia Novak")  # ID on record
    by = on_floor.dealer
    chips.buy_in(table_id=table.pk, player_id=patron.pk, amount=600_000, currency=True, by=by)
    chips.buy_in(table_id=table.pk, player_id=patron.pk, amount=450_000, currency=True, by=by)
    chips.buy_in(table_id=table.pk, player_id=patron.pk, amount=100_000, currency=True, by=by)
    day = gaming_day_of(now()).isoformat()

    data, _ = generate_bytes("mtl", from_day=day, to_day=day, format="csv")
    header, sections = read_csv(data)
    assert header["report"] == "Multiple Transaction Log"
    rows = sections["Currency transactions on the log"]
    assert [(r["player_name"], r["direction"], r["amount_cents"]) for r in rows] == [
        ("Nadia Novak", "Cash in", "600000"),
        ("Nadia Novak", "Cash in", "450000"),
    ]  # $1,000 is under the MTL threshold
    assert all(r["id_on_record"] == "yes" and r["table"] == table.name for r in rows)
    assert generate_bytes("mtl", from_day=day, to_day=day, format="csv")[0] == data

    data, _ = generate_bytes("ctrs", from_day=day, to_day=day, format="csv")
    rows = read_csv(data)[1]["CTRs: patrons over $10,000 of cash in or cash out in a gaming day"]
    assert len(rows) == 1
    row = rows[0]
    assert (row["cash_in_cents"], row["over"], row["status"]) == ("1150000", "cash in", "due")
    assert row["id_number_masked"].startswith("•")
    ctr = patron.ctrs.get()
    title31.mark_ctr_filed(ctr_id=ctr.pk, filing_number="31000123456789", by=compliance)
    data, _ = generate_bytes("ctrs", from_day=day, to_day=day, format="csv")
    row = read_csv(data)[1]["CTRs: patrons over $10,000 of cash in or cash out in a gaming day"][0]
    assert (row["status"], row["filing_number"]) == ("filed", "31000123456789")

    pdf, _ = generate_bytes("ctrs", from_day=day, to_day=day, format="pdf")
    assert pdf.startswith(b"%PDF")
    assert hashlib.sha256(pdf).hexdigest()
