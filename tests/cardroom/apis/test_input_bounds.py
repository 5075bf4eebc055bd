"""Input at the edge (cardroom/bounds.py): what no column, parser or rule can take is refused
with the one error body, never a server error, never read as something nobody typed, and
every refused write still leaves its row on the audit trail.

- amounts beyond the columns' range (a table maximum, a fee, a drop count, a buy-in), on
  the API and on the console's forms: 400 naming the field, nothing written;
- instants with a UTC offset beyond ±15:59, gaming days beyond 9998-12-31: 400;
- JSON nested too deep: 400 ``parse_error``, and the audit row is kept;
- text PostgreSQL cannot store (a NUL, a lone surrogate): 400 naming the field;
- a float id (``"player": 249.9``) or digits of another script (Arabic-Indic five hundred,
  a superscript two): refused, never read as player 249, 500 cents or table 2;
- ids beyond 32 bits in a path: answered, and recorded on the 64-bit audit trail;
- sign-ins with a user name over 255 characters or with a NUL: refused and recorded.
"""

from __future__ import annotations

import json
from datetime import date
from types import SimpleNamespace

import pytest
from axes.models import AccessAttempt
from django.db.backends.base.operations import BaseDatabaseOperations
from django.urls import reverse

from cardroom.errors import Rule
from cardroom.money import dollars
from cardroom.roles import Role
from console.models import Outcome, StaffAction
from fees.models import DropBox, DropCount, FeeSchedule, FeeScheduleVersion
from fees.services import drop, schedules
from reports.models import ReportRequest
from tables.models import Seating, Table
from tests.builders.factories import UserFactory
from tests.builders.fees import STANDARD
from tests.builders.floor import make_player, round_snapshot
from tests.builders.money import chips_of
from wagers.models import LedgerTransaction

pytestmark = pytest.mark.django_db

ARABIC_INDIC_500 = "\u0665\u0660\u0660"  # Arabic-Indic 5, 0, 0: int() reads it as 500
SUPERSCRIPT_TWO = "\u00b2"  # ²: str.isdigit() says it is a digit, int() refuses it
ID_MAX = 2**63 - 1  # the largest id of a 64-bit column
# The messages of cardroom/bounds.py, written out: what the staff member reads.
NOT_AN_INTEGER = "a whole number is required, written with the digits 0-9"
CENTS_OVER = "at most 2147483647"  # a 32-bit column's largest number of cents
DOLLARS_OVER = "at most $21,474,836.47"  # the console's words for the same bound
OFFSET_OUT_OF_RANGE = "the UTC offset must be between -15:59 and +15:59"
DATE_OUT_OF_RANGE = "date out of range: from 1900-01-01 to 9998-12-31"
NUL_CHARACTER = "Null characters are not allowed."
TOO_DEEP = "JSON parse error - JSON nested deeper than 32 levels"
PASSWORD = "s3cret-pass"
COUNTED_AT = "2026-11-20T12:00:00Z"  # after the box's shift, before the pinned clock


def tokens_issued() -> int:
    from knox.models import AuthToken  # django-rest-knox: the API's tokens (cardroom/tokens.py)

    return AuthToken.objects.count()


def refused(response, status: int, *, code: str, field: str | None, message: str, rule=None):
    """Assert the one error body, exactly; ``invalid`` carries the field's messages too."""
    assert response.status_code == status, response.content
    body = {
        "code": code,
        "rule": None if rule is None else rule.value,
        "section": None if rule is None else rule.section,
        "field": field,
        "message": message,
    }
    if code == "invalid":
        body["errors"] = {field: [message]}
    assert response.json() == body


def invalid(response, field: str, message: str) -> None:
    refused(response, 400, code="invalid", field=field, message=message)


def fits_the_column(field_name: str, value: int) -> bool:
    """Whether ``value`` fits StaffAction's ``field_name`` column on PostgreSQL, whose integer
    columns have the SQL standard's ranges (SQLite stores any 64-bit integer in any of them)."""
    field = StaffAction._meta.get_field(field_name)
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    return low <= value <= high


@pytest.fixture
def scene(on_floor, clock):
    """A table with players seated (seat 1's player has chips), a drop box for yesterday's day
    shift (ended: it may be counted now), and a fee schedule with no version yet."""
    table = on_floor.ready_table()
    patron = Seating.objects.get(table=table, seat=1, left_at__isnull=True).player
    box = drop.register_box(
        box_number="B-1",
        table_id=table.pk,
        gaming_day=date(2026, 11, 19),
        shift="day",
        by=on_floor.supervisor,
    )
    schedule = schedules.create_schedule(name="Main", table_id=table.pk, by=on_floor.supervisor)
    return SimpleNamespace(table=table, patron=patron, box=box, schedule=schedule)


