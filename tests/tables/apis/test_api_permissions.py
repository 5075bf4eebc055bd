"""Who may do what: reads need a floor role, writes the role named (docs/rules.md §3.3)."""

from __future__ import annotations

import pytest
from django.apps import apps
from knox.models import AuthToken
from rest_framework.test import APIClient

from cardroom.models import IdempotencyKey
from cardroom.roles import Role
from tests.builders.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

SUPERVISE, RUN_TABLE = "supervise", "run_table"

# (method, path, the role it needs, body, and what a caller with that role gets: the status
# and, for a refusal, its code: the world below is a round in wagering, an idle table, and
# one with an offer pending)
WRITES = [
    ("post", "/api/players/", SUPERVISE, {"player_number": "X1", "name": "X"}, 201, None),
    (
        "patch",
        "/api/players/{player}/",
        SUPERVISE,
        {"id_type": "passport", "id_number": "X1234567"},
        200,
        None,
    ),
    ("post", "/api/tables/", SUPERVISE, {"name": "New table"}, 201, None),
    ("patch", "/api/tables/{table}/", SUPERVISE, {"minimum_cents": 1000}, 409, "wagering"),
    ("post", "/api/tables/{table}/seats/", RUN_TABLE, {"seat": 6, "player": "{player}"}, 201, None),
    ("post", "/api/tables/{table}/seats/4/leave/", RUN_TABLE, {"chips": "cash_out"}, 200, None),
    ("post", "/api/tables/{idle}/game/open/", SUPERVISE, {"first_offer_seat": 1}, 201, None),
    ("post", "/api/tables/{idle_open}/game/close/", SUPERVISE, {}, 200, None),
    ("post", "/api/tables/{idle_open}/button/offer/", RUN_TABLE, None, 409, "offer_pending"),
    (
        "post",
        "/api/tables/{idle_open}/button/offers/{offer}/answer/",
        RUN_TABLE,
        {"accept": True},
        200,
        None,
    ),
    ("post", "/api/tables/{table}/button/keep/", RUN_TABLE, None, 409, "wagering"),
    ("post", "/api/tables/{table}/rounds/", RUN_TABLE, None, 409, "wagering"),
    (
        "post",
        "/api/rounds/{round}/wagers/",
        RUN_TABLE,
        {"seat": 4, "ante": 500, "blind": 500},
        201,
        None,
    ),
    ("post", "/api/rounds/{round}/no-more-bets/", RUN_TABLE, None, 200, None),
    ("post", "/api/rounds/{round}/deal/", RUN_TABLE, {}, 409, "wagering"),
    (
        "post",
        "/api/rounds/{round}/decisions/",
        RUN_TABLE,
        {"seat": 2, "action": "check"},
        409,
        "wagering",
    ),
    ("post", "/api/rounds/{round}/flop/", RUN_TABLE, {}, 409, "wagering"),
    ("post", "/api/rounds/{round}/turn-river/", RUN_TABLE, {}, 409, "wagering"),
    ("post", "/api/rounds/{round}/showdown/", RUN_TABLE, None, 409, "wagering"),
    ("post", "/api/rounds/{round}/settle/", RUN_TABLE, None, 409, "wagering"),
    ("post", "/api/rounds/{round}/void/", SUPERVISE, {"reason": "misdeal"}, 200, None),
]
READS = [
    "/api/players/",
    "/api/players/{player}/",
    "/api/tables/",
    "/api/tables/{table}/",
    "/api/tables/{table}/option-changes/",
    "/api/seatings/",
    "/api/games/",
    "/api/offer-rounds/",
    "/api/rounds/",
    "/api/rounds/{round}/",
]


