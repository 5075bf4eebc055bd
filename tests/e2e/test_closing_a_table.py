"""A floor supervisor edits a table's options sheet (a refused value first, named with its
rule; the limits, then the pre-flop multiples and the pay tables), then closes the table at
the end of play with players holding chips: every chip is cashed out (currency only where
ticked), the table and the floor map say "Closed", and the table is reopened from the floor
map."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import DealMode, Table, TableOptionChange
from tests.builders.money import chips_of, money_table
from tests.e2e.conftest import fits_width, sign_in, swapped
from wagers.models import LedgerTransaction, TransactionKind

pytestmark = [pytest.mark.requires_postgres, pytest.mark.django_db(transaction=True)]


def test_a_supervisor_edits_the_options_and_closes_the_table(live_server, new_page, shoot, staff):
    mt = money_table(
        staff, {1: 12_500, 2: 40_000, 3: 20_000}, tppp_seats=[3], deal_mode=DealMode.RNG,
        name="NIGHT-1",
    )  # fmt: skip
    money_table(staff, {1: 10_000}, deal_mode=DealMode.RNG, name="NIGHT-2")
    first, second, tppp = mt.seated[1], mt.seated[2], mt.seated[3]
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server.url, staff.supervisor.username)
    page.goto(f"{live_server.url}/console/tables/{mt.table.pk}/")

    # The options sheet: filled with the table's, a value out of order refused with its rule.
    with page.expect_navigation():
        page.get_by_role("link", name="Edit the options sheet").click()
    form = page.locator("#options-form form")
    expect(form.get_by_label("Minimum ($)")).to_have_value("5.00")
    shoot(page, "60-options-sheet")
    form.get_by_label("Minimum ($)").fill("600")
    with page.expect_navigation():
        form.get_by_role("button", name="Save the changes").click()
    expect(page.locator("#refusal")).to_contain_text(
        "the table minimum is above the table maximum "
        "(rule: the options sheet of a table, docs/rules.md §3.4)"
    )
    assert not TableOptionChange.objects.exists()
    shoot(page, "61-options-refused")
    form = page.locator("#options-form form")
    form.get_by_label("Minimum ($)").fill("10")
    form.get_by_label("Maximum ($)").fill("1000")
    with page.expect_navigation():
        form.get_by_role("button", name="Save the changes").click()
    expect(page.locator(".messages")).to_contain_text(
        "options sheet changed: Minimum: $5.00 → $10.00; Maximum: $500.00 → $1,000.00"
    )
    log = page.locator("#option-change-log")
    expect(log).to_contain_text("Maximum")
    expect(log.locator("tr", has_text="Minimum")).to_contain_text("$5.00")
    expect(log.locator("tr", has_text="Minimum")).to_contain_text("$10.00")
    expect(page.locator("body")).to_contain_text("$1,000.00 per wager")
    page.locator("#option-changes").scroll_into_view_if_needed()
    shoot(page, "62-options-changed")

    # The rest of the sheet from the same page: the pay tables, the pre-flop multiples, the
    # rotation policy. No multiple ticked is refused with its rule; then 3x only and UTH-03.
    with page.expect_navigation():
        page.get_by_role("link", name="Edit the options sheet").click()
    form = page.locator("#options-form form")
    expect(form.get_by_label("3x")).to_be_checked()
    expect(form.get_by_label("4x")).to_be_checked()
    expect(form.get_by_label("Trips pay table")).to_have_value("UTH-01")
    expect(form.get_by_label("Bad Beat pay table")).to_have_value("option-1")
    expect(form.get_by_label("Off", exact=True)).not_to_be_checked()
    assert fits_width(page)
    shoot(page, "62a-options-sheet-whole")
    form.get_by_label("3x").uncheck()
    form.get_by_label("4x").uncheck()
    with page.expect_navigation():
        form.get_by_role("button", name="Save the changes").click()
    expect(page.locator("#refusal")).to_contain_text(
        "Pre-flop Play: at least one pre-flop Play multiple (3 or 4) is needed "
        "(rule: the pre-flop Play sizes, docs/rules.md §5.2)"
    )
    assert TableOptionChange.objects.count() == 2  # the minimum and the maximum, nothing more
    shoot(page, "62b-options-multiples-refused")
    form = page.locator("#options-form form")
    form.get_by_label("3x").check()
    form.get_by_label("Trips pay table").select_option("UTH-03")
    form.get_by_label("Bad Beat pay table").select_option(label="None: no Bad Beat wager")
    form.get_by_label("TPPP players per table").select_option(label="No limit")
    with page.expect_navigation():
        form.get_by_role("button", name="Save the changes").click()
    expect(page.locator(".messages")).to_contain_text(
        "options sheet changed: Pre-flop Play: 3x or 4x → 3x; Trips pay table: UTH-01 → UTH-03; "
        "Bad Beat pay table: Option 1 → none; TPPP players per table: 1 → no limit"
    )
    table = Table.objects.get(pk=mt.table.pk)
    assert (table.preflop_multiples, table.trips_paytable) == ([3], "UTH-03")
    assert (table.bad_beat_paytable, table.max_tppp_per_table) == (None, None)
    log = page.locator("#option-change-log")
    expect(log.locator("tr", has_text="Trips pay table")).to_contain_text("UTH-03")
    expect(log.locator("tr", has_text="Pre-flop Play")).to_contain_text("3x or 4x")
    page.locator("#option-changes").scroll_into_view_if_needed()
    shoot(page, "62c-options-pay-tables-changed")

    # Closing: each chip holder listed, "cash paid" ticked only for seat 2.
    page.locator("#close-table summary").click()
    cash_outs = page.locator("#close-cash-outs")
    expect(cash_outs.locator("tr[data-seat='1']")).to_contain_text("$125.00")
    expect(cash_outs.locator("tr[data-seat='3']")).to_contain_text("bankroll credited")
    expect(cash_outs.locator("input[name=currency_seats][value='1']")).not_to_be_checked()
    cash_outs.locator("tr[data-seat='2']").get_by_label("cash paid").check()
    shoot(page, "63-close-the-table")
    with swapped(page):
        page.get_by_role("button", name="Close the table").click()
    expect(page.locator(".messages")).to_contain_text(
        "NIGHT-1 is closed; the game ended; 3 players left their seats; $725.00 in chips "
        "cashed out in all"
    )
    expect(page.locator("h1")).to_contain_text("Closed")
    expect(page.locator("#closed-status")).to_contain_text(staff.supervisor.username)
    expect(page.locator(".seat:not(.free)")).to_have_count(0)  # six free seats remain
    expect(page.locator("#seat-form")).to_have_count(0)
    shoot(page, "64-table-closed")
    posted = {
        t.entries.get(amount_cents__lt=0).account.player_id: (t.kind, t.currency)
        for t in LedgerTransaction.objects.filter(
            kind__in=[TransactionKind.CASH_OUT, TransactionKind.CREDIT]
        )
    }
    assert posted == {
        first.pk: (TransactionKind.CASH_OUT, False),
        second.pk: (TransactionKind.CASH_OUT, True),
        tppp.pk: (TransactionKind.CREDIT, False),
    }
    assert [chips_of(p, mt.table) for p in (first, second, tppp)] == [0, 0, 0]

    # The floor map: "Closed", and Reopen for the supervisor.
    page.goto(f"{live_server.url}/console/")
    card = page.locator("section[data-table='NIGHT-1']")
    expect(card).to_contain_text("Closed")
    expect(page.locator("section[data-table='NIGHT-2']")).to_contain_text("game open")
    assert fits_width(page)
    shoot(page, "65-floor-map-closed")
    with page.expect_navigation():
        page.get_by_role("button", name="Reopen NIGHT-1").click()
    expect(page.locator(".messages")).to_contain_text("NIGHT-1 is open again")
    expect(page.locator("#seat-form")).to_be_visible()
    assert Table.objects.get(pk=mt.table.pk).closed_at is None
    shoot(page, "66-table-reopened")