def written() -> dict[str, int]:
    """The rows an API write here could have added."""
    models = (Table, Seating, LedgerTransaction, DropBox, DropCount, FeeScheduleVersion)
    return {model.__name__: model.objects.count() for model in models}


def rates_with(**change):
    return [dict(STANDARD[0], **change), *STANDARD[1:]]


# --- Amounts beyond the columns, and digits nobody typed: the API ---------------------------


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        (
            lambda s: "/api/tables/",
            lambda s: {"name": "BIG", "maximum_cents": 3_000_000_000},
            "maximum_cents",
            CENTS_OVER,
        ),
        (
            lambda s: f"/api/tables/{s.table.pk}/chips/buy-in/",
            lambda s: {"player": s.patron.pk, "amount": 1e30, "currency": True},
            "amount",
            NOT_AN_INTEGER,
        ),
        (
            lambda s: f"/api/tables/{s.table.pk}/chips/buy-in/",
            lambda s: {"player": s.patron.pk, "amount": 10**30, "currency": True},
            "amount",
            CENTS_OVER,
        ),
        (
            lambda s: f"/api/tables/{s.table.pk}/chips/buy-in/",
            lambda s: {"player": s.patron.pk, "amount": ARABIC_INDIC_500, "currency": True},
            "amount",
            NOT_AN_INTEGER,
        ),
        (
            lambda s: f"/api/fees/drop-boxes/{s.box.pk}/counts/",
            lambda s: {
                "amount_cents": 2**63,
                "counters": ["Ann", "Bo"],
                "counted_at": COUNTED_AT,
            },
            "amount_cents",
            CENTS_OVER,
        ),
    ],
    ids=["table-maximum-3e9", "buy-in-1e30", "buy-in-10**30", "buy-in-arabic-indic", "drop-2**63"],
)
def test_an_amount_beyond_the_columns_or_in_other_digits_is_400_naming_it(
    as_supervisor, scene, path, body, field, message
):
    before, chips = written(), chips_of(scene.patron, scene.table)
    response = as_supervisor.post(path(scene), body(scene), format="json")
    invalid(response, field, message)
    assert written() == before
    assert chips_of(scene.patron, scene.table) == chips


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            {"player_fee_cents": 3_000_000_000},
            "rates[0].player_fee_cents",
            "$30,000,000.00 is more than $21,474,836.47",
        ),
        (
            {"player_dealer_fee_cents": 2**63},
            "rates[0].player_dealer_fee_cents",
            f"{dollars(2**63)} is more than $21,474,836.47",
        ),
        (
            {"player_fee_cents": ARABIC_INDIC_500},
            "rates[0].player_fee_cents",
            f"{ARABIC_INDIC_500!r} is not a whole number of cents",
        ),
    ],
    ids=["fee-3e9", "fee-2**63", "fee-arabic-indic"],
)
def test_a_fee_beyond_the_columns_is_refused_by_the_fee_engine_naming_the_rate(
    as_supervisor, scene, change, field, message
):
    before = written()
    response = as_supervisor.post(
        f"/api/fees/schedules/{scene.schedule.pk}/versions/",
        {"player_dealer_basis": "per_betting_square", "rates": rates_with(**change)},
        format="json",
    )
    refused(response, 400, code="rule_broken", field=field, message=message, rule=Rule.FEE_RATES)
    assert written() == before


@pytest.mark.parametrize("player", [0.9, 0.0], ids=["249.9", "249.0"])
@pytest.mark.parametrize(
    ("path", "body"),
    [
        (
            lambda s: f"/api/tables/{s.table.pk}/seats/",
            lambda player: {"seat": 5, "player": player},
        ),
        (
            lambda s: f"/api/tables/{s.table.pk}/chips/buy-in/",
            lambda player: {"player": player, "amount": 1_000, "currency": True},
        ),
    ],
    ids=["seat", "buy-in"],
)
def test_a_float_is_no_player_id(as_dealer, scene, path, body, player):
    """``"player": 249.9`` used to seat (or buy in) player 249."""
    someone = make_player()
    before = written()
    response = as_dealer.post(path(scene), body(someone.pk + player), format="json")
    invalid(response, "player", NOT_AN_INTEGER)
    assert written() == before
    assert not Seating.objects.filter(player=someone).exists()


