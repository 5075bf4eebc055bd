"""Title 31 live, through the API (docs/rules.md §10.7): a patron without ID buys in $6,000
and then $4,500 in cash in one gaming day; the second is refused, naming identification,
with nothing written; once a supervisor records the ID the same request succeeds, the
patron is in the CTRs and both buy-ins are on the Multiple Transaction Log."""

from __future__ import annotations

import pytest

from cardroom.clock import now
from cardroom.errors import Rule
from cardroom.gaming_day import gaming_day_of
from tests.builders.floor import make_player
from wagers.models import CageSlip, CurrencyDay, LedgerTransaction, MtlEntry
from wagers.services import chips

pytestmark = pytest.mark.django_db


def ok(response, code=200):
    assert response.status_code == code, getattr(response, "data", response)
    return response.data


def chips_of(player, table) -> int:
    account = chips.chip_account(player, table)
    return account.balance_cents if account else 0


def test_six_thousand_then_four_and_a_half_in_cash(
    on_floor, as_dealer, as_supervisor, as_compliance
):
    table = on_floor.table()
    patron = make_player(name="Nadia Novak", identified=False)
    on_floor_seat = as_dealer.post(
        f"/api/tables/{table.pk}/seats/", {"seat": 1, "player": patron.pk}, format="json"
    )
    ok(on_floor_seat, 201)
    buy_in = f"/api/tables/{table.pk}/chips/buy-in/"
    ok(as_dealer.post(buy_in, {"player": patron.pk, "amount": 600_000, "currency": True},
                      format="json"), 201)  # fmt: skip
    assert chips_of(patron, table) == 600_000
    written = LedgerTransaction.objects.count(), CageSlip.objects.count(), MtlEntry.objects.count()

    second = {"player": patron.pk, "amount": 450_000, "currency": True}
    refused = as_dealer.post(buy_in, second, format="json")
    assert refused.status_code == 400, refused.data
    assert refused.data["rule"] == Rule.CTR_IDENTIFICATION == "title31.identification"
    assert refused.data["field"] == "player"
    message = refused.data["message"]
    assert "identification" in message and "$10,500.00" in message and "Nadia Novak" in message
    assert chips_of(patron, table) == 600_000  # chips unchanged
    assert (
        LedgerTransaction.objects.count(),
        CageSlip.objects.count(),
        MtlEntry.objects.count(),
    ) == written
    assert CurrencyDay.objects.get(player=patron).cash_in_cents == 600_000

    # A dealer may not record the ID; a supervisor does, on the spot.
    identification = {"id_type": "driver_license", "id_number": "D7654321", "id_issued_by": "CA"}
    assert (
        as_dealer.patch(f"/api/players/{patron.pk}/", identification, format="json").status_code
        == 403
    )
    ok(as_supervisor.patch(f"/api/players/{patron.pk}/", identification, format="json"))

    ok(as_dealer.post(buy_in, second, format="json"), 201)
    assert chips_of(patron, table) == 1_050_000

    day = gaming_day_of(now()).isoformat()
    ctrs = ok(as_compliance.get(f"/api/compliance/ctrs/?gaming_day={day}"))
    assert ctrs["count"] == 1
    ctr = ctrs["results"][0]
    assert ctr["player"]["name"] == "Nadia Novak"
    assert ctr["player"]["id_number_masked"] == "••••4321"
    assert (ctr["cash_in"], ctr["cash_out"], ctr["over"]) == (1_050_000, 0, "cash in")
    assert ctr["status"] == "due" and ctr["filing_number"] == ""
    assert [
        (t["amount"], t["direction"], t["table_name"], t["staff"]) for t in ctr["transactions"]
    ] == [
        (600_000, "in", table.name, "dealer"),
        (450_000, "in", table.name, "dealer"),
    ]

    mtl = ok(as_compliance.get(f"/api/compliance/mtl/?gaming_day={day}"))
    assert [
        (e["player"]["id"], e["amount"], e["direction"], e["identified"]) for e in mtl["results"]
    ] == [
        (patron.pk, 600_000, "in", False),
        (patron.pk, 450_000, "in", True),
    ]
    # Another day's log is empty; a malformed day is a 400 naming it.
    assert ok(as_compliance.get("/api/compliance/mtl/?gaming_day=2001-01-01"))["count"] == 0
    bad = as_compliance.get("/api/compliance/mtl/?gaming_day=yesterday")
    assert bad.status_code == 400 and bad.data["field"] == "gaming_day"


