"""The OpenAPI schema of the floor API, the admin of the tables app, and list query counts."""

from __future__ import annotations

import random

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.management import call_command
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rounds import services as rounds
from tables.models import (
    Hand,
    Player,
    PlayerIdentificationChange,
    Round,
    TPPPRegistration,
    TPPPRegistrationChange,
)
from tables.services import button, exclusions, floor, patrons, seat_requests, waitlists
from tests.builders.factories import PlayerFactory, TPPPRegistrationFactory, UserFactory
from tests.builders.floor import give_button, open_floor, start_round
from wagers.services import wagering

pytestmark = pytest.mark.django_db

TABLE_MODELS = list(apps.get_app_config("tables").get_models())
EDITABLE = {Player, TPPPRegistration}
HISTORY = [m for m in TABLE_MODELS if m not in EDITABLE]


def test_schema_is_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    body = response.content.decode()
    for path in ("/api/rounds/{round_id}/decisions/", "/api/tables/{table_id}/button/offer/"):
        assert path in body


def test_schema_generates_without_warnings(tmp_path):
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml")
    )
    assert "HandDecisionInput" in (tmp_path / "schema.yml").read_text()


# --- Admin --------------------------------------------------------------------------------


@pytest.fixture
def superuser_client(client, db):
    user = UserFactory(is_superuser=True)
    client.force_login(user)
    return client


@pytest.fixture
def some_history(on_floor, supervisor):
    table = on_floor.ready_table()  # an RNG table: the hole cards and the deck are stored
    registered = TPPPRegistrationFactory()
    floor.update_tppp_registration(
        player_id=registered.player_id, by=supervisor, changes={"badge_number": "B-RENEWED"}
    )
    round_ = on_floor.round_in("no_more_bets", table)
    rounds.deal(round_id=round_.pk, by=supervisor, rng=random.Random(7))
    rounds.decide(round_id=round_.pk, seat=2, action="play", multiple=3, by=supervisor)
    floor.change_table_options(
        table_id=on_floor.table().pk, changes={"minimum_cents": 1000}, by=supervisor
    )
    # A waitlist with a call, and a seat hold.
    waitlist_table = floor.create_table(
        name="Admin list", by=supervisor, options={"minimum_cents": 2500}
    )
    row = waitlists.open_waitlist(minimum_cents=2500, maximum_cents=50_000, by=supervisor)
    waitlists.join(waitlist_id=row.pk, player_id=PlayerFactory().pk, by=supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=waitlist_table.pk, seat=1, by=supervisor)
    seated = PlayerFactory()
    floor.seat_player(table_id=waitlist_table.pk, seat=2, player_id=seated.pk, by=supervisor)
    waitlists.hold_seat(table_id=waitlist_table.pk, seat=2, by=supervisor)
    floor.update_player_identification(
        player_id=seated.pk, by=supervisor, changes={"id_type": "passport", "id_number": "X123456"}
    )
    # A barred patron (docs/rules.md §3.9).
    exclusions.exclude(
        player_id=PlayerFactory().pk, kind="barred", reason="a fight at Main 2", by=supervisor
    )

    patrons.issue_sign_in(
        player_id=seated.pk, username="own.sign.in", password="felt-and-chips-42", by=supervisor
    )

    # A must-move table feeding the list's table, a table change, and a pass.
    must = floor.create_table(name="Admin must", by=supervisor, options={"minimum_cents": 2500})
    mover = PlayerFactory()
    floor.seat_player(table_id=must.pk, seat=1, player_id=mover.pk, by=supervisor)
    seat_requests.start_must_move(table_id=must.pk, main_table_id=waitlist_table.pk, by=supervisor)
    seat_requests.ask_table_change(player_id=mover.pk, by=supervisor)
    seat_requests.pass_seat(table_id=waitlist_table.pk, seat=3, player_id=mover.pk, by=supervisor)

    # An EZ Baccarat hand dealt from its table's shoe.
    baccarat = open_floor("PPPPPP", staff=on_floor.staff, game="ez_baccarat").table
    give_button(baccarat.pk, 1, by=supervisor)
    coup = start_round(baccarat.pk, by=supervisor)
    wagering.place_bet(round_id=coup.pk, seat=2, banker=1_000, by=supervisor)
    rounds.close_wagering(round_id=coup.pk, by=supervisor)
    rounds.showdown(round_id=coup.pk, by=supervisor, rng=random.Random(7))
    return round_