# --- Instants and gaming days out of range --------------------------------------------------


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/api/rounds/", {"started_before": "2026-01-01T00:00:00+18:00"}, "started_before"),
        ("/api/rounds/", {"started_after": "2026-01-01T00:00:00-16:00"}, "started_after"),
        ("/api/fees/filing.csv", {"at": "2026-01-01T00:00:00+16:00"}, "at"),
    ],
    ids=["rounds-before-+18:00", "rounds-after--16:00", "filing-at-+16:00"],
)
def test_an_instant_with_an_offset_beyond_15_59_is_400_naming_the_filter(
    as_compliance, path, params, field
):
    invalid(as_compliance.get(path, params), field, OFFSET_OUT_OF_RANGE)


def test_a_drop_count_at_an_offset_beyond_15_59_is_400_and_not_written(as_supervisor, scene):
    before = written()
    response = as_supervisor.post(
        f"/api/fees/drop-boxes/{scene.box.pk}/counts/",
        {
            "amount_cents": 300,
            "counters": ["Ann", "Bo"],
            "counted_at": "2026-11-21T05:00:00+18:00",  # 11:00Z: a valid moment but for its offset
        },
        format="json",
    )
    invalid(response, "counted_at", OFFSET_OUT_OF_RANGE)
    assert written() == before


def test_a_drop_box_for_gaming_day_9999_12_31_is_400_and_not_written(as_supervisor, scene):
    before = written()
    response = as_supervisor.post(
        "/api/fees/drop-boxes/",
        {"box_number": "B-9", "table": scene.table.pk, "gaming_day": "9999-12-31", "shift": "day"},
        format="json",
    )
    invalid(response, "gaming_day", DATE_OUT_OF_RANGE)
    assert written() == before
    listed = as_supervisor.get("/api/fees/drop-boxes/", {"gaming_day": "9999-12-31"})
    invalid(listed, "gaming_day", DATE_OUT_OF_RANGE)


# --- Reports ----------------------------------------------------------------------------------


def arabic_indic(number: int) -> str:
    """``number`` in Arabic-Indic digits (U+0660 to U+0669), which ``int()`` reads."""
    return "".join(chr(0x0660 + int(digit)) for digit in str(number))


@pytest.mark.parametrize(
    "written",
    [lambda table: SUPERSCRIPT_TWO, lambda table: arabic_indic(table.pk)],
    ids=["superscript-two", "arabic-indic-id"],
)
def test_a_report_table_in_other_digits_is_no_table_id(as_compliance, clock, on_floor, written):
    """A superscript two was a server error; the Arabic-Indic digits of a real table's id made
    a report for that table."""
    table = on_floor.table()
    response = as_compliance.post(
        "/api/reports/",
        {
            "report_type": "rotation",
            "parameters": {"gaming_day": "2026-11-19", "table": written(table)},
        },
        format="json",
    )
    refused(
        response,
        400,
        code="rule_broken",
        field="table",
        message="table must be a table id",
        rule=Rule.REPORTS,
    )
    assert not ReportRequest.objects.exists()


# --- JSON nested too deep, text that cannot be stored -------------------------------------------


def nested(depth: int, kind: str) -> str:
    if kind == "arrays":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("depth", "kind", "detail"),
    [
        (33, "arrays", "(body nested deeper than 32 levels)"),
        (5_000, "arrays", "(body nested deeper than 32 levels)"),
        (2_000, "objects", "(body nested deeper than 32 levels)"),
        (100_000, "arrays", "(body too large to record)"),
    ],
    ids=["33-arrays", "5000-arrays", "2000-objects", "100000-arrays"],
)
def test_json_nested_too_deep_is_400_parse_error_and_still_on_the_audit_trail(
    as_supervisor, supervisor, depth, kind, detail
):
    before = Table.objects.count()
    response = as_supervisor.post(
        "/api/tables/", nested(depth, kind), content_type="application/json"
    )
    refused(response, 400, code="parse_error", field=None, message=TOO_DEEP)
    assert Table.objects.count() == before
    (row,) = StaffAction.objects.all()
    assert (row.user, row.channel, row.action, row.path, row.detail) == (
        supervisor, "api", "tables:table-list", "/api/tables/", detail,
    )  # fmt: skip
    assert (row.outcome, row.status_code) == (Outcome.REFUSED, 400)


