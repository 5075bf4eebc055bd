"""Every option of the options sheet changed from the console's page (docs/rules.md §3.4, §12):
the pre-flop multiples, the pay tables by name, backline wagering and the rotation policy, each
through the floor's service (``change_table_options``, the API's), each change logged with who,
the old value and the new. A value the rules refuse is refused on the form with the rule's words
and changes nothing (400); a round in play refuses any change (409)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cardroom.errors import State
from console import selectors
from tables.models import TableOptionChange
from tables.options import EDITABLE_OPTIONS, OPTION_LABELS
from tables.services import floor
from tests.builders.money import play_round
from tests.console.test_options_and_closing import options_url, sheet

pytestmark = pytest.mark.django_db

OPTIONS_SHEET = "(rule: the options sheet of a table, docs/rules.md §3.4)"
PAY_TABLES = "(rule: the pay tables, docs/rules.md §6.2)"
PLAY_SIZES = "(rule: the pre-flop Play sizes, docs/rules.md §5.2)"


def logged(table) -> list[tuple[str, object, object]]:
    return [
        (c.option, c.old_value, c.new_value)
        for c in TableOptionChange.objects.filter(table=table).order_by("option")
    ]


def test_the_page_shows_every_option_filled_with_the_tables(as_user, card_table):
    page = as_user("supervisor").get(options_url(card_table.table)).content.decode()
    form = page[page.index('id="options-form"') : page.index("The sheet in force")]
    for value in ("3", "4"):  # both pre-flop multiples ticked
        assert re.search(rf'name="preflop_multiples" value="{value}"[^>]*checked', form)
    assert re.search(r'<option value="UTH-01" selected>UTH-01 · 50/40/30/9/7/4/3</option>', form)
    for name in ("UTH-02", "UTH-03", "UTH-04"):  # every Trips table the rules know
        assert f'<option value="{name}">{name} · ' in form
    assert '<option value="option-1" selected>Option 1 · 10,000/500/40/25/20/9</option>' in form
    assert '<option value="option-2">' in form and "None: no Bad Beat wager" in form
    assert re.search(r'name="backline_allowed"[^>]*checked', form)
    assert re.search(r'name="offer_every_hand"[^>]*checked', form)
    assert not re.search(r'name="tppp_may_bank_twice_in_a_row"[^>]*checked', form)
    assert '<option value="2" selected>2</option>' in form  # most hands in a row, and the window's
    assert '<option value="1" selected>1</option>' in form  # TPPPs per table
    assert '<option value="">No limit</option>' in form
    assert 'name="rotation_window_minutes" value="40"' in form
    assert not re.search(r'name="rotation_window_off"[^>]*checked', form)
    # Each field's label is the option's, as the sheet in force names it; no option is left
    # to the API.
    for option in EDITABLE_OPTIONS:
        assert OPTION_LABELS[option].label in form
    assert "through the API" not in page


# What is typed or ticked on the page; the option then logged, its old value and new; what
# the table page says of it.
CHANGES = [
    ({"preflop_multiples": ["3"]}, "preflop_multiples", [3, 4], [3], "3x or 4x → 3x"),
    ({"preflop_multiples": ["4"]}, "preflop_multiples", [3, 4], [4], "3x or 4x → 4x"),
    ({"trips_paytable": "UTH-03"}, "trips_paytable", "UTH-01", "UTH-03", "UTH-01 → UTH-03"),
    ({"bad_beat_paytable": "option-2"}, "bad_beat_paytable", "option-1", "option-2",
     "Option 1 → Option 2"),
    ({"bad_beat_paytable": ""}, "bad_beat_paytable", "option-1", None, "Option 1 → none"),
    ({"backline_allowed": False}, "backline_allowed", True, False, "yes → no"),
    ({"max_consecutive_hands": "1"}, "max_consecutive_hands", 2, 1, "2 → 1"),
    ({"offer_every_hand": False}, "offer_every_hand", True, False, "yes → no"),
    ({"max_tppp_per_table": ""}, "max_tppp_per_table", 1, None, "1 → no limit"),
    ({"max_tppp_per_table": "0"}, "max_tppp_per_table", 1, 0, "1 → 0"),
    ({"tppp_may_bank_twice_in_a_row": True}, "tppp_may_bank_twice_in_a_row", False, True,
     "no → yes"),
    ({"rotation_window_minutes": "30"}, "rotation_window_minutes", 40, 30, "40 min → 30 min"),
    ({"rotation_window_off": True}, "rotation_window_minutes", 40, None, "40 min → off"),
    ({"min_non_tppp_dealers_in_window": "3"}, "min_non_tppp_dealers_in_window", 2, 3, "2 → 3"),
]  # fmt: skip


@pytest.mark.parametrize(("typed", "option", "old", "new", "said"), CHANGES)
def test_each_option_is_changed_and_logged(
    as_user, card_table, supervisor, typed, option, old, new, said
):
    table = card_table.table
    client = as_user("supervisor")
    response = client.post(options_url(table), sheet(table, **typed))
    assert response.status_code == 302 and response.url == reverse("console:table", args=[table.pk])
    table.refresh_from_db()
    assert getattr(table, option) == new
    assert logged(table) == [(option, old, new)]  # that option only, old and new
    assert TableOptionChange.objects.get().changed_by == supervisor
    shown = client.get(response.url).content.decode()
    label = OPTION_LABELS[option].label
    assert f"options sheet changed: {label}: {said}</li>" in shown
    # The sheet in force says the new value; the change log names the option with the sheet's
    # label.
    sheet_page = client.get(options_url(table)).content.decode()
    in_force = dict(selectors.options_sheet(table))
    assert f"<th>{label}</th><td>{in_force[label]}</td>" in sheet_page
    log = sheet_page[sheet_page.index('id="option-change-log"') :]
    assert f"<td>{label}</td>" in log


def test_several_options_at_once_each_logged(as_user, card_table, supervisor):
    table = card_table.table
    typed = {
        "preflop_multiples": ["4"],
        "trips_paytable": "UTH-04",
        "backline_allowed": False,
        "max_tppp_per_table": "2",
        "rotation_window_off": True,
    }
    response = as_user("supervisor").post(options_url(table), sheet(table, **typed))
    assert response.status_code == 302
    assert logged(table) == [
        ("backline_allowed", True, False),
        ("max_tppp_per_table", 1, 2),
        ("preflop_multiples", [3, 4], [4]),
        ("rotation_window_minutes", 40, None),
        ("trips_paytable", "UTH-01", "UTH-04"),
    ]
    assert len({c.changed_at for c in TableOptionChange.objects.all()}) == 1  # one change


def test_the_window_turned_back_on(as_user, card_table, supervisor):
    """With the window off, the page types the rules' 40 minutes beside a ticked "Off": untick
    it and the window is back at 40, or at what the supervisor typed."""
    table = card_table.table
    floor.change_table_options(
        table_id=table.pk, by=supervisor, changes={"rotation_window_minutes": None}
    )
    table.refresh_from_db()
    client = as_user("supervisor")
    page = client.get(options_url(table)).content.decode()
    assert re.search(r'name="rotation_window_off"[^>]*checked', page)
    assert 'name="rotation_window_minutes" value="40"' in page
    response = client.post(options_url(table), sheet(table, rotation_window_off=False))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.rotation_window_minutes == 40
    assert logged(table)[-1] == ("rotation_window_minutes", None, 40)


def test_the_window_on_needs_its_minutes_400(as_user, card_table, supervisor):
    table = card_table.table
    floor.change_table_options(
        table_id=table.pk, by=supervisor, changes={"rotation_window_minutes": None}
    )
    table.refresh_from_db()
    typed = {"rotation_window_off": False, "rotation_window_minutes": ""}
    response = as_user("supervisor").post(options_url(table), sheet(table, **typed))
    assert response.status_code == 400
    assert (
        "Rotation window (minutes): type the window in minutes, or tick Off"
        in response.content.decode()
    )
    table.refresh_from_db()
    assert table.rotation_window_minutes is None and len(logged(table)) == 1


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            {"preflop_multiples": []},
            f"Pre-flop Play: at least one pre-flop Play multiple (3 or 4) is needed {PLAY_SIZES}",
        ),
        (
            {"trips_paytable": "UTH-09"},
            "Trips pay table: unknown pay table &#x27;UTH-09&#x27; (one of UTH-01, UTH-02, UTH-03, "
            f"UTH-04, or the odds in full) {PAY_TABLES}",
        ),
        (
            {"bad_beat_paytable": "option-3"},
            "Bad Beat pay table: unknown pay table &#x27;option-3&#x27; (one of option-1, "
            f"option-2, or the odds in full) {PAY_TABLES}",
        ),
        (
            {"max_consecutive_hands": "3"},
            "Most consecutive hands as player-dealer: the most hands banked in a row must be a "
            f"whole number of at least 1 and at most 2 {OPTIONS_SHEET}",
        ),
        (
            {"max_tppp_per_table": "7"},
            "TPPP players per table: the most TPPPs at the table must be a whole number of at "
            f"least 0 and at most 6 {OPTIONS_SHEET}",
        ),
        (
            {"rotation_window_minutes": "0"},
            "Rotation window (minutes): the rotation window in minutes must be a whole number of "
            f"at least 1 {OPTIONS_SHEET}",
        ),
        (
            {"min_non_tppp_dealers_in_window": "6"},
            "Non-TPPP player-dealers needed in the window: the non-TPPP player-dealers in the "
            f"window must be a whole number of at least 1 and at most 5 {OPTIONS_SHEET}",
        ),
        ({"max_consecutive_hands": "two"}, "player-dealer: a whole number is required"),
        ({"preflop_multiples": ["5"]}, "Pre-flop Play: Select a valid choice. 5 is not one of"),
    ],
)
def test_a_bad_value_is_refused_with_its_rule_and_nothing_changes_400(
    as_user, card_table, typed, said
):
    """Sent with a good change beside it: the sheet is checked whole, so neither is made."""
    table = card_table.table
    before = {name: getattr(table, name) for name in EDITABLE_OPTIONS}
    response = as_user("supervisor").post(
        options_url(table), sheet(table, **{"minimum_cents": "10", **typed})
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "Refused: nothing was changed." in page and said in page
    table.refresh_from_db()
    assert {name: getattr(table, name) for name in EDITABLE_OPTIONS} == before
    assert not TableOptionChange.objects.exists()


@pytest.mark.parametrize(
    "typed",
    [
        {"trips_paytable": "UTH-03"},
        {"preflop_multiples": ["3"]},
        {"bad_beat_paytable": ""},
        {"backline_allowed": False},
        {"rotation_window_off": True},
        {"max_tppp_per_table": "", "min_non_tppp_dealers_in_window": "1"},
    ],
)
def test_a_round_in_play_refuses_any_option_409(as_user, card_table, typed):
    play_round(card_table, pd_seat=2, bank=10_000, wagers=[], until=State.WAGERING)
    table = card_table.table
    before = {name: getattr(table, name) for name in EDITABLE_OPTIONS}
    response = as_user("supervisor").post(options_url(table), sheet(table, **typed))
    assert response.status_code == 409
    assert (
        "round 1 is wagering open; options change between hands "
        "(rule: the order of a hand, docs/rules.md §2.4)" in response.content.decode()
    )
    table.refresh_from_db()
    assert {name: getattr(table, name) for name in EDITABLE_OPTIONS} == before
    assert not TableOptionChange.objects.exists()


TRIPS_IN_FULL = {  # the `003` variant (docs/rules.md §6.2)
    "royal_flush": 100,
    "straight_flush": 40,
    "four_of_a_kind": 20,
    "full_house": 7,
    "flush": 6,
    "straight": 5,
    "three_of_a_kind": 3,
}


def test_a_pay_table_set_in_full_is_kept_unless_another_is_chosen(as_user, card_table, supervisor):
    """The API may set a pay table in full (odds by category); the page offers to keep it, and
    saving another option keeps it."""
    table = card_table.table
    floor.change_table_options(
        table_id=table.pk, by=supervisor, changes={"trips_paytable": TRIPS_IN_FULL}
    )
    table.refresh_from_db()
    client = as_user("supervisor")
    page = client.get(options_url(table)).content.decode()
    assert (
        '<option value="in-full" selected>Custom, given in full through the API (kept)</option>'
        in page
    )
    response = client.post(options_url(table), sheet(table, backline_allowed=False))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.trips_paytable == TRIPS_IN_FULL and table.backline_allowed is False
    response = client.post(options_url(table), sheet(table, trips_paytable="UTH-02"))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.trips_paytable == "UTH-02"
    assert logged(table)[-1] == ("trips_paytable", TRIPS_IN_FULL, "UTH-02")
    assert "Trips pay table: a table in full → UTH-02" in client.get(response.url).content.decode()


def test_a_change_made_meanwhile_is_not_put_back(as_user, card_table, supervisor):
    """Another supervisor turned the window off and set UTH-04 after this page was shown:
    saving the pre-flop multiples puts neither back."""
    table = card_table.table
    shown = sheet(table, preflop_multiples=["4"])
    floor.change_table_options(
        table_id=table.pk,
        by=supervisor,
        changes={"rotation_window_minutes": None, "trips_paytable": "UTH-04"},
    )
    assert as_user("supervisor").post(options_url(table), shown).status_code == 302
    table.refresh_from_db()
    assert (table.preflop_multiples, table.trips_paytable) == ([4], "UTH-04")
    assert table.rotation_window_minutes is None


def test_one_place_names_each_option():
    """The console's sheet, form and change log read the options' labels from
    ``tables.options`` (the refusals' phrases live beside them); the console keeps none."""
    assert not hasattr(selectors, "OPTION_LABELS")
    assert set(OPTION_LABELS) == set(EDITABLE_OPTIONS)
    for option, names in OPTION_LABELS.items():
        assert selectors.option_label(option) == names.label
        assert names.phrase and names.phrase[0].islower()
