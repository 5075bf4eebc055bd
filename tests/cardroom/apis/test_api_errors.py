"""Every API error answers one body: code, rule, section, field, message (docs/architecture.md).

A broken rule 400 ``rule_broken``; input that does not parse 400 ``invalid`` with every
field's messages; the wrong state 409 with the state as the code; a role that may not act
403; not signed in 401; no such row 404; a reused Idempotency-Key 422. The codes are
published in the OpenAPI schema.
"""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError

from cardroom.api import exception_handler
from cardroom.errors import ROUND_STATES, Rule, State
from cardroom.roles import Role
from tables.models import Game
from tables.services import floor
from tests.builders.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db
KEYS = {"code", "rule", "section", "field", "message"}


@pytest.fixture
def table(supervisor):
    return floor.create_table(name="ERR-1", by=supervisor)


def test_a_broken_rule_is_400_naming_the_rule_its_section_and_the_field(api, supervisor, table):
    player = PlayerFactory()
    response = api(supervisor).post(
        f"/api/tables/{table.pk}/seats/", {"seat": 7, "player": player.pk}, format="json"
    )
    assert response.status_code == 400
    assert response.data == {
        "code": "rule_broken",
        "rule": "seats.numbered",
        "section": "3.1",
        "field": "seat",
        "message": "seat 7 does not exist: the table has seats 1 to 6",
    }


def test_input_that_does_not_parse_is_400_invalid_with_every_fields_messages(
    api, supervisor, table
):
    response = api(supervisor).post(
        f"/api/tables/{table.pk}/seats/", {"seat": "seven"}, format="json"
    )
    assert response.status_code == 400
    body = response.data
    assert set(body) == KEYS | {"errors"}
    assert (body["code"], body["rule"], body["section"]) == ("invalid", None, None)
    assert body["field"] in {"seat", "player"}
    assert set(body["errors"]) == {"seat", "player"}
    assert body["message"] == str(body["errors"][body["field"]][0])


def test_a_nested_input_error_names_its_path(api, supervisor):
    response = api(supervisor).get("/api/rounds/", {"state": "nonsense"})
    assert response.status_code == 400
    assert (response.data["code"], response.data["field"]) == ("invalid", "state")


def test_the_wrong_state_is_409_with_the_state_as_the_code(api, supervisor, table):
    client = api(supervisor)
    assert (
        client.post(f"/api/tables/{table.pk}/game/open/", {"first_offer_seat": 1}).status_code
        == 201
    )
    again = client.post(f"/api/tables/{table.pk}/game/open/", {"first_offer_seat": 1})
    assert again.status_code == 409
    assert again.data == {
        "code": "game_open",
        "rule": "floor.game",
        "section": "3.5",
        "field": None,
        "message": f"a game is already open at {table}",
    }
    assert Game.objects.filter(table=table).count() == 1


def test_no_game_open_is_409_no_game(api, supervisor, table):
    response = api(supervisor).post(f"/api/tables/{table.pk}/button/offer/")
    assert response.status_code == 409
    assert (response.data["code"], response.data["rule"]) == ("no_game", "floor.game")


def test_roles_authentication_and_missing_rows_answer_the_same_body(api, supervisor, table):
    anonymous = api().get("/api/tables/")
    # No credentials: 401 with the token scheme's challenge (the token authenticator is first).
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    assert anonymous.data["code"] == "not_authenticated" and set(anonymous.data) == KEYS
    compliance = UserFactory(role=Role.COMPLIANCE_OFFICER)
    refused = api(compliance).post(f"/api/tables/{table.pk}/game/open/", {})
    assert refused.status_code == 403
    assert refused.data == {
        "code": "permission_denied",
        "rule": None,
        "section": None,
        "field": None,
        "message": "your role may not do this",
    }
    missing = api(compliance).get("/api/tables/999999/")
    assert missing.status_code == 404 and missing.data["code"] == "not_found"
    wrong_method = api(supervisor).delete("/api/tables/")
    assert wrong_method.status_code == 405 and wrong_method.data["code"] == "method_not_allowed"


def test_a_reused_idempotency_key_is_422_key_reused(api, supervisor, table):
    client = api(supervisor)
    path = f"/api/tables/{table.pk}/game/open/"
    first = client.post(path, {"first_offer_seat": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201
    other = client.post(path, {"first_offer_seat": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert other.status_code == 422
    assert other.data["code"] == "key_reused" and set(other.data) == KEYS


def test_the_schema_publishes_the_codes(api, supervisor):
    schema = api(supervisor).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    states = set(components["StateErrorCodeEnum"]["enum"])
    assert {state.value for state in State} <= states
    assert {state.value for state in ROUND_STATES} <= states
    rules = set(components["RuleEnum"]["enum"])
    assert {rule.value for rule in Rule} == rules - {None}
    assert set(components["RuleErrorCodeEnum"]["enum"]) == {"rule_broken", "invalid", "parse_error"}


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("server closed the connection unexpectedly"),
        InterfaceError("connection already closed"),
    ],
)
def test_a_database_that_does_not_answer_is_503_saying_nothing_changed(error):
    """A restarted or unreachable database (the fault the by-hand script bench/fault_pg_restart.py
    injects for real) answers 503 with the one error body and a Retry-After, never a bare 500."""
    response = exception_handler(error, {})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.data == {
        "code": "unavailable",
        "rule": None,
        "section": None,
        "field": None,
        "message": "the database did not answer; nothing was changed: try again in a few seconds",
    }
