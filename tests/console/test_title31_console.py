"""Title 31 at the dealer's tablet (docs/rules.md §10.7): a cash buy-in over $10,000 for a
patron without ID is refused with the rule in words; a floor supervisor records the ID on
the spot and the same buy-in is taken; a dealer is told a supervisor does it. The tablet
warns when a patron is approaching a CTR."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Player, PlayerIdentificationChange
from wagers.models import CurrencyTransactionReport, MtlEntry

pytestmark = pytest.mark.django_db


def act(client, table, action, data=None):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data or {})


def test_a_supervisor_records_the_id_on_the_spot(as_user, card_table):
    table, patron = card_table.table, card_table.seated[1]  # $500 bought in, in cash
    Player.objects.filter(pk=patron.pk).update(id_type="", id_number="", id_issued_by="")
    before = card_table.chips(patron)
    dealer = as_user("dealer")
    ok = act(dealer, table, "buy_in", {"player_id": patron.pk, "amount": "7600", "currency": "on"})
    assert ok.status_code == 302
    page = dealer.get(reverse("console:table", args=[table.pk])).content.decode()
    assert "approaching a CTR: cash in $8,100.00" in page

    refused = act(
        dealer, table, "buy_in", {"player_id": patron.pk, "amount": "4500", "currency": "on"}
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "identification before a reportable cash transaction, docs/rules.md §10.7" in body
    assert "A floor supervisor records" in body and 'name="id_number"' not in body
    assert card_table.chips(patron) == before + 760_000

    supervisor = as_user("supervisor")
    refused = act(
        supervisor, table, "buy_in", {"player_id": patron.pk, "amount": "4500", "currency": "on"}
    )
    body = refused.content.decode()
    assert 'id="record-id"' in body and 'name="id_number"' in body
    assert 'name="then" value="buy_in"' in body and 'name="amount" value="4500"' in body

    missing = act(
        supervisor,
        table,
        "identify",
        {"player_id": patron.pk, "then": "buy_in", "amount": "4500", "currency": "on"},
    )
    assert missing.status_code == 400
    assert "the ID type and number are recorded before the chips" in missing.content.decode()
    done = act(
        supervisor,
        table,
        "identify",
        {
            "player_id": patron.pk, "then": "buy_in", "amount": "4500", "currency": "on",
            "id_type": "passport", "id_number": "P99887766", "id_issued_by": "Canada",
        },
    )  # fmt: skip
    assert done.status_code == 302
    assert card_table.chips(patron) == before + 1_210_000
    patron.refresh_from_db()
    assert (patron.id_type, patron.id_number) == ("passport", "P99887766")
    assert PlayerIdentificationChange.objects.filter(player=patron).count() == 1
    assert CurrencyTransactionReport.objects.filter(player=patron).count() == 1
    assert MtlEntry.objects.filter(player=patron).count() == 2
    page = supervisor.get(reverse("console:table", args=[table.pk])).content.decode()
    assert "CTR: cash in $12,600.00" in page

    # The trail keeps the ID number masked.
    from console.models import StaffAction

    recorded = StaffAction.objects.filter(action="record ID and retry", outcome="done").get()
    assert "P99887766" not in recorded.detail
    assert "ID number •••••7766" in recorded.detail_words
    assert "amount $4,500.00" in recorded.detail_words
