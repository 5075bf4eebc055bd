"""No internal word on a page or in a message (issue 24, item 13): each row makes one page or
message the floor met with an identifier, a field name, a parser's words, an id or a naive
plural on it, and checks what it says now. A word coming back fails its row."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.urls import reverse

from fees.models import FeeSchedule
from tables.models import Player, Waitlist
from tables.services import waitlists
from tests.builders.fees import table_schedule

pytestmark = pytest.mark.django_db


def floor_supervisor() -> User:
    return User.objects.get(username="supervisor")


def the_list(table) -> Waitlist:
    """The list of the table's stakes (opened with the table's game), or a new one."""
    stakes = {"minimum_cents": table.minimum_cents, "maximum_cents": table.maximum_cents}
    found = Waitlist.objects.filter(**stakes).first()
    return found or waitlists.open_waitlist(**stakes, by=floor_supervisor())


def refused_bank(client, card_table):
    table = card_table.table
    return client.post(reverse("console:table-action", args=[table.pk, "bank"]), {})


def refused_seated(client, card_table):
    table = card_table.table
    row = the_list(table)
    player = Player.objects.create(
        player_number="W-1", name="Wanda Waits", created_at=table.created_at
    )
    waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=floor_supervisor())
    return client.post(
        reverse("console:waitlist-action", args=[row.pk, "seated"]), {"player": player.pk}
    )


def joined_twice(client, card_table):
    table = card_table.table
    row = the_list(table)
    player = Player.objects.create(
        player_number="W-2", name="Wes Twice", created_at=table.created_at
    )
    waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=floor_supervisor())
    return client.post(reverse("console:waitlists-join"), {"waitlist": row.pk, "player": player.pk})


def bad_rate(client, card_table):
    schedule = FeeSchedule.objects.first()
    schedule = schedule or table_schedule(card_table.table, by=floor_supervisor()).schedule
    return client.post(
        reverse("console:fees-create-version"),
        {
            "schedule_id": schedule.pk,
            "player_dealer_basis": "per_betting_square",
            "charged_squares": ["ante"],
            "rate1_wager_from_cents": "abc",
        },
    )


def no_period(client, card_table):
    return client.post(reverse("console:reports-request"), {"report_type": "rotation"})


def calculator_text(text):
    def post(client, card_table):
        return client.post(reverse("console:calculator"), {"hand": text})

    return post


def options_sheet(client, card_table):
    return client.get(reverse("console:table-options", args=[card_table.table.pk]))


def admin_list(model):
    def get(client, card_table):
        return client.get(reverse(f"admin:{model}_changelist"))

    return get


# (who, what the floor does, the status, words that must be there, words that must not)
ROWS = {
    "a refused bank": (
        "dealer", refused_bank, 400, ["Refused: post the bank."], ["Refused: bank."],
    ),
    "a refused seating from a list": (
        "supervisor", refused_seated, 409, ["Refused: seat a called player.",
                                             "Wanda Waits"],
        ["Refused: seated."],
    ),
    "a player listed twice": (
        "supervisor", joined_twice, 400, ["Wes Twice is already on this list"],
        ["Refused: join."],
    ),
    "a fee rate typed wrong": (
        "supervisor", bad_rate, 400, ["Rate 2 · Player wager from ($): Enter a number."],
        ["rate1_wager_from_cents", "(rate1"],
    ),
    "a report without its period": (
        "compliance", no_period, 400, ["a report needs a gaming day, or a first and a last day"],
        ["gaming_day, or from_day and to_day", "to_day is before"],
    ),
    "the calculator's JSON left empty": (
        "dealer", calculator_text(""), 400, ["calculator&#x27;s JSON: nothing was typed"],
        ["Expecting value", "char 0"],
    ),
    "the calculator's JSON mistyped": (
        "dealer", calculator_text('{"options": {} x'), 400,
        ["a comma was expected (line 1, character 16)"], ["Expecting", "delimiter", "(char"],
    ),
    "the options sheet's pay tables": (
        "supervisor", options_sheet, 200, ["Option 1 · 10,000/500/40/25/20/9"],
        [">option-1 ·", ">option-2 ·"],
    ),
    "the admin's drop boxes": (
        "administrator", admin_list("fees_dropbox"), 200, ["Drop boxes"], ["Drop boxs"],
    ),
    "the admin's ledger entries": (
        "administrator", admin_list("wagers_ledgerentry"), 200, ["Ledger entries"],
        ["Ledger entrys"],
    ),
}  # fmt: skip


@pytest.mark.parametrize("row", sorted(ROWS))
def test_no_internal_word(as_user, card_table, row):
    who, act, status, said, never = ROWS[row]
    response = act(as_user(who), card_table)
    assert response.status_code == status
    page = response.content.decode()
    shown = re.sub(r"<[^>]*>", " ", page)  # what a person reads: no tag, no attribute
    for words in said:
        assert words in page
    for word in never:
        assert word not in shown
    assert not re.search(r"\b(player|table) \d+\b", shown)  # by name, never by id


NAIVE_ENDINGS = ("boxs", "entrys", "ys", "chs", "shs", "sss")


@pytest.mark.parametrize(
    "model",
    [
        m
        for m in apps.get_models()
        if m._meta.app_label in {"tables", "wagers", "fees", "reports", "console", "cardroom"}
    ],
    ids=lambda m: m.__name__,
)
def test_every_model_is_named_in_english(model):
    """The admin names a model as people do: no naive plural, no TPPP in lower case."""
    plural = str(model._meta.verbose_name_plural)
    assert not plural.endswith(NAIVE_ENDINGS) or plural.endswith(("ays", "eys", "oys")), plural
    assert "tppp" not in plural
