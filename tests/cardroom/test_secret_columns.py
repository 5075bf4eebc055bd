"""Secret columns, attacked as an attacker would (docs/rules.md §2.6, ``cardroom.secret_columns``).

A live round at the flop (RNG: the player-dealer's and the seats' hole cards and the deck with
the turn and river are stored) is searched for its hidden cards through every interface that
takes a field path from a request, as every role (anonymous, each staff role, a superuser, a
non-staff account in a role group), each guess once right and once wrong:

- the admin: every registered ModelAdmin, a lookup reaching each secret column from its model
  (through relations: ``round__dealer_hole``, ``hands__hole``), every kind of lookup on the
  secret models, with the facets and the date drill-down, and sorting (``?o=``);
- the API: every route, the same lookups and sorting parameters.

The answer is the same refusal whether the guess is right or wrong: 400 from the admin
(Django's ``DisallowedModelAdminLookup``) or the API (``rule_broken``, ``cards.secret``), or the
role's own refusal before any row is read. No count, no page, no order depends on a card.
"""

from __future__ import annotations

import gc
import re
from collections import deque
from urllib.parse import urlencode

import django_filters
import pytest
from django.contrib import admin
from django.contrib.admin.sites import all_sites
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from cardroom.admin_site import CardroomAdminSite, SecretColumnsGuard
from cardroom.filtering import filter_queryset
from cardroom.roles import Role
from cardroom.secret_columns import (
    REFUSED,
    check_filtersets,
    secret_columns,
    secret_in_path,
    secret_parameter,
)
from tables.models import Hand, Player, Round, Shoe, Table
from tests.builders.factories import UserFactory
from wagers.models import Bet

pytestmark = pytest.mark.django_db

DEALER_HOLE = Round._meta.get_field("dealer_hole")
DECK = Round._meta.get_field("shuffled_deck")
HOLE = Hand._meta.get_field("hole")
MISS = "Zz"  # no card: a guess that is always wrong

# Every kind of lookup an attacker might try on a column of cards (JSON lists).
LOOKUPS = [
    "", "__exact", "__iexact", "__contains", "__icontains", "__startswith", "__istartswith",
    "__endswith", "__regex", "__iregex", "__gt", "__lt", "__gte", "__lte", "__in", "__isnull",
    "__len", "__0", "__1__iexact", "__has_key", "__has_any_keys", "__contained_by",
]  # fmt: skip


# --- The declaration ---------------------------------------------------------------------------


def test_the_secret_columns_are_the_hole_cards_and_the_deck():
    shoe = {Shoe._meta.get_field("shoe_order"), Shoe._meta.get_field("burned_cards")}
    assert secret_columns() == {DEALER_HOLE, DECK, HOLE, *shoe}  # and a shoe's undealt cards
    # The board holds only the cards turned up: it is shown to everyone, so it is not secret.
    assert Round._meta.get_field("board") not in secret_columns()


@pytest.mark.parametrize(
    ("model", "path", "reached"),
    [
        (Round, "dealer_hole__icontains", DEALER_HOLE),
        (Round, "-shuffled_deck", DECK),
        (Round, "hands__hole__0", HOLE),
        (Round, "table__rounds__hands__hole", HOLE),
        (Hand, "hole", HOLE),
        (Hand, "round__dealer_hole__startswith", DEALER_HOLE),
        (Hand, "^round__shuffled_deck", DECK),
        (Player, "hands__hole__contains", HOLE),
        (Player, "banked_rounds__dealer_hole", DEALER_HOLE),
        (Table, "rounds__shuffled_deck__regex", DECK),
        (Bet, "hand__round__dealer_hole__isnull", DEALER_HOLE),
        (Round, "board__icontains", None),
        (Round, "options__dealer_hole", None),  # a key of the options' JSON: not the column
        (Round, "table__name", None),
        (Hand, "round__pk", None),
        (Round, "no_such_field", None),
    ],
)
def test_a_path_reaches_a_secret_column_through_any_relation(model, path, reached):
    assert secret_in_path(model, path) == reached


