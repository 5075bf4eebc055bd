"""``Prefer: return=minimal`` on the round writes: the same status code and database effect
as the full answer, a body of the round's id and state built without reading the round back
(fewer statements), ``Preference-Applied``; replayed as minimal under an Idempotency-Key."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from cardroom.api import PREFERENCE_APPLIED, preferred_return
from cardroom.errors import State
from cardroom.models import IdempotencyKey
from rounds import services as rounds
from tables.models import HandDecision, Round
from tests.builders.api import Floor
from tests.builders.floor import PLAY_4X, PLAY_RIVER, decide_street, round_snapshot

pytestmark = pytest.mark.django_db

MINIMAL = {"HTTP_PREFER": "return=minimal"}
# Statements of "no more bets" answered minimal (no fee schedule at the table), PostgreSQL: the
# caller's role; the savepoint, the lock (which reads the round and its wagers in the same
# statement), the theo, the move, the release; the staff action's audit row and its read of
# the round's table and number. SQLite reads the round and each of its parts by the ORM.
# None reads the round back (round_detail: six more).
NO_MORE_BETS_MINIMAL_STATEMENTS = {"postgresql": 8, "sqlite": 15}


@dataclass(frozen=True)
class Write:
    """One round write: how to bring a round (or table) to it, and what it answers."""

    name: str
    path: Callable[[Floor], str]
    status: int
    state: str
    body: dict[str, Any] = field(default_factory=dict)
    supervisor: bool = False


def _round(floor: Floor, state: str, **table_options) -> Round:
    return floor.round_in(state, floor.ready_table(**table_options) if table_options else None)


def _decided(floor: Floor, state: str) -> Round:
    """A round in ``state`` whose hands have all decided the street (it may move on)."""
    round_ = _round(floor, state)
    decide_street(round_, {2: PLAY_4X, 3: PLAY_RIVER}, by=floor.dealer)
    return round_


def _start(floor: Floor) -> str:
    table = floor.ready_table()
    floor.bank(table, 1)
    return f"/api/tables/{table.pk}/rounds/"


def _without_bank(floor: Floor) -> str:
    table = floor.ready_table()
    floor.bank(table, 1)
    round_ = rounds.start_round(table_id=table.pk, by=floor.dealer)
    return f"/api/rounds/{round_.pk}/bank/"


def at(state: str, action: str, **table_options) -> Callable[[Floor], str]:
    return lambda floor: f"/api/rounds/{_round(floor, state, **table_options).pk}/{action}/"


def decided(state: str, action: str) -> Callable[[Floor], str]:
    return lambda floor: f"/api/rounds/{_decided(floor, state).pk}/{action}/"


def joined(action: str, join=(2,)) -> Callable[[Floor], str]:
    return lambda floor: f"/api/rounds/{floor.start(floor.ready_table(), join=join).pk}/{action}/"


WRITES = [
    Write("start", _start, 201, "wagering"),
    Write("bank", _without_bank, 201, "wagering", {"amount": 20_000}),
    Write("wager", joined("wagers"), 201, "wagering", {"seat": 3, "ante": 500, "blind": 500}),
    Write(
        "wagers batch",
        joined("wagers/batch", join=()),
        201,
        "wagering",
        {"bets": [{"seat": 2, "ante": 500, "blind": 500}, {"seat": 3, "ante": 500, "blind": 500}]},
    ),
    Write("no more bets", at("wagering", "no-more-bets"), 200, "no_more_bets"),
    Write("deal", at("no_more_bets", "deal", deal_mode="card_entry"), 200, "preflop"),
    Write(
        "decision",
        at("preflop", "decisions"),
        201,
        "preflop",
        {"seat": 2, "action": "play", "multiple": 4},
    ),
    Write(
        "street's decisions",
        at("flop", "decisions/street"),
        201,
        "flop",
        {"decisions": [{"seat": 3, "action": "play", "multiple": 2}]},
    ),
    Write("flop", decided("preflop", "flop"), 200, "flop"),
    Write("turn and river", decided("flop", "turn-river"), 200, "river"),
    Write("showdown", decided("river", "showdown"), 200, "showdown"),
    Write("settle", at("showdown", "settle"), 200, "settled"),
    Write("void", at("preflop", "void"), 200, "voided", {"reason": "misdeal"}, supervisor=True),
]


def _effect(round_id: int) -> dict[str, Any]:
    """What the write left in the database, without the ids that differ between two tables."""
    snapshot = round_snapshot(round_id)
    snapshot["hands"] = [(seat, *rest) for seat, _player, *rest in snapshot["hands"]]
    return snapshot


def _send(client, write: Write, path: str, **headers):
    client.get("/api/rounds/?limit=1")  # the caller's roles, read once per user, read before
    with CaptureQueriesContext(connection) as queries:
        response = client.post(path, write.body, format="json", **headers)
    return response, len(queries)


@pytest.mark.parametrize("write", WRITES, ids=[w.name for w in WRITES])
def test_minimal_answers_the_id_and_state_with_the_same_effect(
    write, on_floor, as_dealer, as_supervisor, clock
):
    client = as_supervisor if write.supervisor else as_dealer
    full, full_statements = _send(client, write, write.path(on_floor))
    minimal, minimal_statements = _send(client, write, write.path(on_floor), **MINIMAL)

    assert (full.status_code, minimal.status_code) == (write.status, write.status), full.data
    assert minimal.json() == {"id": minimal.json()["id"], "state": write.state}
    assert minimal[PREFERENCE_APPLIED] == "return=minimal"
    assert PREFERENCE_APPLIED not in full
    assert full.data["state"] == write.state
    assert full.data == client.get(f"/api/rounds/{full.data['id']}/").data  # the round in full
    assert _effect(minimal.json()["id"]) == _effect(full.data["id"])
    assert minimal_statements < full_statements


def test_no_more_bets_minimal_reads_nothing_back(on_floor, as_dealer):
    write = next(w for w in WRITES if w.name == "no more bets")
    _, full = _send(as_dealer, write, write.path(on_floor))
    response, minimal = _send(as_dealer, write, write.path(on_floor), **MINIMAL)
    assert response.status_code == 200
    assert minimal == NO_MORE_BETS_MINIMAL_STATEMENTS[connection.vendor]
    assert full - minimal == 6  # round_detail: the round and its prefetches, the money


def test_return_representation_or_an_unknown_preference_answers_in_full(on_floor, as_dealer):
    for prefer in ("return=representation", "respond-async", "return=everything"):
        round_ = on_floor.round_in("wagering")
        response = as_dealer.post(f"/api/rounds/{round_.pk}/no-more-bets/", HTTP_PREFER=prefer)
        assert response.status_code == 200
        assert "hands" in response.data and PREFERENCE_APPLIED not in response


@pytest.mark.parametrize(
    ("header", "preference"),
    [
        (None, None),
        ("return=minimal", "minimal"),
        ("Return = MINIMAL", "minimal"),
        ('return="minimal"', "minimal"),
        ("respond-async, wait=10, return=minimal; foo=bar", "minimal"),
        ("return=minimal, return=representation", "minimal"),  # the first counts (RFC 7240 §2)
        ("return=representation, return=minimal", "representation"),
        ("handling=lenient", None),
    ],
)
def test_the_prefer_header_is_parsed_as_rfc_7240_says(header, preference):
    extra = {} if header is None else {"HTTP_PREFER": header}
    assert preferred_return(RequestFactory().post("/", **extra)) == preference


# --- Idempotency-Key ----------------------------------------------------------------------


def _keyed(client, path, key="key-1", **headers):
    return client.post(path, {}, format="json", HTTP_IDEMPOTENCY_KEY=key, **headers)


def test_a_minimal_answer_replays_as_minimal(on_floor, as_dealer):
    round_ = on_floor.round_in("wagering")
    path = f"/api/rounds/{round_.pk}/no-more-bets/"
    first = _keyed(as_dealer, path, **MINIMAL)
    again = _keyed(as_dealer, path, **MINIMAL)
    without_prefer = _keyed(as_dealer, path)
    assert first.status_code == again.status_code == without_prefer.status_code == 200
    body = {"id": round_.pk, "state": "no_more_bets"}
    for answer in (first, again, without_prefer):  # the first answer, whatever the repeat asks
        assert answer.json() == body
        assert answer[PREFERENCE_APPLIED] == "return=minimal"
    assert "Idempotent-Replayed" not in first
    assert again["Idempotent-Replayed"] == without_prefer["Idempotent-Replayed"] == "true"
    assert round_.transitions.filter(to_state=State.NO_MORE_BETS).count() == 1
    assert IdempotencyKey.objects.get(key="key-1").response_body == body


def test_a_full_answer_replays_in_full(on_floor, as_dealer):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    body = {"seat": 2, "action": "play", "multiple": 4}
    first = as_dealer.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    again = as_dealer.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="k", **MINIMAL)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and "hands" in again.json()
    assert PREFERENCE_APPLIED not in again and again["Idempotent-Replayed"] == "true"
    other = as_dealer.post(
        path, {**body, "seat": 3}, format="json", HTTP_IDEMPOTENCY_KEY="k", **MINIMAL
    )
    assert other.status_code == 422 and other.data["code"] == State.KEY_REUSED
    assert HandDecision.objects.filter(hand__round=round_).count() == 1


def test_a_minimal_key_used_for_another_body_is_still_422(on_floor, as_dealer):
    round_ = on_floor.round_in("preflop")
    path = f"/api/rounds/{round_.pk}/decisions/"
    play = {"seat": 2, "action": "play", "multiple": 4}
    first = as_dealer.post(path, play, format="json", HTTP_IDEMPOTENCY_KEY="k", **MINIMAL)
    assert first.status_code == 201 and first.json() == {"id": round_.pk, "state": "preflop"}
    check = {"seat": 3, "action": "check"}
    for headers in (MINIMAL, {}):
        other = as_dealer.post(path, check, format="json", HTTP_IDEMPOTENCY_KEY="k", **headers)
        assert other.status_code == 422 and other.data["code"] == State.KEY_REUSED
    assert HandDecision.objects.filter(hand__round=round_).count() == 1


def test_a_refusal_under_prefer_is_the_usual_error(on_floor, as_dealer):
    round_ = on_floor.round_in("preflop")
    response = as_dealer.post(f"/api/rounds/{round_.pk}/no-more-bets/", **MINIMAL)
    assert response.status_code == 409 and response.data["code"] == State.PREFLOP
    assert PREFERENCE_APPLIED not in response


# --- The schema ---------------------------------------------------------------------------


def test_the_schema_documents_prefer_and_both_answers(as_dealer):
    schema = as_dealer.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    writes = [
        "/api/tables/{table_id}/rounds/",
        *(
            f"/api/rounds/{{round_id}}/{action}/"
            for action in (
                "bank", "wagers", "wagers/batch", "no-more-bets", "deal", "decisions",
                "decisions/street", "flop", "turn-river", "showdown", "settle", "void",
            )
        ),
    ]  # fmt: skip
    for path in writes:
        operation = schema["paths"][path]["post"]
        (prefer,) = [p for p in operation["parameters"] if p["name"] == "Prefer"]
        assert prefer["in"] == "header"
        assert prefer["schema"]["enum"] == ["return=minimal", "return=representation"]
        (code,) = [c for c in operation["responses"] if c.startswith("2")]
        answer = operation["responses"][code]
        assert answer["headers"][PREFERENCE_APPLIED]["schema"]["enum"] == ["return=minimal"]
        ref = answer["content"]["application/json"]["schema"]["$ref"]
        assert components[ref.rsplit("/", 1)[1]] == {
            "oneOf": [
                {"$ref": "#/components/schemas/RoundDetail"},
                {"$ref": "#/components/schemas/RoundMinimal"},
            ]
        }
    minimal = components["RoundMinimal"]
    assert minimal["additionalProperties"] is False
    assert sorted(minimal["required"]) == ["id", "state"]
