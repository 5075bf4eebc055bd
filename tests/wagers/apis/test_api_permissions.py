"""Who may move money: writes need a role that runs the table; reads, any floor role."""

from __future__ import annotations

import pytest
from django.apps import apps

from cardroom.models import IdempotencyKey
from rounds import services as rounds
from tests.builders.factories import PlayerFactory, TPPPRegistrationFactory, UserFactory

pytestmark = pytest.mark.django_db

WRITES = [
    ("/api/rounds/{open_round}/bank/", {"amount": 1000}),
    ("/api/rounds/{round}/wagers/", {"seat": 4, "ante": 500, "blind": 500}),
    ("/api/tables/{table}/chips/buy-in/", {"player": "{patron}", "amount": 1000, "currency": True}),
    (
        "/api/tables/{table}/chips/cash-out/",
        {"player": "{idle}", "amount": 1000, "currency": True},
    ),
    ("/api/tables/{table}/chips/fill/", {"player": "{tppp}", "amount": 1000}),
    ("/api/tables/{table}/chips/credit/", {"player": "{tppp_with_chips}", "amount": 1000}),
]
READS = [
    "/api/rounds/{settled}/settlement/",
    "/api/accounts/",
    "/api/accounts/{account}/",
    "/api/accounts/{account}/transactions/",
    "/api/players/{seated}/bankroll/",
    "/api/players/{seated}/banks/",
    "/api/players/{seated}/sessions/",
    "/api/players/{seated}/playing-book.csv",
]


@pytest.fixture
def world(on_floor):
    """A round in wagering (bank posted, seats 2 and 3 in), one with no bank, a settled one."""
    table = on_floor.ready_table(seats=(1, 2, 3, 4))
    round_ = on_floor.start(table)
    bare = on_floor.ready_table(seats=(1, 2))
    on_floor.bank(bare, 1)
    open_round = rounds.start_round(table_id=bare.pk, by=on_floor.dealer)
    settled = on_floor.round_in("settled")
    tppp_with_chips = TPPPRegistrationFactory().player
    on_floor.bring_chips(table, tppp_with_chips, 5000)
    seated = round_.hands.get(seat=2).player
    return {
        "table": table.pk,
        "round": round_.pk,
        "open_round": open_round.pk,
        "settled": settled.pk,
        "patron": PlayerFactory().pk,
        "seated": seated.pk,
        # Seated with chips but not in the hand: chips in play cannot be cashed out.
        "idle": table.seatings.get(seat=4, left_at__isnull=True).player_id,
        "tppp": TPPPRegistrationFactory().player.pk,
        "tppp_with_chips": tppp_with_chips.pk,
        "account": seated.accounts.get().pk,
    }


def _fill(text, world):
    return text.format(**world)


def call(client, path, body, world):
    body = {k: int(_fill(v, world)) if isinstance(v, str) else v for k, v in body.items()}
    return client.post(_fill(path, world), body, format="json")


def row_counts():
    models = [
        *apps.get_app_config("tables").get_models(),
        *apps.get_app_config("wagers").get_models(),
        IdempotencyKey,
    ]
    return {model.__name__: model.objects.count() for model in models}


def write_id(write):
    return write[0]


@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_compliance_officer_cannot_move_money(as_compliance, world, write):
    path, body = write
    before = row_counts()
    response = call(as_compliance, path, body, world)
    assert response.status_code == 403
    assert response.data["code"] == "permission_denied"
    assert response.data["message"] == "your role may not do this"
    assert row_counts() == before


@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_anonymous_and_roleless_cannot_move_money(api, world, write):
    path, body = write
    before = row_counts()
    anonymous = call(api(), path, body, world)
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == "Token"
    assert anonymous.data["code"] == "not_authenticated"
    assert call(api(UserFactory()), path, body, world).status_code == 403
    assert row_counts() == before


@pytest.mark.parametrize("client", ["as_dealer", "as_supervisor"])
@pytest.mark.parametrize("write", WRITES, ids=write_id)
def test_house_dealer_and_supervisor_move_money(request, world, client, write):
    path, body = write
    before = row_counts()
    response = call(request.getfixturevalue(client), path, body, world)
    assert response.status_code == 201, response.data
    assert row_counts()["LedgerTransaction"] == before["LedgerTransaction"] + 1


@pytest.mark.parametrize("path", READS)
def test_every_floor_role_reads_money(api, world, as_compliance, as_dealer, as_supervisor, path):
    url = _fill(path, world)
    for client in (as_compliance, as_dealer, as_supervisor):
        assert client.get(url).status_code == 200, url
    anonymous = api().get(url)
    assert anonymous.status_code == 401
    assert anonymous.data["code"] == "not_authenticated"
    assert api(UserFactory()).get(url).status_code == 403
