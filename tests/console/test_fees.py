"""Fees in the console: the hand's fees at "no more bets", waivers, the schedules page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardroom.errors import State
from fees.models import FeeLine, FeeSchedule, FeeScheduleVersion, FeeWaiver
from rounds import services as rounds
from tests.builders.fees import STANDARD, table_schedule
from tests.builders.floor import give_button
from tests.builders.money import Wager, money_table, place, play_round

pytestmark = pytest.mark.django_db


def act(client, table, action, data=None):
    return client.post(reverse("console:table-action", args=[table.pk, action]), data or {})


@pytest.fixture
def fee_table(card_table, staff):
    table_schedule(card_table.table, by=staff.supervisor)
    return card_table


def test_no_more_bets_shows_the_hands_fees(as_user, fee_table):
    round_ = play_round(
        fee_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.WAGERING
    )
    client = as_user("dealer")
    before = client.get(reverse("console:table", args=[fee_table.table.pk])).content.decode()
    assert "schedule version 1" in before
    response = act(client, fee_table.table, "no_more_bets", {"round_id": round_.pk})
    assert response.status_code == 302
    lines = list(FeeLine.objects.filter(round=round_))
    total = sum(line.amount_cents for line in lines)
    assert lines and total > 0
    page = client.get(reverse("console:table", args=[fee_table.table.pk])).content.decode()
    assert "Fees of this hand" in page
    assert f"${total // 100}.{total % 100:02d}" in page
    assert 'class="data fee-lines"' in page
    assert ">Waive</button>" not in page  # a dealer may not waive


def test_the_bank_leaves_the_player_dealers_fee_and_the_layout_warns_of_a_short_payer(
    as_user, fee_table
):
    """docs/rules.md §9.4: the bank form says what to keep for the fee; a bank of every chip
    is refused on the form with the rule, in dollars; once the layout owes more than the
    player-dealer kept, the tablet says so before "no more bets" stops on it."""
    mt = fee_table
    give_button(mt.table.pk, 2, by=mt.staff.dealer)
    round_ = rounds.start_round(table_id=mt.table.pk, by=mt.staff.dealer)
    client = as_user("dealer")
    page = client.get(reverse("console:table", args=[mt.table.pk])).content.decode()
    assert 'data-next="bank"' in page
    assert (
        f"{mt.seated[2].name} has $500.00 in chips at the table;\n      the player-dealer's "
        "collection fee at “no more bets” is at least $0.50, paid from the chips beside the "
        "bank, not from it:"
    ) in page
    assert '<strong id="bank-most">$499.00</strong> leaves it' in page
    refused = act(client, mt.table, "bank", {"round_id": round_.pk, "amount": "500"})
    assert refused.status_code == 400
    assert (
        f"Bank ($): a bank of $500.00 leaves {mt.seated[2].name} $0.00 in chips at the table; "
        "the player-dealer owes at least $0.50 in collection fees at &quot;no more bets&quot;, "
        "paid from the chips beside the bank, not from it: post a bank of at most $499.00, or "
        "buy in first (rule: fees collected before the deal, docs/rules.md §9.4)"
    ) in refused.content.decode()
    assert (
        act(client, mt.table, "bank", {"round_id": round_.pk, "amount": "499"}).status_code == 302
    )
    # $50 Antes and Blinds at three seats: $0.50 a square for the player-dealer, $3.00 in all.
    place(mt, round_, [Wager(1, 5_000), Wager(3, 5_000), Wager(4, 5_000)])
    page = client.get(reverse("console:table", args=[mt.table.pk])).content.decode()
    warning = page.split('id="fee-short">')[1].split("</p>")[0]
    assert f"seat 2 (player-dealer {mt.seated[2].name}) owes $3.00 and has $1.00" in warning
    assert "seat 1" not in warning  # $400 left covers its $2.00
    assert "(rule: fees collected before the deal, docs/rules.md §9.4)" in warning


def test_a_supervisor_waives_a_fee_before_the_deal(as_user, fee_table):
    round_ = play_round(
        fee_table, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.NO_MORE_BETS
    )
    line = FeeLine.objects.filter(round=round_).first()
    client = as_user("supervisor")
    page = client.get(reverse("console:table", args=[fee_table.table.pk])).content.decode()
    assert ">Waive</button>" in page
    response = act(client, fee_table.table, "waive", {"fee_line_id": line.pk, "reason": ""})
    assert response.status_code == 400
    response = act(
        client, fee_table.table, "waive", {"fee_line_id": line.pk, "reason": "regular comp"}
    )
    assert response.status_code == 302
    assert FeeWaiver.objects.filter(fee_line=line).exists()
    again = act(client, fee_table.table, "waive", {"fee_line_id": line.pk, "reason": "twice"})
    assert again.status_code == 409
    assert "already waived" in again.content.decode()
    assert act(as_user("dealer"), fee_table.table, "waive", {}).status_code == 403


def test_a_fee_line_of_another_table_is_404(as_user, fee_table, staff):
    other = money_table(staff, {1: 50_000, 2: 50_000})
    table_schedule(other.table, by=staff.supervisor)
    round_ = play_round(
        other, pd_seat=2, bank=10_000, wagers=[Wager(1, 1_000)], until=State.NO_MORE_BETS
    )
    line = FeeLine.objects.filter(round=round_).first()
    response = act(
        as_user("supervisor"), fee_table.table, "waive", {"fee_line_id": line.pk, "reason": "x"}
    )
    assert response.status_code == 404
    assert not FeeWaiver.objects.exists()


# --- The schedules page -------------------------------------------------------------------


def version_post(schedule, rates, **extra):
    data = {"schedule_id": schedule.pk, "player_dealer_basis": "per_betting_square", **extra}
    data["charged_squares"] = ["ante", "blind", "trips", "bad_beat"]
    for index, rate in enumerate(rates):
        for key, cents in rate.items():
            data[f"rate{index}_{key}"] = "" if cents is None else f"{cents / 100:.2f}"
    return data


@pytest.mark.parametrize("who", ["dealer", "compliance"])
def test_everyone_on_the_floor_reads_the_schedules_but_only_supervisors_file(
    as_user, fee_table, who
):
    client = as_user(who)
    page = client.get(reverse("console:fees")).content.decode()
    assert f"{fee_table.table.name} fees" in page and "in force" in page
    assert "File a new version" not in page
    schedule = FeeSchedule.objects.get()
    response = client.post(reverse("console:fees-create-version"), version_post(schedule, STANDARD))
    assert response.status_code == 403


def test_a_supervisor_files_a_new_version_which_then_is_in_force(as_user, fee_table):
    schedule = FeeSchedule.objects.get()
    client = as_user("supervisor")
    rates = [dict(r, player_fee_cents=r["player_fee_cents"] + 25) for r in STANDARD]
    response = client.post(reverse("console:fees-create-version"), version_post(schedule, rates))
    assert response.status_code == 302
    newest = FeeScheduleVersion.objects.order_by("-number").first()
    assert newest.number == 2
    assert [r.player_fee_cents for r in newest.rates.order_by("position")] == [75, 125, 225]
    page = client.get(reverse("console:fees")).content.decode()
    assert page.index("Version 2") < page.index("Version 1")
    assert "in force" in page and "past" in page


@pytest.mark.parametrize(
    ("rates", "text"),
    [
        # a gap between two player wager ranges
        (
            [dict(STANDARD[0], wager_to_cents=2_000), *STANDARD[1:]],
            "leave a gap between $20.00 and $25.01 (rule: the fee ranges, docs/rules.md §9.3)",
        ),
        # the ranges do not reach the table maximum
        (STANDARD[:2], "must cover the table limits"),
        # a rate with no fee at all
        (
            [dict(STANDARD[0], player_fee_cents=None), *STANDARD[1:]],
            "is not a whole number of cents (rule: the collection rates, docs/rules.md §9.2)",
        ),
    ],
)
def test_a_bad_version_shows_the_engines_refusal(as_user, fee_table, rates, text):
    schedule = FeeSchedule.objects.get()
    response = as_user("supervisor").post(
        reverse("console:fees-create-version"), version_post(schedule, rates)
    )
    assert response.status_code == 400
    assert text in response.content.decode()
    assert FeeScheduleVersion.objects.count() == 1


def test_amounts_are_flat_dollars_never_negative(as_user, fee_table):
    schedule = FeeSchedule.objects.get()
    rates = [dict(STANDARD[0], player_fee_cents=-100), *STANDARD[1:]]
    response = as_user("supervisor").post(
        reverse("console:fees-create-version"), version_post(schedule, rates)
    )
    assert response.status_code == 400
    assert "greater than or equal to 0" in response.content.decode()


def test_a_version_in_the_past_is_refused(as_user, fee_table):
    schedule = FeeSchedule.objects.get()
    response = as_user("supervisor").post(
        reverse("console:fees-create-version"),
        version_post(schedule, STANDARD, effective_at="2020-01-01T10:00"),
    )
    assert response.status_code == 400
    assert "never in the past" in response.content.decode()


def test_a_new_schedule_form_and_its_refusals(as_user, card_table):
    client = as_user("supervisor")
    url = reverse("console:fees-create-schedule")
    response = client.post(url, {"name": "Main floor", "table": card_table.table.pk})
    assert response.status_code == 302
    again = client.post(url, {"name": "Again", "table": card_table.table.pk})
    assert again.status_code == 409
    assert "already has a schedule" in again.content.decode()
    neither = client.post(url, {"name": "Nowhere"})
    assert neither.status_code == 400
    assert "a schedule belongs to a table or to a table-limit class" in neither.content.decode()
