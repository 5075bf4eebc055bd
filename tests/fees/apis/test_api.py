"""The fees API: answers, and its 400 (naming the rule) / 403 (role) / 409 (state) errors."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.clock import now
from cardroom.errors import Rule
from fees.models import FeeLine, FeeSchedule, FeeScheduleVersion, FeeWaiver, RoundFeeSchedule
from tests.builders.fees import STANDARD, table_schedule

pytestmark = pytest.mark.django_db
BASE = "/api/fees"


def ok(response, code=200):
    assert response.status_code == code, getattr(response, "data", response)
    return response.data


def version_body(**changes):
    return {"player_dealer_basis": "per_betting_square", "rates": STANDARD, **changes}


def test_a_supervisor_files_a_schedule_and_everyone_on_the_floor_reads_it(
    as_supervisor, as_dealer, as_compliance, on_floor
):
    table = on_floor.ready_table()
    schedule = ok(
        as_supervisor.post(
            f"{BASE}/schedules/", {"name": "Main", "table": table.pk}, format="json"
        ),
        201,
    )
    version = ok(
        as_supervisor.post(
            f"{BASE}/schedules/{schedule['id']}/versions/",
            version_body(note="filed 2026"),
            format="json",
        ),
        201,
    )
    assert version["number"] == 1 and len(version["rates"]) == 3
    assert version["rates"][1]["wager_from_cents"] == 2_501
    for client in (as_dealer, as_compliance):
        detail = ok(client.get(f"{BASE}/schedules/{schedule['id']}/"))
        assert [v["id"] for v in detail["versions"]] == [version["id"]]
        assert ok(client.get(f"{BASE}/tables/{table.pk}/schedule/"))["id"] == version["id"]
        assert ok(client.get(f"{BASE}/schedules/"))["count"] == 1
    assert ok(as_dealer.get(f"{BASE}/schedules/{schedule['id']}/versions/"))[0]["number"] == 1


def test_readers_cannot_write_and_strangers_cannot_read(
    as_dealer, as_compliance, api, as_supervisor, on_floor
):
    table = on_floor.ready_table()
    for client in (as_dealer, as_compliance):
        response = client.post(
            f"{BASE}/schedules/", {"name": "X", "table": table.pk}, format="json"
        )
        assert response.status_code == 403
    anonymous = api().get(f"{BASE}/schedules/")
    assert anonymous.status_code == 401 and anonymous.data["code"] == "not_authenticated"
    assert anonymous.data["message"] == "Authentication credentials were not provided."
    version = table_schedule(table, by=on_floor.supervisor)
    assert as_dealer.patch(f"{BASE}/versions/{version.pk}/", {}, format="json").status_code == 403
    response = as_dealer.post(f"{BASE}/drop-boxes/", {}, format="json")
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("body", "field", "rule", "message"),
    [
        (
            version_body(rates=[*STANDARD, *[dict(STANDARD[0])] * 3]),
            "rates",
            Rule.FEE_RATES,
            "6 rates: no more than five collection rates per table",
        ),
        (
            version_body(rates=[dict(STANDARD[0], player_fee_cents="5%"), *STANDARD[1:]]),
            "rates[0].player_fee_cents",
            Rule.FEES_FLAT,
            "'5%' is a percentage; a fee is a flat amount in cents (e.g. 100 for $1)",
        ),
        (
            version_body(rates=[dict(STANDARD[0], wager_to_cents=3_000), *STANDARD[1:]]),
            "rates[1].wager",
            Rule.FEE_RANGES,
            "player wager ranges overlap: $5.00 - $30.00 and $25.01 - $100.00",
        ),
        (
            version_body(rates=[dict(STANDARD[0], wager_to_cents=2_000), *STANDARD[1:]]),
            "rates[1].wager",
            Rule.FEE_RANGES,
            "player wager ranges leave a gap between $20.00 and $25.01",
        ),
        (
            version_body(player_dealer_basis="percent"),
            "player_dealer_basis",
            Rule.FEE_RATES,
            "'percent': the player-dealer fee is either 'per_betting_square' or "
            "'total_table_action'",
        ),
    ],
)
def test_a_bad_version_is_refused_naming_the_rule(
    as_supervisor, on_floor, body, field, rule, message
):
    table = on_floor.ready_table()
    schedule = FeeSchedule.objects.create(
        name="T", table=table, created_at=now(), created_by=on_floor.supervisor
    )
    data = ok(
        as_supervisor.post(f"{BASE}/schedules/{schedule.pk}/versions/", body, format="json"), 400
    )
    assert data == {
        "code": "rule_broken",
        "rule": rule.value,
        "section": rule.section,
        "field": field,
        "message": message,
    }
    assert not FeeScheduleVersion.objects.exists()


def test_a_version_is_never_edited(as_supervisor, on_floor):
    version = table_schedule(on_floor.ready_table(), by=on_floor.supervisor)
    for method in ("put", "patch", "delete"):
        response = getattr(as_supervisor, method)(
            f"{BASE}/versions/{version.pk}/", {"rates": STANDARD}, format="json"
        )
        data = ok(response, 409)
        assert data["code"] == "in_force" and "new version" in data["message"]
        assert data["rule"] == Rule.FEE_VERSIONS
    later = ok(
        as_supervisor.post(
            f"{BASE}/schedules/{version.schedule_id}/versions/",
            version_body(effective_at=(now() + timedelta(days=1)).isoformat()),
            format="json",
        ),
        201,
    )
    scheduled = ok(as_supervisor.patch(f"{BASE}/versions/{later['id']}/", {}, format="json"), 409)
    assert scheduled["code"] == "scheduled" and scheduled["rule"] == Rule.FEE_VERSIONS
    second = as_supervisor.post(
        f"{BASE}/schedules/", {"name": "again", "table": version.schedule.table_id}, format="json"
    )
    assert ok(second, 409)["code"] == "exists"


def test_round_fees_and_a_waiver_through_the_api(as_supervisor, as_dealer, on_floor):
    table = on_floor.ready_table()
    version = table_schedule(table, by=on_floor.supervisor)
    round_ = on_floor.round_in("no_more_bets", table=table)
    fees = ok(as_dealer.get(f"{BASE}/rounds/{round_.pk}/"))
    assert fees["assessed_cents"] == fees["collected_cents"] == 2 * 2 * (50 + 25)
    assert fees["fee_schedule_version"] == version.pk
    assert fees["fee_schedule_version"] == RoundFeeSchedule.objects.get(round=round_).version_id
    line = fees["lines"][0]
    assert (line["payer_kind"], line["seat"], line["square"], line["waived"]) == (
        "player",
        2,
        "ante",
        False,
    )
    url = f"{BASE}/lines/{line['id']}/waiver/"
    assert as_dealer.post(url, {"reason": "comp"}, format="json").status_code == 403
    data = ok(as_supervisor.post(url, {"reason": ""}, format="json"), 400)
    assert (data["code"], data["field"], data["rule"]) == ("rule_broken", "reason", Rule.FEE_WAIVER)
    assert data["message"] == "say why the fee is waived"
    waiver = ok(as_supervisor.post(url, {"reason": "comp"}, format="json"), 201)
    assert waiver["waived_by"] == on_floor.supervisor.username
    again = ok(as_supervisor.post(url, {"reason": "comp"}, format="json"), 409)
    assert again["code"] == "waived" and again["rule"] == Rule.FEE_WAIVER
    fees = ok(as_dealer.get(f"{BASE}/rounds/{round_.pk}/"))
    assert fees["waived_cents"] == 50 and fees["lines"][0]["waived"] is True
    import random

    from rounds import services as rounds

    rounds.deal(round_id=round_.pk, by=on_floor.dealer, rng=random.Random(1))
    late = f"{BASE}/lines/{fees['lines'][1]['id']}/waiver/"
    data = ok(as_supervisor.post(late, {"reason": "late"}, format="json"), 409)
    assert data["code"] == "preflop" and data["rule"] == Rule.FEE_WAIVER
    assert FeeWaiver.objects.count() == 1 and FeeLine.objects.count() == 8


def test_drop_boxes_and_counts_through_the_api(as_supervisor, as_dealer, on_floor):
    table = on_floor.ready_table()
    body = {"box_number": "B-7", "table": table.pk, "gaming_day": "2020-01-02", "shift": "day"}
    box = ok(as_supervisor.post(f"{BASE}/drop-boxes/", body, format="json"), 201)
    assert box["recorded_cents"] == 0 and box["difference_cents"] is None
    assert ok(as_supervisor.post(f"{BASE}/drop-boxes/", body, format="json"), 409)
    bad = ok(
        as_supervisor.post(
            f"{BASE}/drop-boxes/", dict(body, box_number="B-8", shift="brunch"), format="json"
        ),
        400,
    )
    assert (bad["code"], bad["field"], bad["rule"]) == ("rule_broken", "shift", Rule.SHIFTS)
    assert bad["message"] == "'brunch' is not a shift of this cardroom (day, swing, graveyard)"
    count = {"amount_cents": 300, "counters": ["Ann", "Bo"], "counted_at": "2020-01-03T12:00:00Z"}
    url = f"{BASE}/drop-boxes/{box['id']}/counts/"
    assert as_dealer.post(url, count, format="json").status_code == 403
    counted = ok(as_supervisor.post(url, count, format="json"), 201)
    assert (counted["counted_cents"], counted["difference_cents"]) == (300, 300)
    listed = ok(as_dealer.get(f"{BASE}/drop-boxes/", {"gaming_day": "2020-01-02"}))
    assert listed["count"] == 1 and listed["results"][0]["counts"] == 1
    assert len(ok(as_dealer.get(f"{BASE}/drop-boxes/{box['id']}/"))["all_counts"]) == 1
    assert (
        ok(as_dealer.get(f"{BASE}/drop-boxes/", {"gaming_day": str(date(2020, 1, 3))}))["count"]
        == 0
    )


def test_the_filing_downloads(as_compliance, on_floor):
    version = table_schedule(on_floor.ready_table(), by=on_floor.supervisor)
    csv_response = as_compliance.get(f"{BASE}/filing.csv")
    assert csv_response.status_code == 200 and csv_response["Content-Type"].startswith("text/csv")
    assert b"Player-Dealer Fee On Total Table Action" in csv_response.content
    pdf = as_compliance.get(f"{BASE}/versions/{version.pk}/filing.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    again = as_compliance.get(f"{BASE}/versions/{version.pk}/filing.pdf")
    assert again.content == pdf.content
    assert "attachment" in pdf["Content-Disposition"]
    assert as_compliance.get(f"{BASE}/filing.doc").status_code == 404


def test_listing_drop_boxes_costs_the_same_for_one_box_or_many(as_supervisor, as_dealer, on_floor):
    table = on_floor.ready_table()

    def listed_queries():
        with CaptureQueriesContext(connection) as queries:
            ok(as_dealer.get(f"{BASE}/drop-boxes/"))
        return len(queries)

    def register(number, day, shift):
        body = {"box_number": number, "table": table.pk, "gaming_day": day, "shift": shift}
        ok(as_supervisor.post(f"{BASE}/drop-boxes/", body, format="json"), 201)

    register("B-1", "2020-01-02", "day")
    one = listed_queries()
    for number, (day, shift) in enumerate(
        [("2020-01-02", "swing"), ("2020-01-02", "graveyard"), ("2020-01-03", "day")], start=2
    ):
        register(f"B-{number}", day, shift)
    assert listed_queries() == one
