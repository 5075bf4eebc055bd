"""The settlement calculator over the API (docs/rules.md §11): the same JSON as the command,
nothing stored, a broken rule answered 400 naming the rule and the field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tables.models import Round
from tests.builders.rules import appendix_request
from wagers.models import LedgerTransaction

pytestmark = pytest.mark.django_db
BASE_DIR = Path(__file__).resolve().parents[3]
PATH = "/api/calculator/"  # the documented address
ALIAS = "/api/calculator/settle/"  # its first address, kept working


def test_it_answers_what_the_command_prints(as_dealer):
    request = appendix_request()
    response = as_dealer.post(PATH, request, format="json")
    assert response.status_code == 200
    command = subprocess.run(
        [sys.executable, "manage.py", "settle_hand", "-"],
        input=json.dumps(request),
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert response.json() == json.loads(command.stdout)
    assert not Round.objects.exists() and not LedgerTransaction.objects.exists()


def test_every_floor_role_may_use_it(as_supervisor, as_compliance):
    for client in (as_supervisor, as_compliance):
        assert client.post(PATH, appendix_request(), format="json").status_code == 200


def test_a_broken_rule_names_the_rule_and_the_json_field(as_dealer):
    request = appendix_request()
    request["seats"][0]["hole"][1] = "Xx"
    response = as_dealer.post(PATH, request, format="json")
    assert response.status_code == 400
    assert response.data == {
        "code": "rule_broken",
        "rule": "cards.card",
        "section": "1.1",
        "field": "seats[0].hole[1]",
        "message": "'Xx' is not a card: write rank (23456789TJQKA) then suit (cdhs), e.g. 'As'",
    }


def test_a_body_that_is_not_a_hand_is_refused(as_dealer, api):
    assert as_dealer.post(PATH, [1, 2], format="json").data["rule"] == "calculator.format"
    text = as_dealer.post(PATH, "{", content_type="application/json")
    assert (text.status_code, text.data["code"]) == (400, "parse_error")
    anonymous = api().post(PATH, appendix_request(), format="json")
    assert (anonymous.status_code, anonymous.data["code"]) == (401, "not_authenticated")


def test_the_first_address_is_kept_as_an_alias(as_dealer):
    """``/api/calculator/settle/`` answers as ``/api/calculator/`` does, the refusals too."""
    request = appendix_request()
    assert as_dealer.post(ALIAS, request, format="json").json() == (
        as_dealer.post(PATH, request, format="json").json()
    )
    request["options"] = {"trips_paytable": "UTH-99"}
    refused = [as_dealer.post(url, request, format="json") for url in (PATH, ALIAS)]
    assert [r.status_code for r in refused] == [400, 400]
    assert refused[0].data == refused[1].data
    assert (refused[0].data["rule"], refused[0].data["field"]) == (
        "paytables.table",
        "options.trips_paytable",
    )


def test_the_schema_documents_the_calculator_at_one_address(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert schema["paths"][PATH]["post"]["operationId"] == "settlement_calculator"
    assert ALIAS not in schema["paths"]