@pytest.mark.parametrize(
    ("name", "values", "secret"),
    [
        ("dealer_hole__icontains", ["Ks"], True),
        ("round__hands__hole", ["7c"], True),
        ("shuffled_deck", [""], True),
        ("ordering", ["-started_at,hole"], True),
        ("o", ["dealer_hole"], True),
        ("ordering", ["-started_at"], False),
        ("q", ["dealer_hole"], False),  # a search term, not a field path
        ("table", ["3"], False),
    ],
)
def test_a_query_parameter_names_a_secret_column(name, values, secret):
    assert secret_parameter(name, values) is secret


# --- A live round and everyone who may ask -------------------------------------------------


@pytest.fixture
def live(on_floor) -> Round:
    """A round at the flop, dealt by the RNG: hole cards and the turn and river hidden."""
    round_ = on_floor.round_in("flop")
    assert round_.dealer_hole and round_.shuffled_deck and round_.hands.first().hole
    return round_


def guesses(round_: Round) -> dict:
    """Each secret column's right guess (a hidden card, the deck's first cards)."""
    deck = round_.shuffled_deck
    return {
        DEALER_HOLE: round_.dealer_hole[0],
        HOLE: round_.hands.order_by("seat").first().hole[1],
        DECK: '["' + '", "'.join(deck[:3]),  # the deck's start, as the attack typed it
    }


@pytest.fixture
def askers(supervisor, dealer, compliance, administrator) -> dict:
    """Who asks: nobody signed in, each staff role, a superuser, and a non-staff account in
    a role group (which holds no role: cardroom.roles)."""
    not_staff = UserFactory(username="not-staff", is_staff=False)
    not_staff.groups.add(Group.objects.get_or_create(name=Role.ADMINISTRATOR.group_name)[0])
    return {
        "anonymous": None,
        "supervisor": supervisor,
        "dealer": dealer,
        "compliance": compliance,
        "administrator": administrator,
        "superuser": UserFactory(username="root", is_superuser=True),
        "not staff": not_staff,
    }