def admin_url(model, action="changelist", *args):
    return reverse(f"admin:tables_{model._meta.model_name}_{action}", args=args)


@pytest.mark.parametrize("model", TABLE_MODELS, ids=lambda m: m.__name__)
def test_every_model_has_a_changelist(superuser_client, some_history, model):
    assert model in admin.site._registry
    assert model.objects.exists()
    response = superuser_client.get(admin_url(model))
    assert response.status_code == 200
    assert superuser_client.get(admin_url(model), {"q": "a"}).status_code == 200
    change = superuser_client.get(admin_url(model, "change", model.objects.first().pk))
    assert change.status_code == 200


@pytest.mark.parametrize("model", HISTORY, ids=lambda m: m.__name__)
def test_history_is_read_only(superuser_client, model):
    model_admin = admin.site._registry[model]
    request = RequestFactory().get("/")
    request.user = UserFactory(is_superuser=True)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    for inline in model_admin.get_inline_instances(request):
        assert not inline.has_add_permission(request, None)
        assert not inline.has_change_permission(request)
        assert not inline.has_delete_permission(request)
    assert superuser_client.get(admin_url(model, "add")).status_code == 403


def test_players_are_edited_in_the_admin(superuser_client):
    assert superuser_client.get(admin_url(Player, "add")).status_code == 200
    response = superuser_client.post(
        admin_url(Player, "add"),
        {
            "player_number": "ADM-1",
            "name": "Admin Made",
            "tppp-TOTAL_FORMS": "1",
            "tppp-INITIAL_FORMS": "0",
            "tppp-MIN_NUM_FORMS": "0",
            "tppp-MAX_NUM_FORMS": "1",
            "tppp-0-business_name": "Bank Co",
            "tppp-0-badge_number": "B-1",
            "tppp-0-badge_expires_on": "2030-01-01",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    player = Player.objects.get(player_number="ADM-1")
    assert player.created_at is not None
    assert player.tppp.business_name == "Bank Co"


def test_the_admin_shows_the_id_number_masked_and_never_edits_it(superuser_client):
    """Identification is recorded through the services (checked, on the audit trail); the
    admin shows it, the number masked (docs/rules.md §3.3)."""
    player = floor.create_player(
        player_number="ID-1", name="Maria Garcia", id_type="passport", id_number="X12345678"
    )
    for url in (admin_url(Player), admin_url(Player, "change", player.pk)):
        body = superuser_client.get(url).content.decode()
        assert "•••••5678" in body
        assert "X12345678" not in body
    response = superuser_client.post(
        admin_url(Player, "change", player.pk),
        {
            "player_number": "ID-1",
            "name": "Maria Garcia",
            "id_number": "",
            "id_type": "",
            "tppp-TOTAL_FORMS": "0",
            "tppp-INITIAL_FORMS": "0",
            "tppp-MIN_NUM_FORMS": "0",
            "tppp-MAX_NUM_FORMS": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert (player.id_type, player.id_number) == ("passport", "X12345678")


def test_player_changelist_filters_tppp_players(superuser_client):
    tppp = TPPPRegistrationFactory(player__name="Tee Banker").player
    response = superuser_client.get(admin_url(Player), {"tppp__isempty": "0"})
    assert response.status_code == 200
    assert list(response.context["cl"].queryset) == [tppp]


def assert_no_card_shown(body: str, cards) -> None:
    for card in cards:
        assert f"&quot;{card}&quot;" not in body and f">{card}<" not in body, card
    assert ", ".join(cards) not in body


def test_round_admin_withholds_every_hole_card(superuser_client, some_history):
    body = superuser_client.get(admin_url(Round, "change", some_history.pk)).content.decode()
    # The player-dealer's cards, the deck and both seats' cards (docs/rules.md §2.6).
    assert body.count("(withheld)") == 4
    some_history.refresh_from_db()
    assert_no_card_shown(body, some_history.dealer_hole)
    for hand in some_history.hands.all():
        assert_no_card_shown(body, hand.hole)


def test_hand_admin_withholds_the_hole_cards_until_the_showdown(superuser_client, some_history):
    hand = some_history.hands.get(seat=2)
    for url in (admin_url(Hand), admin_url(Hand, "change", hand.pk)):
        body = superuser_client.get(url).content.decode()
        assert "(withheld)" in body
        assert_no_card_shown(body, hand.hole)


# --- Lists cost a constant number of queries -----------------------------------------------


LISTS = [
    "/api/players/",
    "/api/tables/",
    "/api/seatings/",
    "/api/games/",
    "/api/offer-rounds/",
    "/api/rounds/",
]


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def grow(on_floor, supervisor):
    table = on_floor.ready_table()
    on_floor.seat(table, 5, TPPPRegistrationFactory().player)
    round_ = on_floor.round_in("settled", table)
    button.offer_button(table_id=round_.table_id, by=supervisor)
    return table


@pytest.mark.parametrize("url", LISTS)
def test_lists_use_a_constant_number_of_queries(as_compliance, on_floor, supervisor, url):
    table = grow(on_floor, supervisor)
    few = queries(as_compliance, url)
    for _ in range(3):
        grow(on_floor, supervisor)
    assert queries(as_compliance, url) == few
    changes = f"/api/tables/{table.pk}/option-changes/"
    assert queries(as_compliance, changes) <= 5


def test_round_detail_uses_a_constant_number_of_queries(as_compliance, on_floor):
    small = on_floor.round_in("settled", on_floor.ready_table(seats=(1, 2, 3)))
    big = on_floor.round_in(
        "settled", on_floor.ready_table(seats=(1, 2, 3, 4, 5, 6)), join=(2, 3, 4, 5, 6)
    )
    assert big.hands.count() == 5
    assert queries(as_compliance, f"/api/rounds/{small.pk}/") == queries(
        as_compliance, f"/api/rounds/{big.pk}/"
    )


def test_identification_corrections_show_numbers_masked(superuser_client, some_history):
    change = PlayerIdentificationChange.objects.get()
    for url in (
        admin_url(PlayerIdentificationChange),
        admin_url(PlayerIdentificationChange, "change", change.pk),
    ):
        body = superuser_client.get(url).content.decode()
        assert "•••3456" in body and "X123456" not in body


def test_a_recorded_tppp_registration_is_changed_only_through_the_service(
    superuser_client, supervisor
):
    """The admin shows a recorded registration but does not change it: a renewal or a
    correction goes through ``update_tppp_registration``, which keeps what it replaced."""
    assert superuser_client.get(admin_url(TPPPRegistration, "add")).status_code == 200
    registration = TPPPRegistrationFactory(badge_number="B-1", business_name="Bank Co")
    page = superuser_client.get(admin_url(TPPPRegistration, "change", registration.pk))
    assert "Renewed or corrected on the player's page" in page.content.decode()
    response = superuser_client.post(
        admin_url(TPPPRegistration, "change", registration.pk),
        {"business_name": "Edited", "badge_number": "B-2", "badge_expires_on": "2099-01-01"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    registration.refresh_from_db()
    assert (registration.business_name, registration.badge_number) == ("Bank Co", "B-1")
    floor.update_tppp_registration(
        player_id=registration.player_id, by=supervisor, changes={"badge_number": "B-2"}
    )
    change = TPPPRegistrationChange.objects.get()
    for url in (
        admin_url(TPPPRegistrationChange),
        admin_url(TPPPRegistrationChange, "change", change.pk),
    ):
        body = superuser_client.get(url).content.decode()
        assert "badge number: B-1" in body and "badge number: B-2" in body