@pytest.fixture
def world(on_floor, dealer):
    """A table with a round in wagering, an idle table, and one with an offer pending."""
    from tables.services import button

    table = on_floor.ready_table()
    round_ = on_floor.start(table)
    idle_open = on_floor.ready_table(seats=(1, 2))
    offer = button.offer_button(table_id=idle_open.pk, by=dealer)
    return {
        "table": table.pk,
        "round": round_.pk,
        "idle": on_floor.table().pk,
        "idle_open": idle_open.pk,
        "offer": offer.pk,
        "player": PlayerFactory().pk,
    }


def _fill(text, world):
    return text.format(**world)


def call(client, method, path, body, world):
    if isinstance(body, dict):
        body = {k: _fill(v, world) if isinstance(v, str) else v for k, v in body.items()}
        if body.get("player"):
            body["player"] = int(body["player"])
    return getattr(client, method)(_fill(path, world), body, format="json")


def row_counts():
    models = [
        *apps.get_app_config("tables").get_models(),
        *apps.get_app_config("wagers").get_models(),
        IdempotencyKey,
    ]
    return {model.__name__: model.objects.count() for model in models}


def write_id(write):
    return f"{write[0]} {write[1]}"


def assert_allowed(response, status, code):
    """Allowed: the answer is about the floor (the write's success, or a 409 for this state),
    exactly what the write gets, not about the role."""
    assert response.status_code == status, response.data
    if code is not None:
        assert response.data["code"] == code


@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_compliance_officer_cannot_write(as_compliance, world, write):
    method, path, _, body, _, _ = write
    before = row_counts()
    response = call(as_compliance, method, path, body, world)
    assert response.status_code == 403
    assert response.data["code"] == "permission_denied"
    assert response.data["message"] == "your role may not do this"
    assert row_counts() == before


@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_house_dealer_runs_the_table_but_does_not_supervise(as_dealer, world, write):
    method, path, role, body, status, code = write
    before = row_counts()
    response = call(as_dealer, method, path, body, world)
    if role == SUPERVISE:
        assert response.status_code == 403
        assert response.data["code"] == "permission_denied"
        assert row_counts() == before
    else:
        assert_allowed(response, status, code)


@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_floor_supervisor_may_do_everything(as_supervisor, world, write):
    method, path, _, body, status, code = write
    response = call(as_supervisor, method, path, body, world)
    assert_allowed(response, status, code)


@pytest.mark.parametrize("write", [w for w in WRITES if w[2] == SUPERVISE], ids=write_id)
def test_administrator_holds_every_role(api, administrator, world, write):
    method, path, _, body, status, code = write
    response = call(api(administrator), method, path, body, world)
    assert_allowed(response, status, code)


@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_anonymous_cannot_write(api, world, write):
    method, path, _, body, _, _ = write
    before = row_counts()
    response = call(api(), method, path, body, world)
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    assert response.data["code"] == "not_authenticated"
    assert response.data["message"] == "Authentication credentials were not provided."
    assert row_counts() == before


@pytest.mark.parametrize("path", READS)
def test_reads(api, world, as_compliance, as_dealer, as_supervisor, path):
    url = _fill(path, world)
    for client in (as_compliance, as_dealer, as_supervisor):
        assert client.get(url).status_code == 200
    anonymous = api().get(url)
    assert anonymous.status_code == 401
    assert anonymous.data["code"] == "not_authenticated"
    no_role = UserFactory()
    assert api(no_role).get(url).status_code == 403


def test_token_authentication(db):
    user = UserFactory(username="tokenuser", password="s3cret-pass", role=Role.HOUSE_DEALER)
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": "tokenuser", "password": "s3cret-pass"}, format="json"
    )
    assert response.status_code == 200
    # django-rest-knox stores the token's hash and its first characters, never the token.
    (stored,) = AuthToken.objects.filter(user=user)
    assert stored.token_key == response.data["token"][: len(stored.token_key)]
    bad = client.post("/api/auth/token/", {"username": "tokenuser", "password": "x"})
    assert bad.status_code == 400
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.data['token']}")
    assert client.get("/api/tables/").status_code == 200
    assert client.post("/api/tables/", {"name": "nope"}, format="json").status_code == 403