@pytest.mark.parametrize(
    ("escaped", "message"),
    [
        ("\\ud800", "Surrogate characters are not allowed: U+D800."),
        ("\\udfff", "Surrogate characters are not allowed: U+DFFF."),
        ("check\\u0000", NUL_CHARACTER),
    ],
    ids=["high-surrogate", "low-surrogate", "nul"],
)
def test_text_that_cannot_be_stored_in_a_choice_is_400_naming_the_field(
    as_dealer, on_floor, escaped, message
):
    round_ = on_floor.round_in("preflop")  # seat 3 has yet to decide
    before = round_snapshot(round_.pk)
    response = as_dealer.post(
        f"/api/rounds/{round_.pk}/decisions/",
        f'{{"seat": 3, "action": "{escaped}"}}',
        content_type="application/json",
    )
    invalid(response, "action", message)
    assert round_snapshot(round_.pk) == before
    (row,) = StaffAction.objects.all()
    assert (row.action, row.round_id, row.outcome, row.status_code) == (
        "rounds:round-decisions", round_.pk, Outcome.REFUSED, 400,
    )  # fmt: skip
    assert row.detail == f'{{"action": "{escaped}", "seat": 3}}'  # as sent, escaped


# --- Ids beyond 32 bits: answered, and on the audit trail -------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "column", "value", "message"),
    [
        (
            "/api/tables/3000000000/seats/",
            lambda player: {"seat": 1, "player": player.pk},
            "table_id",
            3_000_000_000,
            "Table matching query does not exist.",
        ),
        (
            f"/api/tables/{ID_MAX}/chips/buy-in/",
            lambda player: {"player": player.pk, "amount": 1_000, "currency": True},
            "table_id",
            ID_MAX,
            "Table matching query does not exist.",
        ),
        (
            f"/api/rounds/{2**40}/decisions/",
            lambda player: {"seat": 2, "action": "check"},
            "round_id",
            2**40,
            f"no round {2**40}",
        ),
    ],
    ids=["table-3e9", "table-2**63-1", "round-2**40"],
)
def test_a_write_to_an_id_beyond_32_bits_is_404_and_recorded_with_the_id(
    as_dealer, dealer, path, body, column, value, message
):
    player = make_player()
    before = written()
    response = as_dealer.post(path, body(player), format="json")
    refused(response, 404, code="not_found", field=None, message=message)
    assert written() == before
    (row,) = StaffAction.objects.all()
    assert getattr(row, column) == value
    assert fits_the_column(column, value)
    assert (row.user, row.path, row.outcome, row.status_code) == (
        dealer, path, Outcome.REFUSED, 404,
    )  # fmt: skip


def test_a_write_to_an_id_beyond_64_bits_is_404_and_recorded_by_its_path(as_dealer):
    """No route takes the id (cardroom/converters.py), so no view authenticates the caller: the
    row has the path, not the user; the old trail lost the row to the column's overflow."""
    path = f"/api/tables/{2**63}/seats/"
    response = as_dealer.post(path, {"seat": 1, "player": make_player().pk}, format="json")
    assert response.status_code == 404
    (row,) = StaffAction.objects.all()
    assert (row.user, row.username, row.action, row.path, row.table_id, row.round_id) == (
        None, "", "unrouted", path, None, None,
    )  # fmt: skip
    assert (row.outcome, row.status_code) == (Outcome.REFUSED, 404)
    refused(response, 404, code="not_found", field=None, message="not found")


# --- Sign-ins ---------------------------------------------------------------------------------


@pytest.fixture
def terminal(db):
    return UserFactory(username="terminal", password=PASSWORD, role=Role.HOUSE_DEALER)


@pytest.mark.parametrize("length", [256, 5_000])
def test_an_api_sign_in_with_a_user_name_over_255_characters_is_400_and_recorded(
    api, terminal, length
):
    response = api().post(
        "/api/auth/token/", {"username": "t" * length, "password": PASSWORD}, format="json"
    )
    invalid(response, "username", "Ensure this field has no more than 150 characters.")
    assert not tokens_issued()
    assert not AccessAttempt.objects.exists()
    (row,) = StaffAction.objects.all()
    assert (row.channel, row.action, row.user, row.username) == (
        "auth", "API token sign-in", None, "t" * 150,
    )  # fmt: skip
    assert (row.outcome, row.status_code, row.detail) == (Outcome.REFUSED, 400, "")


