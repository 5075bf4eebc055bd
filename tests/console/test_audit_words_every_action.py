"""The audit trail in the floor's words (docs/console.md, "The audit trail"): every action
kind the console records and every body the API takes, as the trail shows it on the page
and in its CSV export: amounts in dollars, players, tables, offers, waitlists and fees by
name and number, dates as dates; never a count of cents, a database id or a Python value.

The walk builds each console action's detail exactly as its view records it (the form's
cleaned values, ids for the objects, ``json.dumps(..., default=str)``, and the older
``str(dict)`` details of the players', fees' and reports' pages), and each API write's body
from its input serializer's fields, with real objects behind every id."""

from __future__ import annotations

import datetime
import json
import re
from decimal import Decimal

import pytest
from django import forms as django_forms
from django.urls import get_resolver
from rest_framework import serializers

from console import audit_export
from console import forms as console_forms
from console.audit_words import Names, RowWords, detail_words, message_words, path_words
from console.models import StaffAction
from console.views import table as table_views
from console.views import waitlists as waitlist_views
from reports.parameters import Period
from tables.models import Waitlist
from tests.builders.floor import give_button, make_player
from wagers.services import chips

pytestmark = pytest.mark.django_db

AMOUNT = 40_000  # $400.00, as a form or a body carries it (cents)
FORBIDDEN = [
    re.compile(r"\b\w+_id\b"),  # a key: round_id, player_id, offer_id
    re.compile(r"\b(player|offer|table|round|schedule|waitlist|fee line|line) id\b", re.I),
    re.compile(r"datetime\.|Decimal\(|\bcents\b"),
    re.compile(r"(?<![$\d,.])40000\b|\b40,000\b(?!\.)"),  # $400.00 as a count of cents
]


def clean(words: str) -> None:
    for pattern in FORBIDDEN:
        assert not pattern.search(words), f"{pattern.pattern!r} in {words!r}"


@pytest.fixture
def things(on_floor, supervisor):
    table = on_floor.ready_table(seats=(1, 2, 3))
    patron = make_player(name="Nadia Novak")
    offer = give_button(table.pk, 1, by=on_floor.dealer)
    waitlist = Waitlist.objects.create(
        minimum_cents=500, maximum_cents=50_000, created_by=supervisor,
        created_at=datetime.datetime.now(datetime.UTC),
    )  # fmt: skip
    return {"table": table, "patron": patron, "offer": offer, "waitlist": waitlist}


def _value(name: str, field, things):
    """A value of the kind the form's field cleans to, as the view records it."""
    if name in ("player_id", "player", "backline_player"):
        return things["patron"].pk
    if name == "offer_id":
        return things["offer"].pk
    if name in ("to_table", "table"):
        return things["table"].pk
    if name == "waitlist":
        return things["waitlist"].pk
    if name == "round_id":
        return 1
    if isinstance(field, console_forms.MoneyField):
        return AMOUNT
    if isinstance(field, django_forms.BooleanField):
        return True
    if isinstance(field, django_forms.DateField):
        return datetime.date(2026, 5, 1)
    if isinstance(field, django_forms.DateTimeField):
        return datetime.datetime(2026, 5, 1, 21, 4, tzinfo=datetime.UTC)
    if isinstance(field, django_forms.ChoiceField) and field.choices:
        choices = [c for c, _ in field.choices if c not in ("", None)]
        return choices[0] if choices else "x"
    if isinstance(field, django_forms.IntegerField):
        return 3
    return "as typed"


def _expected(name: str, things) -> str | None:
    if name in ("player_id", "player", "backline_player"):
        return "Nadia Novak (#"
    if name == "offer_id":
        return f"the offer to seat {things['offer'].seat}"
    if name in ("to_table", "table"):
        return things["table"].name
    if name == "waitlist":
        return "$5.00 - $500.00 waitlist"
    return None


def console_kinds():
    for name, spec in table_views.ACTIONS.items():
        yield f"table:{name}", spec.form
    for name, spec in waitlist_views.ACTIONS.items():
        yield f"waitlist:{name}", spec.form


@pytest.mark.parametrize(("kind", "form_class"), list(console_kinds()), ids=lambda v: str(v))
def test_every_console_action_kind_in_words(things, kind, form_class):
    try:
        form = (
            form_class(table=things["table"])
            if "table" in form_class.__init__.__code__.co_varnames
            else form_class()
        )
    except TypeError:
        form = form_class()
    detail = {name: _value(name, field, things) for name, field in form.fields.items()}
    if kind.startswith("waitlist:"):
        detail = {"waitlist": things["waitlist"].pk, **detail}
    for recorded in (json.dumps(detail, default=str, sort_keys=True), str(detail)):
        words = detail_words(recorded)
        clean(words)
        for name in detail:
            if (expected := _expected(name, things)) is not None:
                assert expected in words, (kind, name, words)
            field = form.fields.get(name)
            if isinstance(field, console_forms.MoneyField):
                assert "$400.00" in words, (kind, name, words)


