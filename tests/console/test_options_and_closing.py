"""The options sheet edited from the console (only the options changed are sent, each change
logged and shown on the table page in dollars), and closing and reopening a table (every
chip cashed out, the floor map and the table page say "Closed" and offer Reopen).
Supervisors only; a refusal names the rule and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardroom.errors import State
from tables.models import DealMode, Seating, Table, TableOptionChange
from tables.services import floor
from tests.builders.floor import make_player
from tests.builders.money import chips_of, money_table, play_round
from wagers.models import LedgerTransaction, TransactionKind

pytestmark = pytest.mark.django_db


def options_url(table) -> str:
    return reverse("console:table-options", args=[table.pk])


def act(client, table, action, data=None):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data or {})


def as_shown(table) -> dict:
    """The whole options form as the page shows it for ``table``: money in dollars, pay tables
    by name ("" for no Bad Beat, "in-full" for one the API set in full), tick boxes as True or
    False, the rotation window with its "Off" box (40 minutes typed while it is off)."""
    window, tppps = table.rotation_window_minutes, table.max_tppp_per_table

    def paytable(value):
        return "in-full" if isinstance(value, dict) else value or ""

    return {
        "minimum_cents": f"{table.minimum_cents / 100:.2f}",
        "maximum_cents": f"{table.maximum_cents / 100:.2f}",
        "chip_unit_cents": f"{table.chip_unit_cents / 100:.2f}",
        "deal_mode": table.deal_mode,
        "preflop_multiples": [str(m) for m in table.preflop_multiples],
        "trips_paytable": paytable(table.trips_paytable),
        "bad_beat_paytable": paytable(table.bad_beat_paytable),
        "backline_allowed": table.backline_allowed,
        "max_consecutive_hands": str(table.max_consecutive_hands),
        "offer_every_hand": table.offer_every_hand,
        "max_tppp_per_table": "" if tppps is None else str(tppps),
        "tppp_may_bank_twice_in_a_row": table.tppp_may_bank_twice_in_a_row,
        "rotation_window_minutes": str(40 if window is None else window),
        "rotation_window_off": window is None,
        "min_non_tppp_dealers_in_window": str(table.min_non_tppp_dealers_in_window),
    }


def sheet(table, **typed) -> dict:
    """The options form as a browser posts it after the page showed ``table`` (its hidden
    initial values too), with ``typed`` over it: a box ticked is sent as "on", an unticked
    one is not sent at all."""
    page = as_shown(table)
    initial = {f"initial-{k}": str(v) if isinstance(v, bool) else v for k, v in page.items()}
    posted = {k: "on" if v is True else v for k, v in {**page, **typed}.items() if v is not False}
    return {**posted, **initial}


def test_a_supervisor_edits_the_options_sheet(as_user, card_table, supervisor):
    table = card_table.table
    client = as_user("supervisor")
    page = client.get(options_url(table)).content.decode()
    assert 'name="minimum_cents" value="5.00"' in page  # filled with the table's, in dollars
    assert 'name="initial-minimum_cents" value="5.00"' in page
    assert "Card entry" in page and "No option has changed" in page
    response = client.post(options_url(table), sheet(table, minimum_cents="10", deal_mode="rng"))
    assert response.status_code == 302 and response.url == reverse("console:table", args=[table.pk])
    table.refresh_from_db()
    assert (table.minimum_cents, table.maximum_cents, table.deal_mode) == (1_000, 50_000, "rng")
    logged = TableOptionChange.objects.filter(table=table).order_by("option")
    assert [(c.option, c.old_value, c.new_value) for c in logged] == [
        ("deal_mode", "card_entry", "rng"),
        ("minimum_cents", 500, 1_000),
    ]
    assert {c.changed_by for c in logged} == {supervisor}
    shown = client.get(response.url).content.decode()
    assert "options sheet changed: Minimum: $5.00 → $10.00; Deal: Card entry → RNG deal" in shown
    log = shown[shown.index('id="option-change-log"') :]
    assert "<td>Minimum</td>" in log and "<td>$5.00</td><td>$10.00</td>" in "".join(log.split())
    assert "<td>supervisor</td>" in log


def test_only_the_options_changed_on_the_page_are_sent(as_user, card_table, supervisor):
    """Another supervisor raised the maximum after this page was shown: saving the minimum
    does not put the old maximum back."""
    table = card_table.table
    shown = sheet(table, minimum_cents="10")
    floor.change_table_options(table_id=table.pk, by=supervisor, changes={"maximum_cents": 90_000})
    response = as_user("supervisor").post(options_url(table), shown)
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.minimum_cents, table.maximum_cents) == (1_000, 90_000)


def test_nothing_changed_sends_nothing(as_user, card_table):
    table = card_table.table
    response = as_user("supervisor").post(options_url(table), sheet(table))
    assert response.status_code == 302
    assert not TableOptionChange.objects.filter(table=table).exists()


def test_a_round_in_play_refuses_an_options_change_409(as_user, card_table):
    play_round(card_table, pd_seat=2, bank=10_000, wagers=[], until=State.WAGERING)
    table = card_table.table
    response = as_user("supervisor").post(options_url(table), sheet(table, minimum_cents="10"))
    assert response.status_code == 409
    assert (
        "round 1 is wagering open; options change between hands "
        "(rule: the order of a hand, docs/rules.md §2.4)" in response.content.decode()
    )
    table.refresh_from_db()
    assert table.minimum_cents == 500 and not TableOptionChange.objects.exists()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            {"minimum_cents": "600"},
            "Minimum ($): the table minimum is above the table maximum "
            "(rule: the options sheet of a table, docs/rules.md §3.4)",
        ),
        (
            {"chip_unit_cents": "3"},
            "Minimum ($): the table minimum of $5.00 is not in whole chips of $3.00 "
            "(rule: the options sheet of a table, docs/rules.md §3.4)",
        ),
        ({"maximum_cents": "ten"}, "Maximum ($): Enter a number."),
    ],
)
def test_a_bad_value_is_refused_on_the_form_400(as_user, card_table, typed, said):
    table = card_table.table
    response = as_user("supervisor").post(options_url(table), sheet(table, **typed))
    assert response.status_code == 400
    assert said in response.content.decode()
    assert not TableOptionChange.objects.exists()


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_only_a_supervisor_edits_the_options_sheet(as_user, card_table, who):
    table = card_table.table
    client = as_user(who)
    assert client.get(options_url(table)).status_code == 403
    assert client.post(options_url(table), sheet(table, minimum_cents="10")).status_code == 403
    assert not TableOptionChange.objects.exists()
    page = client.get(reverse("console:table", args=[table.pk])).content.decode()
    assert "Edit the options sheet" not in page and "Close the table" not in page
    assert 'id="option-change-log"' not in page  # nothing logged yet, said in words
    assert "No option has changed" in page


def test_a_supervisor_closes_a_table_and_reopens_it(as_user, staff):
    mt = money_table(staff, {1: 12_500, 2: 40_000, 3: 0}, deal_mode=DealMode.RNG, name="LATE")
    client = as_user("supervisor")
    page = client.get(reverse("console:table", args=[mt.table.pk])).content.decode()
    assert 'id="close-table"' in page and "Close the table" in page
    assert 'name="currency_seats" value="1"' in page
    assert 'name="currency_seats" value="1" checked' not in page  # not paid unless ticked
    response = act(client, mt.table, "close_table", {"currency_seats": ["2"]})
    assert response.status_code == 302
    cash_outs = LedgerTransaction.objects.filter(kind=TransactionKind.CASH_OUT).order_by("id")
    assert [t.currency for t in cash_outs] == [False, True]  # seat 1 not ticked, seat 2 ticked
    assert all(chips_of(p, mt.table) == 0 for p in mt.players)
    assert not Seating.objects.filter(table=mt.table, left_at__isnull=True).exists()
    shown = client.get(response.url).content.decode()
    assert "LATE is closed; the game ended; 3 players left their seats; $525.00 in chips" in shown
    assert 'id="table-closed"' in shown and "Reopen the table" in shown
    assert "Seat the player" not in shown
    # The floor map says so, and offers Reopen to a supervisor only.
    floor_map = client.get(reverse("console:floor")).content.decode()
    assert '<span class="pill shut">Closed</span>' in floor_map
    assert "Reopen LATE" in floor_map
    polled = client.get(reverse("console:floor"), HTTP_HX_REQUEST="true").content.decode()
    assert "Reopen LATE" in polled and "<html" not in polled
    dealer_map = as_user("dealer").get(reverse("console:floor")).content.decode()
    assert "Closed" in dealer_map and "Reopen LATE" not in dealer_map
    # A closed table seats no one, from the console too: the rule and the state are named.
    refused = act(as_user("dealer"), mt.table, "seat", {"seat": 4, "player": make_player().pk})
    assert refused.status_code == 409
    assert (
        "LATE is closed; a floor supervisor reopens it before a player sits "
        "(rule: a closed table, docs/rules.md §3.7)" in refused.content.decode()
    )
    assert act(as_user("dealer"), mt.table, "reopen_table").status_code == 403
    client = as_user("supervisor")  # one test client: signed in as the supervisor again
    response = act(client, mt.table, "reopen_table")
    assert response.status_code == 302
    assert Table.objects.get(pk=mt.table.pk).closed_at is None
    assert "LATE is open again" in client.get(response.url).content.decode()
    assert act(client, mt.table, "reopen_table").status_code == 409  # already open


def test_closing_waits_for_the_hand_in_play_409(as_user, card_table):
    play_round(card_table, pd_seat=2, bank=10_000, wagers=[], until=State.WAGERING)
    client = as_user("supervisor")
    page = client.get(reverse("console:table", args=[card_table.table.pk])).content.decode()
    assert 'id="close-table"' not in page  # not offered during a hand
    response = act(client, card_table.table, "close_table")
    assert response.status_code == 409
    assert "a table closes between hands" in response.content.decode()
    assert Table.objects.get(pk=card_table.table.pk).closed_at is None
    assert act(as_user("dealer"), card_table.table, "close_table").status_code == 403
