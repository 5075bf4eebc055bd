"""``Prefer: return=minimal`` on the button's writes (offer, answer, keep): the same status
code and rows as the full answer, the offer's id, offer round, seat and answer as the service
returned them (no read back: fewer statements), and ``Preference-Applied``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rounds import services as rounds
from tables.models import ButtonOffer, OfferRound, Table
from tables.services import button
from tests.builders.api import Floor

pytestmark = pytest.mark.django_db

MINIMAL = {"HTTP_PREFER": "return=minimal"}


def _offer(floor: Floor) -> tuple[str, dict]:
    return f"/api/tables/{floor.ready_table(first_offer_seat=3).pk}/button/offer/", {}


def _answer(accept: bool) -> Callable[[Floor], tuple[str, dict]]:
    def path(floor: Floor) -> tuple[str, dict]:
        table = floor.ready_table(first_offer_seat=2)
        offer = button.offer_button(table_id=table.pk, by=floor.dealer)
        return f"/api/tables/{table.pk}/button/offers/{offer.pk}/answer/", {"accept": accept}

    return path


def _keep(floor: Floor) -> tuple[str, dict]:
    table = floor.ready_table(offer_every_hand=False)
    round_ = floor.start(table, banker_seat=2, join=(3,))
    rounds.void_round(round_id=round_.pk, by=floor.supervisor, reason="misdeal")
    return f"/api/tables/{table.pk}/button/keep/", {}


WRITES = [
    ("offer", _offer, 201, 3, "pending"),
    ("accept", _answer(True), 200, 2, "accepted"),
    ("decline", _answer(False), 200, 2, "declined"),
    ("keep", _keep, 201, 2, "accepted"),
]


def _table_of(path: str) -> Table:
    return Table.objects.get(pk=int(path.split("/")[3]))


def _effect(table: Table) -> dict[str, Any]:
    """The table's offer rounds and offers, without ids and times that differ by table."""
    return {
        "offer_rounds": list(
            OfferRound.objects.filter(table=table)
            .order_by("id")
            .values_list("start_seat", "status", "kept_without_offers", "detail")
        ),
        "offers": list(
            ButtonOffer.objects.filter(offer_round__table=table)
            .order_by("id")
            .values_list("seat", "is_tppp", "answer", "reason")
        ),
    }


def _send(client, path: str, body: dict, **headers):
    client.get("/api/offer-rounds/?limit=1")  # the caller's roles, read once per user
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, body, format="json", **headers)
    return response, len(queries)


@pytest.mark.parametrize(
    ("name", "build", "status", "seat", "answer"), WRITES, ids=[w[0] for w in WRITES]
)
def test_minimal_answers_the_offer_with_the_same_effect(
    on_floor, as_dealer, clock, name, build, status, seat, answer
):
    full_path, body = build(on_floor)
    full, full_statements = _send(as_dealer, full_path, body)
    minimal_path, body = build(on_floor)
    minimal, minimal_statements = _send(as_dealer, minimal_path, body, **MINIMAL)

    assert (full.status_code, minimal.status_code) == (status, status), full.data
    offer = ButtonOffer.objects.get(pk=minimal.json()["id"])
    assert minimal.json() == {
        "id": offer.pk,
        "offer_round": offer.offer_round_id,
        "seat": seat,
        "answer": answer,
    }
    assert minimal["Preference-Applied"] == "return=minimal"
    assert "Preference-Applied" not in full
    assert (full.data["seat"], full.data["answer"]) == (seat, answer)
    assert {"player", "offered_at", "offered_by", "reason"} <= set(full.data)
    assert _effect(_table_of(minimal_path)) == _effect(_table_of(full_path))
    assert minimal_statements < full_statements


def test_a_minimal_offer_replays_as_minimal(on_floor, as_dealer):
    path, _ = _offer(on_floor)
    sent = [
        as_dealer.post(path, HTTP_IDEMPOTENCY_KEY="offer-1", **MINIMAL),
        as_dealer.post(path, HTTP_IDEMPOTENCY_KEY="offer-1"),
    ]
    assert [r.status_code for r in sent] == [201, 201]
    assert sent[0].json() == sent[1].json()
    assert set(sent[1].json()) == {"id", "offer_round", "seat", "answer"}
    assert [r["Preference-Applied"] for r in sent] == ["return=minimal"] * 2
    assert sent[1]["Idempotent-Replayed"] == "true"
    assert ButtonOffer.objects.filter(offer_round__table=_table_of(path)).count() == 1


def test_an_exhausted_offer_round_is_409_under_prefer_too(on_floor, as_dealer):
    table = on_floor.ready_table(seats=(1,))
    first = as_dealer.post(f"/api/tables/{table.pk}/button/offer/", **MINIMAL)
    assert first.status_code == 201
    answer = f"/api/tables/{table.pk}/button/offers/{first.json()['id']}/answer/"
    declined = as_dealer.post(answer, {"accept": False}, format="json", **MINIMAL)
    assert declined.json()["answer"] == "declined"
    response = as_dealer.post(f"/api/tables/{table.pk}/button/offer/", **MINIMAL)
    assert response.status_code == 409 and response.data["code"] == "no_player_dealer"
    assert "Preference-Applied" not in response


def test_the_schema_documents_prefer_on_the_button(as_dealer):
    schema = as_dealer.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    for path in (
        "/api/tables/{table_id}/button/offer/",
        "/api/tables/{table_id}/button/offers/{offer_id}/answer/",
        "/api/tables/{table_id}/button/keep/",
    ):
        operation = schema["paths"][path]["post"]
        assert any(p["name"] == "Prefer" for p in operation["parameters"])
        (code,) = [c for c in operation["responses"] if c.startswith("2")]
        ref = operation["responses"][code]["content"]["application/json"]["schema"]["$ref"]
        assert components[ref.rsplit("/", 1)[1]]["oneOf"] == [
            {"$ref": "#/components/schemas/ButtonOffer"},
            {"$ref": "#/components/schemas/ButtonOfferMinimal"},
        ]
    assert components["ButtonOfferMinimal"]["additionalProperties"] is False
