"""The settlement calculator's form (console/calculator_forms.py): a hand typed in dollars and
card codes builds the calculator's JSON and settles as that JSON does; a refusal lands on the
field its JSON path names, in the floor's words; a settled round or a JSON hand fills the form,
and a hand the form cannot hold is left to the JSON; nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from console.calculator_forms import UthCalculatorForm, field_name, initial_from
from tables.models import DealMode
from tests.builders.money import Wager, money_table, play_round
from wagers.models import LedgerTransaction, SettlementLine
from wagers.rules.calculator import settle_request

pytestmark = pytest.mark.django_db
URL = reverse("console:calculator")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

# docs/rules.md §7.3's worked example (docs/examples/worked-example-short-bank.json) as the
# floor types it: seat 1 folded its $25 Ante and Blind; seat 2 played 4x with $10 Trips.
WORKED = {
    "trips_paytable": "UTH-01",
    "bad_beat_paytable": "option-1",
    "chip": "0.01",
    "multiples": ["3", "4"],
    "backline_allowed": "on",
    "pd_seat": "6",
    "bank": "100",
    "pd_hole": "Kd Qs",
    "board": "2h 7h 9h Kc 4d",
    "s1_hole": "3c 8s",
    "s1_ante": "25",
    "s1_blind": "25",
    "s1_decision": "fold",
    "s2_hole": "Ah,5h",
    "s2_ante": "25",
    "s2_blind": "25",
    "s2_trips": "10",
    "s2_decision": "4",
}


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text())


def test_the_form_builds_the_calculators_json_and_settles_as_it_does(as_user):
    written = (LedgerTransaction.objects.count(), SettlementLine.objects.count())
    response = as_user("dealer").post(URL, WORKED)
    assert response.status_code == 200
    hand = json.loads(response.context["text"])
    assert hand["player_dealer"] == {"seat": 6, "bank": 10_000, "hole": ["Kd", "Qs"]}
    assert [(s["seat"], s["hole"], s["ante"], s["play"], s["folded"]) for s in hand["seats"]] == [
        (1, ["3c", "8s"], 2_500, 0, True),
        (2, ["Ah", "5h"], 2_500, 10_000, False),
    ]
    assert response.context["result"] == settle_request(example("worked-example-short-bank.json"))
    body = response.content.decode()
    # The settlement table in dollars and words: seat 2's Trips unpaid, the bank exhausted.
    assert "UNCOVERED $70.00 unpaid" in body and "bank exhausted" in body
    assert "<td>Trips</td>" in body and "<td>seated player</td>" in body
    assert 'id="calc-net">-$100.00<' in body
    assert (LedgerTransaction.objects.count(), SettlementLine.objects.count()) == written


def test_backline_bettors_and_the_options_go_into_the_json(as_user):
    data = {
        **WORKED,
        "trips_paytable": "UTH-04",
        "bad_beat_paytable": "",
        "multiples": ["4"],
        "minimum": "5",
        "maximum": "500",
        "s2_b1_ante": "5",
        "s2_b2_trips": "5",
    }
    hand = json.loads(as_user("dealer").post(URL, data).context["text"])
    assert hand["options"] == {
        "trips_paytable": "UTH-04",
        "bad_beat_paytable": None,
        "chip_unit_cents": 1,
        "allowed_preflop_multiples": [4],
        "table_minimum_cents": 500,
        "table_maximum_cents": 50_000,
        "backline_allowed": True,
    }
    assert hand["seats"][1]["backline"] == [
        {"ante": 500, "blind": 500, "trips": 0, "bad_beat": 0},
        {"ante": 0, "blind": 0, "trips": 500, "bad_beat": 0},
    ]


# A change to the worked example -> (the field refused, the words on it).
REFUSALS = {
    "a Blind not the Ante": (
        {"s2_blind": "20"}, "s2_blind",
        "Seat 2 · Blind ($): Ante ($25.00) and Blind ($20.00) must be equal (rule: Ante and "
        "Blind, docs/rules.md §4.1)",
    ),
    "a card twice": ({"s2_hole": "Ah Kc"}, "s2_hole", "Seat 2 · cards: card Kc appears twice"),
    "a card in two hands": (
        {"s2_hole": "3c 5h"}, "s2_hole",
        "Seat 2 · cards: card 3c appears twice (also in Seat 1 · cards) (rule: each card is dealt",
    ),
    "a card that is not one": ({"board": "2h 7h 9h Kc Xx"}, "board", "Board: 'Xx' is not a card"),
    "one hole card": ({"pd_hole": "Kd"}, "pd_hole", "Player-dealer's cards:"),
    "no decision": ({"s2_decision": ""}, "s2_decision", "Seat 2 · decision:"),
    "a Play not allowed": (
        {"s2_decision": "3", "multiples": ["4"]}, "s2_decision", "Seat 2 · decision:",
    ),
    "a backline bettor at a table without": (
        {"s2_b2_ante": "5", "backline_allowed": ""}, "s2_b2_ante",
        "Seat 2 · backline 2 · Ante and Blind ($ each):",
    ),
    "the player-dealer's own seat": (
        {"pd_seat": "2"}, None, "Seat 2: seat 2 is already taken (by the player-dealer",
    ),
    "Trips under the minimum": (
        {"minimum": "15"}, "s2_trips", "Seat 2 · Trips ($): ",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(REFUSALS))
def test_a_refusal_is_on_the_field_it_names_in_the_floors_words(as_user, name):
    change, field, words = REFUSALS[name]
    response = as_user("dealer").post(URL, {**WORKED, **change})
    assert response.status_code == 400
    assert response.context["result"] is None
    error = response.context["error"]
    assert error.startswith(words), error
    assert "(rule: " in error and "docs/rules.md §" in error
    assert "seats[" not in error and "cents" not in error  # no JSON path, no count of cents
    form = response.context["form"]
    assert (field or "__all__") in form.errors
    assert 'id="calculator-error">Refused: ' in response.content.decode()


def test_input_the_form_cannot_read_is_refused_by_the_form(as_user):
    response = as_user("dealer").post(URL, {**WORKED, "bank": "ten", "pd_seat": ""})
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"bank", "pd_seat"}
    assert response.context["error"].startswith("Player-dealer's seat: This field is required.")


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("options.trips_paytable.flush", "trips_paytable"),
        ("options.chip_unit_cents", "chip"),
        ("player_dealer.hole[1]", "pd_hole"),
        ("board[4]", "board"),
        ("seats[1].hole[0]", "s2_hole"),
        ("seats[0].play", "s1_decision"),
        ("seats[0].folded", "s1_decision"),
        ("seats[1].backline[0].trips", "s2_b2_trips"),  # backline 1 made no wager
        ("seats[1].backline[0].play", "s2_decision"),
        ("seats[1].backline[0]", "s2_b2_ante"),
        ("seats[1].backline[1].ante", None),
        ("seats[1].backline", "s2_b2_ante"),
        ("seats[7].ante", None),
        ("seats", None),
        (None, None),
    ],
)
def test_each_json_path_names_its_field(path, field):
    form = UthCalculatorForm({**WORKED, "s2_b2_trips": "5"})
    assert form.is_valid()
    form.hand()
    assert form.field_of(path) == field


@pytest.fixture
def settled(staff):
    mt = money_table(
        staff, {1: 50_000, 2: 50_000, 3: 50_000}, backliners=[50_000], deal_mode=DealMode.RNG
    )
    wagers = [Wager(2, 1_000, trips=500), Wager(3, 2_000), Wager(2, 500, behind=0)]
    return play_round(mt, pd_seat=1, bank=5_000, wagers=wagers)


def test_a_settled_round_fills_the_form_and_settles_the_same_from_it(as_user, settled):
    client = as_user("supervisor")
    opened = client.get(URL, {"round": settled.pk})
    form = opened.context["form"]
    assert opened.context["held"] and not opened.context["json_open"]
    assert form.initial["pd_seat"] == 1 and str(form.initial["bank"]) == "50.00"
    assert str(form.initial[field_name(2, "ante")]) == "10.00"
    assert str(form.initial[field_name(2, "ante", 1)]) == "5.00"
    # Posting the form as the page shows it settles exactly as the round was settled.
    shown = {name: form[name].value() for name in form.fields}
    posted = {k: ("on" if v is True else v) for k, v in shown.items() if v not in (None, False)}
    again = client.post(URL, posted)
    assert again.status_code == 200
    assert again.context["result"] == opened.context["result"]


def test_a_mucked_hand_goes_through_the_form_without_cards(as_user):
    """A folded hand with no Trips on it, mucked at a card-entry table and never keyed, is
    typed without cards and opened from JSON with ``"hole": null``: it settles as a fold."""
    mucked = {**WORKED, "s1_hole": ""}
    response = as_user("dealer").post(URL, mucked)
    assert response.status_code == 200
    hand = json.loads(response.context["text"])
    assert hand["seats"][0]["hole"] is None and hand["seats"][0]["folded"] is True
    settled = settle_request(hand)
    assert response.context["result"] == settled
    assert initial_from(hand)[field_name(1, "hole")] == ""
    # A hand that is not mucked needs its cards: the refusal lands on the seat's cards.
    refused = as_user("dealer").post(URL, {**WORKED, "s2_hole": ""})
    assert refused.context["result"] is None
    assert refused.context["form"].errors[field_name(2, "hole")]


def test_a_hand_the_form_cannot_hold_is_left_to_the_json(as_user):
    hand = example("appendix-hand.json")
    hand["seats"][0]["backline"] *= 3  # three bettors behind seat 1
    response = as_user("dealer").post(URL, {"hand": json.dumps(hand)})
    assert response.status_code == 200
    assert not response.context["held"] and response.context["json_open"]
    body = response.content.decode()
    assert 'id="calculator-json" open' in body and 'id="calculator-json-only"' in body
    assert initial_from(hand) is None
    assert initial_from({"not": "a hand"}) is None


def test_a_pay_table_given_in_full_is_kept_by_the_form(as_user):
    hand = example("worked-example-short-bank.json")
    hand["options"]["trips_paytable"] = {
        "royal_flush": 100, "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
        "flush": 6, "straight": 5, "three_of_a_kind": 3,
    }  # fmt: skip
    response = as_user("dealer").post(URL, {"hand": json.dumps(hand)})
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["trips_paytable"] == "in-full"
    assert "Custom, given in full in the JSON (kept)" in response.content.decode()
    shown = {name: form[name].value() for name in form.fields}
    posted = {k: ("on" if v is True else v) for k, v in shown.items() if v not in (None, False)}
    again = as_user("dealer").post(URL, posted)
    assert (
        json.loads(again.context["text"])["options"]["trips_paytable"]
        == (hand["options"]["trips_paytable"])
    )
    assert again.context["result"] == response.context["result"]  # Flush pays 6 to 1 here