@pytest.mark.parametrize("length", [256, 5_000])
def test_a_console_sign_in_with_a_user_name_over_255_characters_is_refused_and_recorded(
    client, terminal, length
):
    response = client.post(
        reverse("console:login"), {"username": "t" * length, "password": PASSWORD}
    )
    assert response.status_code == 400
    assert response.context["form"].errors == {
        "username": [f"Ensure this value has at most 150 characters (it has {length})."]
    }
    assert "_auth_user_id" not in client.session
    assert not AccessAttempt.objects.exists()
    (row,) = StaffAction.objects.all()
    assert (row.channel, row.action, row.user, row.username, row.status_code) == (
        "auth", "sign in", None, "t" * 150, 400,
    )  # fmt: skip
    assert row.outcome == Outcome.REFUSED


def test_an_api_sign_in_with_a_nul_in_the_user_name_is_400_and_recorded(api, terminal):
    response = api().post(
        "/api/auth/token/",
        json.dumps({"username": "term\x00inal", "password": PASSWORD}),  # "term\u0000inal"
        content_type="application/json",
    )
    invalid(response, "username", NUL_CHARACTER)
    (row,) = StaffAction.objects.all()
    assert (row.channel, row.action, row.user, row.username) == (
        "auth", "API token sign-in", None, "term\\x00inal",
    )  # fmt: skip
    assert (row.outcome, row.status_code) == (Outcome.REFUSED, 400)
    assert not tokens_issued()


def test_a_console_sign_in_with_a_nul_in_the_user_name_is_refused_and_recorded(client, terminal):
    response = client.post(
        reverse("console:login"), {"username": "term\x00inal", "password": PASSWORD}
    )
    assert response.status_code == 400
    assert response.context["form"].errors == {"username": [NUL_CHARACTER]}
    assert "_auth_user_id" not in client.session
    (row,) = StaffAction.objects.all()
    assert (row.channel, row.action, row.user, row.username, row.status_code) == (
        "auth", "sign in", None, "term\\x00inal", 400,
    )  # fmt: skip
    assert row.outcome == Outcome.REFUSED


# --- The console's forms ------------------------------------------------------------------------


@pytest.fixture
def console(client, supervisor):
    client.force_login(supervisor)
    return client


@pytest.mark.parametrize(
    ("amount", "message", "code"),
    [
        ("30000000", DOLLARS_OVER, "max_value"),  # 3,000,000,000 cents
        ("1e30", "Enter a number.", "invalid"),
        (ARABIC_INDIC_500, "Enter a number.", "invalid"),
    ],
    ids=["3e9-cents", "1e30", "arabic-indic"],
)
def test_a_console_buy_in_beyond_the_columns_or_in_other_digits_is_400_and_not_written(
    console, scene, amount, message, code
):
    before, chips = written(), chips_of(scene.patron, scene.table)
    response = console.post(
        reverse("console:table-action", args=[scene.table.pk, "buy_in"]),
        {"player_id": scene.patron.pk, "amount": amount, "currency": "on"},
    )
    assert response.status_code == 400
    assert response.context["forms"]["buy_in"].errors == {"amount": [message]}
    assert written() == before
    assert chips_of(scene.patron, scene.table) == chips
    (row,) = StaffAction.objects.all()
    assert (row.action, row.table_id, row.outcome, row.status_code) == (
        "buy in", scene.table.pk, Outcome.REFUSED, 400,
    )  # fmt: skip
    assert row.message == f'{{"amount": [{{"message": "{message}", "code": "{code}"}}]}}'


def test_a_console_fee_beyond_the_columns_is_400_and_not_written(console, scene):
    data = {"schedule_id": scene.schedule.pk, "player_dealer_basis": "per_betting_square"}
    data["charged_squares"] = ["ante", "blind", "trips", "bad_beat"]
    for index, rate in enumerate(rates_with(player_fee_cents=3_000_000_000)):
        for key, cents in rate.items():
            data[f"rate{index}_{key}"] = f"{cents / 100:.2f}"
    before = written()
    response = console.post(reverse("console:fees-create-version"), data)
    assert response.status_code == 400
    assert response.context["version_form"].errors == {"rate0_player_fee_cents": [DOLLARS_OVER]}
    assert written() == before


def test_a_console_fee_schedule_class_beyond_the_columns_is_400_and_not_written(console, scene):
    schedules_before = FeeSchedule.objects.count()
    response = console.post(
        reverse("console:fees-create-schedule"),
        {"name": "Big game", "class_minimum": "100.00", "class_maximum": "30000000"},
    )
    assert response.status_code == 400
    assert response.context["schedule_form"].errors == {"class_maximum": [DOLLARS_OVER]}
    assert FeeSchedule.objects.count() == schedules_before