def api_write_serializers():
    """Every API route's input serializer (the views' ``InputSerializer``/``input_serializer``)."""
    seen = {}
    for pattern in get_resolver().url_patterns:
        for inner in getattr(pattern, "url_patterns", [pattern]):
            view = getattr(inner.callback, "view_class", None) or getattr(
                inner.callback, "cls", None
            )
            if view is None:
                continue
            serializer = getattr(view, "input_serializer", None) or getattr(
                view, "InputSerializer", None
            )
            if serializer is not None and inner.name:
                seen[inner.name] = serializer
    return sorted(seen.items())


def _body_value(name: str, field, things):
    if isinstance(field, serializers.PrimaryKeyRelatedField) or name in ("player", "table"):
        return _value(name, None, things)
    if isinstance(field, serializers.BooleanField):
        return True
    if isinstance(field, serializers.DateField):
        return "2026-05-01"
    if isinstance(field, serializers.IntegerField):
        return (
            AMOUNT
            if name in ("amount", "ante", "blind", "trips", "bad_beat") or name.endswith("_cents")
            else 3
        )
    if isinstance(field, serializers.ListField | serializers.ListSerializer):
        return []
    return "as typed"


@pytest.mark.parametrize(("route", "serializer"), api_write_serializers(), ids=lambda v: str(v))
def test_every_api_body_in_words(things, route, serializer):
    fields = serializer().fields
    body = {name: _body_value(name, field, things) for name, field in fields.items()}
    words = detail_words(json.dumps(body, sort_keys=True))
    clean(words)
    for name, value in body.items():
        if value == AMOUNT:
            assert "$400.00" in words, (route, name, words)
        if name in ("player", "table") and (expected := _expected(name, things)):
            assert expected in words, (route, name, words)


def test_python_values_and_paths_in_words(things):
    recorded = str(
        {"player": "PL-1", "badge_expires_on": datetime.date(1970, 1, 1),
         "at": datetime.datetime(2026, 5, 1, 21, 4), "rate": Decimal("12.50"),
         "rates": [{"wager_from_cents": 500, "fee_cents": 100}]}
    )  # fmt: skip
    words = detail_words(recorded)
    clean(words)
    assert "badge expires on 1970-01-01" in words and "at 2026-05-01 21:04" in words
    assert "rate 12.50" in words and "fee $1.00" in words and "wager from $5.00" in words
    table, offer = things["table"], things["offer"]
    shown = path_words(f"/api/tables/{table.pk}/button/offers/{offer.pk}/answer/")
    assert shown == (
        f"/api/tables/[{table.name}]/button/offers/[the offer to seat {offer.seat}, "
        f"{offer.player.name}]/answer/"
    )
    errors = json.dumps({"amount": [{"message": "Enter a number.", "code": "invalid"}]})
    assert message_words(errors) == "amount: Enter a number."


def test_the_trail_and_its_export_after_real_actions(things, client, as_dealer, supervisor):
    """Real writes through the console and the API; every row of the page and every line of
    the export is in words."""
    table, patron = things["table"], things["patron"]
    client.force_login(supervisor)
    from django.urls import reverse

    act = reverse("console:table-action", args=[table.pk, "seat"])
    client.post(act, {"seat": 4, "player": patron.pk})
    client.post(
        reverse("console:table-action", args=[table.pk, "buy_in"]),
        {"player_id": patron.pk, "amount": "400", "currency": "on"},
    )
    client.post(
        reverse("console:table-action", args=[table.pk, "answer"]),
        {"offer_id": things["offer"].pk, "answer": "decline"},
    )
    as_dealer.post(
        f"/api/tables/{table.pk}/chips/buy-in/",
        {"player": patron.pk, "amount": AMOUNT, "currency": True},
        format="json",
    )
    as_dealer.post(
        f"/api/tables/{table.pk}/chips/buy-in/",
        {"player": patron.pk, "amount": "lots", "currency": True},
        format="json",
    )
    assert chips.chip_account(patron, table).balance_cents == 2 * AMOUNT
    rows = list(StaffAction.objects.order_by("id"))
    assert len(rows) >= 5
    names = Names()
    for row in rows:
        words = RowWords(row, names)
        for text in (words.detail, words.path, words.where, words.message):
            clean(text)
    page = client.get(reverse("console:audit")).content.decode()
    assert "amount $400.00" in page and "Nadia Novak (#" in page
    clean(re.sub(r"<[^>]+>", " ", page.split('id="audit"', 1)[1]))
    from cardroom.clock import now
    from cardroom.gaming_day import gaming_day_of

    day = gaming_day_of(now())
    period = Period(from_day=day, to_day=day, table_id=None, filters=())
    for line in audit_export._rows(period):
        _, _, _, _, _, _, path, tbl, hand, detail, _, _, message, _ = line
        for text in (path, tbl, hand, detail, message):
            clean(str(text))