def test_only_compliance_reads_the_log_and_marks_a_ctr_filed(
    on_floor, as_dealer, as_supervisor, as_compliance
):
    table = on_floor.table()
    patron = make_player(identified=False)
    on_floor.seat(table, 1, patron)  # buys in 100000 in currency
    for path in ("/api/compliance/mtl/", "/api/compliance/ctrs/"):
        assert as_dealer.get(path).status_code == 403
        assert as_supervisor.get(path).status_code == 403
        assert as_compliance.get(path).status_code == 200
    passport = {"id_type": "passport", "id_number": "X1234567"}
    ok(as_supervisor.patch(f"/api/players/{patron.pk}/", passport, format="json"))
    buy_in = f"/api/tables/{table.pk}/chips/buy-in/"
    ok(as_dealer.post(buy_in, {"player": patron.pk, "amount": 1_000_000, "currency": True},
                      format="json"), 201)  # fmt: skip
    ctr = ok(as_compliance.get("/api/compliance/ctrs/?status=due"))["results"][0]
    filed = f"/api/compliance/ctrs/{ctr['id']}/filed/"
    blank = as_compliance.post(filed, {"filing_number": " "}, format="json")
    assert blank.status_code == 400
    assert (
        as_supervisor.post(filed, {"filing_number": "31000123456789"}, format="json").status_code
        == 403
    )
    done = ok(as_compliance.post(filed, {"filing_number": "31000123456789"}, format="json"))
    assert (done["status"], done["filing_number"], done["filed_by"]) == (
        "filed", "31000123456789", "compliance",
    )  # fmt: skip
    again = as_compliance.post(filed, {"filing_number": "31000123456789"}, format="json")
    assert again.status_code == 409 and again.data["rule"] == "title31.filing"
    assert ok(as_compliance.get("/api/compliance/ctrs/?status=due"))["count"] == 0
    assert ok(as_compliance.get("/api/compliance/ctrs/?status=filed"))["count"] == 1


@pytest.mark.parametrize(
    ("amounts", "refused_at"),
    [
        ([1_000_000], None),  # exactly $10,000 is not over
        ([1_000_100], 0),
        ([500_000, 500_000, 100], 2),
        ([999_900, 100], None),
    ],
)
def test_the_threshold_is_over_ten_thousand_cash_in(on_floor, amounts, refused_at):
    table = on_floor.table(chip_unit_cents=100)
    patron = make_player(identified=False)
    for index, amount in enumerate(amounts):
        call = lambda amount=amount: chips.buy_in(  # noqa: E731
            table_id=table.pk, player_id=patron.pk, amount=amount, currency=True,
            by=on_floor.dealer,
        )  # fmt: skip
        if index == refused_at:
            with pytest.raises(Exception, match="identification") as error:
                call()
            assert error.value.rule == Rule.CTR_IDENTIFICATION
        else:
            call()


def test_cash_in_and_out_are_apart_and_chips_without_currency_do_not_count(on_floor):
    table = on_floor.table()
    patron = make_player(identified=False)
    by = on_floor.dealer
    chips.buy_in(table_id=table.pk, player_id=patron.pk, amount=900_000, currency=True, by=by)
    chips.buy_in(table_id=table.pk, player_id=patron.pk, amount=900_000, currency=False, by=by)
    chips.cash_out(table_id=table.pk, player_id=patron.pk, amount=900_000, currency=True, by=by)
    day = CurrencyDay.objects.get(player=patron)
    assert (day.cash_in_cents, day.cash_out_cents) == (900_000, 900_000)
    with pytest.raises(Exception, match=r"cash out today would be \$10,800\.00"):
        chips.cash_out(table_id=table.pk, player_id=patron.pk, amount=180_000, currency=True, by=by)
    chips.cash_out(table_id=table.pk, player_id=patron.pk, amount=180_000, currency=False, by=by)