def signed_in(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


CSRF_TOKEN = re.compile(rb"[A-Za-z0-9]{64}")  # masked anew on every page


def answer(response) -> tuple:
    """What a response tells, but for the guess a sign-in redirect repeats (its ``next``) and
    the page's CSRF token."""
    location = response.get("Location", "").split("?next=")[0]
    return response.status_code, location, CSRF_TOKEN.sub(b"<token>", response.content)


class Refusals:
    """Each kind of refusal's answer, asked once with a wrong guess: every right guess must
    get the very same answer, so nothing in it depends on a card."""

    def __init__(self, client) -> None:
        self.client, self.known = client, {}

    def ask(self, url: str, parameter: str, right: str, kind=None) -> tuple:
        told = answer(self.client.get(url, {parameter: right}))
        key = (url, kind)
        if key not in self.known:
            self.known[key] = answer(self.client.get(url, {parameter: MISS}))
        assert told == self.known[key], (url, parameter)
        return told


# --- The admin ---------------------------------------------------------------------------------


def path_to(model, column) -> str | None:
    """The shortest lookup path from ``model`` to ``column`` through relations (3 hops)."""
    queue, seen = deque([(model, "")]), {model}
    while queue:
        current, prefix = queue.popleft()
        if current is column.model:
            return prefix + column.name
        if prefix.count("__") == 3:
            continue
        for field in current._meta.get_fields():
            related = field.related_model if field.is_relation else None
            if related is not None and not isinstance(related, str) and related not in seen:
                seen.add(related)
                queue.append((related, f"{prefix}{field.name}__"))
    return None


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


ADMINS = sorted(admin.site._registry, key=lambda model: model._meta.label)
SECRETS = [DEALER_HOLE, DECK, HOLE]


def admin_expected(role: str, url: str, reaches: bool) -> tuple[int, str]:
    """The admin's answer to a lookup, by role: Django's refusal of a disallowed lookup (400),
    of a path that names no field (back to the list with ``?e=1``), of a staff member whose
    role holds no admin permission (403), of anyone not staff (the admin's sign-in)."""
    if role in ("anonymous", "not staff"):
        return 302, "/admin/login/"
    if role in ("supervisor", "dealer", "compliance"):
        return 403, ""
    return (400, "") if reaches else (302, f"{url}?e=1")


def test_every_admin_on_the_site_carries_the_guard():
    assert isinstance(admin.site, CardroomAdminSite)
    for model, model_admin in admin.site._registry.items():
        assert isinstance(model_admin, SecretColumnsGuard), model
    # Django's own, the project's and the third parties' admins are all there.
    labels = {model._meta.label for model in ADMINS}
    assert {"auth.User", "knox.AuthToken", "axes.AccessAttempt", "tables.Round"} <= labels


def test_no_admin_counts_rows_by_a_secret_column_for_anyone(client, live, askers):
    """Every admin, every secret column (reached through relations where it can be), a right
    and a wrong guess: the same answer, and for those allowed in the admin a refusal."""
    right = guesses(live)
    for role, user in askers.items():
        refusals = Refusals(signed_in(client, user))
        # Every admin and column as a superuser; the other roles' answers do not depend on the
        # model or the column (they are refused before any row is read): fewer suffice.
        models = ADMINS if role == "superuser" else [Round, Hand, Player]
        columns = SECRETS
        for model in models:
            url = changelist(model)
            for column in columns:
                path = path_to(model, column)
                lookup = (path or column.name) + "__icontains"
                status, location, body = refusals.ask(url, lookup, right[column], path is None)
                expected_status, expected_location = admin_expected(role, url, path is not None)
                assert (status, location[: len(expected_location)]) == (
                    expected_status,
                    expected_location,
                ), (role, model, lookup)
                assert b"result" not in body  # no count shown


def test_every_kind_of_lookup_on_a_secret_column_is_refused(client, live, askers):
    right = guesses(live)
    refusals = Refusals(signed_in(client, askers["superuser"]))
    for lookup in LOOKUPS:
        for model, column in [
            (Round, DEALER_HOLE),
            (Round, DECK),
            (Round, HOLE),
            (Hand, HOLE),
            (Hand, DEALER_HOLE),
            (Hand, DECK),
        ]:
            parameter = path_to(model, column) + lookup
            guess = {"__isnull": "0", "__len": "2"}.get(lookup, right[column])
            status, _, body = refusals.ask(changelist(model), parameter, guess)
            assert status == 400, (model, parameter)
            assert b"Bad Request (400)" in body


def test_the_facets_and_the_date_drill_down_are_refused_with_a_secret_lookup(client, live, askers):
    right = guesses(live)
    client.force_login(askers["administrator"])
    year = live.started_at.year
    refusals = Refusals(client)
    table = live.table_id
    for extra in ({"_facets": "1"}, {"started_at__year": year}, {"table__id__exact": table}):
        url = changelist(Round) + "?" + urlencode(extra)
        assert refusals.ask(url, "dealer_hole__icontains", right[DEALER_HOLE])[0] == 400
    # The same filters without the secret lookup count the round ("1 round").
    counted = client.get(changelist(Round), {"table__id__exact": live.table_id})
    assert counted.context["cl"].result_count == 1
    # Without the lookup the facets count only public columns: no secret column among them.
    page = client.get(changelist(Round), {"_facets": "1"})
    assert page.status_code == 200
    shown = page.content.decode()
    assert "dealer_hole" not in shown and "shuffled_deck" not in shown


def test_no_admin_sorts_by_a_secret_column(client, live, askers, rf):
    """Every column the admin may sort by (``?o=``) is public, and each sorts (200)."""
    client.force_login(askers["superuser"])
    request = rf.get("/")
    request.user = askers["superuser"]
    for model, model_admin in admin.site._registry.items():
        sortable = model_admin.get_sortable_by(request)
        display = list(model_admin.get_list_display(request))
        for column in sortable:
            assert not isinstance(column, str) or secret_in_path(model, column) is None
        if model in (Round, Hand):  # every column at once, each way
            columns = range(len(display) + 1)  # the first is the action checkbox
            for order in (".".join(f"{i}" for i in columns), ".".join(f"-{i}" for i in columns)):
                assert client.get(changelist(model), {"o": order}).status_code == 200


# --- The guard holds whatever a ModelAdmin is configured with -----------------------------------


class CarelessRoundAdmin(admin.ModelAdmin):
    """Everything a careless ModelAdmin could say about a secret column."""

    list_display = ["number", "dealer_hole", "state", "deck_order"]
    list_filter = ["state", "dealer_hole", ("shuffled_deck", admin.EmptyFieldListFilter)]
    search_fields = ["table__name", "dealer_hole", "=shuffled_deck", "hands__hole"]
    ordering = ["shuffled_deck", "number"]
    fields = ["number", "state", "dealer_hole", "shuffled_deck", "board"]

    @admin.display(ordering="shuffled_deck")
    def deck_order(self, round_):
        return "sorted by the deck"


class CarelessHandInline(admin.TabularInline):
    model = Hand
    fields = ["seat", "hole"]


@pytest.fixture
def careless(askers):
    """A site of this project with the careless admin registered on it, and a request."""
    site = CardroomAdminSite(name="careless")
    site.register(Round, CarelessRoundAdmin, inlines=[CarelessHandInline])
    request = RequestFactory().get("/")
    request.user = askers["superuser"]
    yield site._registry[Round], request
    all_sites.discard(site)  # out of the project's own checks


def test_manage_py_check_names_every_careless_option(careless):
    model_admin, _ = careless
    errors = [error for error in model_admin.check() if error.id == "cardroom.E001"]
    named = sorted(error.msg.split(" names ")[0] for error in errors)
    assert named == [
        "fields",
        "fields",
        "fields",  # the inline's
        "list_display",
        "list_display (admin_order_field)",  # deck_order, sorted by the deck
        "list_filter",
        "list_filter",
        "ordering",
        "search_fields",
        "search_fields",
        "search_fields",
    ]
    assert all("docs/rules.md §2.6" in error.hint for error in errors)


def test_the_project_passes_its_own_checks():
    call_command("check", fail_level="ERROR")


def test_a_careless_admin_still_searches_filters_sorts_and_shows_no_secret_column(careless, live):
    model_admin, request = careless
    assert model_admin.get_list_display(request) == ["number", "state", "deck_order"]
    assert model_admin.get_list_filter(request) == ["state"]
    assert model_admin.get_search_fields(request) == ["table__name"]
    assert model_admin.get_ordering(request) == ["number"]
    assert model_admin.get_sortable_by(request) == ["number", "state"]
    assert model_admin.get_fields(request, live) == ["number", "state", "board"]
    assert {"dealer_hole", "shuffled_deck"} <= set(model_admin.get_exclude(request, live))
    inline = model_admin.get_inline_instances(request, live)[0]
    assert inline.get_fields(request, live) == ["seat"]
    # Searching for a hidden card finds nothing through the search box ...
    right = guesses(live)[DEALER_HOLE]
    found, _ = model_admin.get_search_results(request, Round.objects.all(), right)
    assert not found.exists()
    # ... and sorting by "deck_order" (?o=3: the action checkbox comes first), sorted by the
    # deck, sorts by nothing secret; the next column asked for still sorts.
    sorting = RequestFactory().get("/", {"o": "3.-1"})
    sorting.user = request.user
    changelist = model_admin.get_changelist_instance(sorting)
    assert changelist.get_ordering(sorting, Round.objects.all()) == ["-number", "-pk"]
    assert changelist.get_ordering_field("deck_order") is None
    assert changelist.get_ordering_field("dealer_hole") is None
    assert changelist.get_ordering_field("number") == "number"


# --- The API ------------------------------------------------------------------------------------


def api_routes() -> list[str]:
    """Every route under /api/, its ids filled in (the refusal comes before any view)."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern)

    routes = []
    for route in walk(get_resolver().url_patterns):
        if not route.startswith("api/"):
            continue
        if "(?P<" in route:  # the fee filings' regular expressions
            route = route.replace("^", "").replace("$", "").replace("\\", "")
            route = route.replace("(?P<version_id>[0-9]{1,19})", "1")
            route = route.replace("(?P<kind>csv|pdf)", "csv")
        while "<" in route:
            start = route.index("<")
            route = route[:start] + "1" + route[route.index(">", start) + 1 :]
        routes.append("/" + route)
    return routes


ATTACKS = [
    "dealer_hole__icontains",
    "hole",
    "hole__0",
    "shuffled_deck__startswith",
    "round__dealer_hole",
    "hands__hole__contains",
    "round__hands__hole__regex",
    "table__rounds__shuffled_deck__gt",
    "player__hands__hole__isnull",
]
SORTING = [("ordering", "-dealer_hole"), ("ordering", "started_at,hands__hole"), ("o", "hole")]


def api_refusal(field: str) -> dict:
    return {
        "code": "rule_broken",
        "rule": "cards.secret",
        "section": "2.6",
        "field": field,
        "message": REFUSED,
    }


LISTS = ["/api/rounds/", "/api/players/", "/api/seatings/", "/api/accounts/", "/api/reports/"]


@pytest.mark.slow  # every route for every role: hundreds of requests
def test_every_api_route_refuses_a_query_on_a_secret_column_for_everyone(client, live, askers):
    right = guesses(live)[HOLE]
    routes = api_routes()
    assert set(LISTS) <= set(routes) and "/api/rounds/1/" in routes and len(routes) > 60
    for role, user in askers.items():
        signed_in(client, user)
        # Every route, and every attack on the lists that filter (the refusal comes before any
        # view, so it is the same for every route: tests/cardroom/test_secret_columns.py).
        asked = [(route, ATTACKS[0]) for route in routes]
        asked += [(route, parameter) for route in LISTS for parameter in ATTACKS[1:]]
        for route, parameter in asked:
            response = client.get(route, {parameter: right})
            # One exact answer, whatever the guess: nothing in it depends on a card.
            assert response.status_code == 400, (role, route, parameter)
            assert response.json() == api_refusal(parameter)
    signed_in(client, askers["superuser"])
    for parameter, value in SORTING:
        for route in LISTS:
            response = client.get(route, {parameter: value})
            assert (response.status_code, response.json()) == (400, api_refusal(parameter))


def test_the_api_still_answers_its_own_filters_and_ignores_other_sorting(client, live, askers):
    signed_in(client, askers["supervisor"])
    listed = client.get("/api/rounds/", {"table": live.table_id, "ordering": "-started_at"})
    assert listed.status_code == 200
    assert [row["id"] for row in listed.json()["results"]] == [live.pk]
    shown = client.get(f"/api/rounds/{live.pk}/").json()
    assert shown["dealer_hole"] is None  # withheld at the flop, as ever


def test_a_report_takes_no_secret_column_as_a_parameter(client, live, askers):
    signed_in(client, askers["compliance"])
    response = client.post(
        "/api/reports/",
        {
            "report_type": "audit",
            "parameters": {"gaming_day": live.started_at.date().isoformat(), "dealer_hole": "Ks"},
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "dealer_hole"


# --- FilterSets ---------------------------------------------------------------------------------


def test_a_filterset_reading_a_secret_column_is_refused_and_named_by_the_check():
    class PeekingRoundFilter(django_filters.FilterSet):
        table = django_filters.NumberFilter(field_name="table_id")
        card = django_filters.CharFilter(field_name="hands__hole", lookup_expr="icontains")

        class Meta:
            model = Round
            fields = ["table", "card"]

    try:
        with pytest.raises(ImproperlyConfigured, match=r"card \(tables.Hand.hole\)"):
            filter_queryset(PeekingRoundFilter, {"card": "Ks"}, Round.objects.all())
        named = [error.msg for error in check_filtersets() if error.id == "cardroom.E002"]
        assert named == [
            f"{__name__}.test_a_filterset_reading_a_secret_column_is_refused_and_named_by_the_"
            "check.<locals>.PeekingRoundFilter filter 'card' reads the secret column "
            "tables.Hand.hole"
        ]
    finally:
        del PeekingRoundFilter
        gc.collect()
    assert check_filtersets() == []
