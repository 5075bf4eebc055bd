"""The settlement calculator's forms, one per game (``CALCULATOR_FORMS``): Ultimate Texas
Hold'em's (docs/settlement-calculator.md,
"The console"): the options, the player-dealer's seat, bank and cards, the board, and each
seat's cards, wagers, decision and backline bettors, typed in dollars and card codes, built
into the calculator's JSON (docs/rules.md §11). The form parses and nothing more: the
calculator checks every rule, and its refusal comes back on the field its JSON path names.

The form holds what a hand at a table holds, with two backline bettors a seat (each with its
Ante, its equal Blind, and Trips); a hand the form cannot hold (more bettors behind a seat, a
backline Blind apart from its Ante) is edited as JSON, which stays on the page for experts.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from django import forms

from cardroom.errors import RuleError, describe
from games import registry
from games.ez_baccarat.coup import play_out
from tables.rules.cards import parse_card
from tables.rules.decisions import PERMITTED_PREFLOP_MULTIPLES
from tables.rules.paytables import BAD_BEAT_PAYTABLES, TRIPS_PAYTABLES
from tables.rules.seats import MOST_SEATS, SEATS, seat_label, seat_numbers
from wagers.rules.wagers import WagerKind

from .forms import (
    IN_FULL,
    NO_BAD_BEAT,
    MoneyField,
    _in_dollars,
    _label,
    _paytable_choices,
    game_option_fields,
    preflop_multiples_field,
)

BACKLINE = 2  # bettors behind a seat the form offers; the JSON takes any number
CARDS = 2, 5  # hole cards, the board
WAGERS = ("ante", "blind", "trips", "bad_beat")
WAGER_LABELS = {wager: f"{WagerKind(wager).label} ($)" for wager in WAGERS}
# A hand's decision as the form offers it: the Play's multiple and the street it was made on,
# or the fold on the river (docs/rules.md §5).
PLAY, FOLD = "play", "fold"
DECISIONS = [
    ("", "—"),
    ("4", "Play 4x (pre-flop)"),
    ("3", "Play 3x (pre-flop)"),
    ("2", "Play 2x (flop)"),
    ("1", "Play 1x (river)"),
    (FOLD, "Fold (river)"),
]
CUSTOM = "Custom, given in full in the JSON (kept)"
JSON_PATH = re.compile(r"\b(?:seats\[\d+\]|player_dealer|options)(?:\.\w+|\[\d+\])*")


def field_name(seat: int, what: str, bettor: int = 0) -> str:
    """The form's field of a seat's ``what`` (``hole``, a wager, ``decision``), or of its
    ``bettor``-th backline bettor's (1, 2)."""
    return f"s{seat}_{what}" if not bettor else f"s{seat}_b{bettor}_{what}"


def _cards(text: str) -> list[str]:
    """Card codes as typed or picked ("As Kd", "As,Kd"): checked by the calculator."""
    return [code for code in re.split(r"[\s,]+", text.strip()) if code]


def _cents_of(value: int | None) -> int:
    return value or 0


class UthCalculatorForm(forms.Form):
    """One hand of Ultimate Texas Hold'em for the calculator (fields named by ``field_name``
    for the seats)."""

    trips_paytable = forms.CharField(
        max_length=64, widget=forms.Select, label=_label("trips_paytable"), initial="UTH-01"
    )
    trips_paytable_full = forms.CharField(required=False, widget=forms.HiddenInput)
    bad_beat_paytable = forms.CharField(
        max_length=64,
        required=False,
        widget=forms.Select,
        label=_label("bad_beat_paytable"),
        initial="option-1",
    )
    bad_beat_paytable_full = forms.CharField(required=False, widget=forms.HiddenInput)
    chip = MoneyField(label=_label("chip_unit_cents", " ($)"), initial=Decimal("1"))
    multiples = preflop_multiples_field(initial=sorted(PERMITTED_PREFLOP_MULTIPLES))
    minimum = MoneyField(required=False, label=_label("minimum_cents", " ($, empty: none)"))
    maximum = MoneyField(required=False, label=_label("maximum_cents", " ($, empty: none)"))
    backline_allowed = forms.BooleanField(
        required=False, initial=True, label=_label("backline_allowed")
    )
    pd_seat = forms.TypedChoiceField(
        choices=[("", "—"), *[(seat, seat_label(seat)) for seat in SEATS]],
        coerce=int,
        label="Player-dealer's seat",
    )
    bank = MoneyField(label="Bank ($)")
    pd_hole = forms.CharField(required=False, max_length=64, label="Player-dealer's cards")
    board = forms.CharField(required=False, max_length=64, label="Board")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            name = seat_label(seat)
            self.fields[field_name(seat, "hole")] = forms.CharField(
                required=False, max_length=64, label=f"{name} · cards"
            )
            for wager in WAGERS:
                self.fields[field_name(seat, wager)] = MoneyField(
                    required=False, label=f"{name} · {WAGER_LABELS[wager]}"
                )
            self.fields[field_name(seat, "decision")] = forms.ChoiceField(
                choices=DECISIONS, required=False, label=f"{name} · decision"
            )
            for bettor in range(1, BACKLINE + 1):
                behind = f"{name} · backline {bettor}"
                self.fields[field_name(seat, "ante", bettor)] = MoneyField(
                    required=False, label=f"{behind} · Ante and Blind ($ each)"
                )
                self.fields[field_name(seat, "trips", bettor)] = MoneyField(
                    required=False, label=f"{behind} · Trips ($)"
                )
        for name, field in self.fields.items():
            if isinstance(field, MoneyField):
                field.widget.attrs.update({"inputmode": "decimal", "step": "0.01", "min": "0"})
            if name.endswith("_blind") and not name.startswith("pd"):
                field.widget.attrs["data-copies"] = name.removesuffix("blind") + "ante"
        value = self.data.get("trips_paytable_full") or self.initial.get("trips_paytable_full")
        self.fields["trips_paytable"].widget.choices = _paytable_choices(
            TRIPS_PAYTABLES, {} if value else None, in_full=CUSTOM
        )
        value = self.data.get("bad_beat_paytable_full") or self.initial.get(
            "bad_beat_paytable_full"
        )
        self.fields["bad_beat_paytable"].widget.choices = _paytable_choices(
            BAD_BEAT_PAYTABLES,
            {} if value else None,
            none="None: no Bad Beat wager",
            in_full=CUSTOM,
        )
        # The seats in the JSON built, in its order, each with its backline bettors' numbers
        # on the form (the JSON lists only those wagering).
        self.seats: list[tuple[int, list[int]]] = []

    # --- What the page shows ---------------------------------------------------------------

    def seat_rows(self) -> list[dict[str, Any]]:
        """Each seat's bound fields, for the template: cards, wagers, decision, backline."""
        return [
            {
                "seat": seat,
                "hole": self[field_name(seat, "hole")],
                "wagers": [
                    (WAGER_LABELS[wager], self[field_name(seat, wager)]) for wager in WAGERS
                ],
                "decision": self[field_name(seat, "decision")],
                "backline": [
                    (self[field_name(seat, "ante", b)], self[field_name(seat, "trips", b)])
                    for b in range(1, BACKLINE + 1)
                ],
            }
            for seat in SEATS
        ]

    # --- The calculator's JSON -------------------------------------------------------------

    def _seat_used(self, seat: int) -> bool:
        data = self.cleaned_data
        names = [field_name(seat, what) for what in ("hole", *WAGERS, "decision")]
        names += [field_name(seat, w, b) for b in range(1, BACKLINE + 1) for w in ("ante", "trips")]
        return any(data.get(name) not in (None, "") for name in names)

    def _paytable(self, name: str) -> Any:
        value = self.cleaned_data[name]
        if value == IN_FULL:
            kept = self.cleaned_data[f"{name}_full"] or "{}"
            try:
                return json.loads(kept)
            except ValueError:
                return kept  # not a table: the calculator refuses it, naming the pay table
        if name == "bad_beat_paytable" and value == NO_BAD_BEAT:
            return None
        return value

    def hand(self) -> dict:
        """The hand in the calculator's JSON (docs/rules.md §11); a seat left empty is not in
        it. Call after ``is_valid``."""
        data = self.cleaned_data
        seats = []
        self.seats = []
        for seat in SEATS:
            if not self._seat_used(seat):
                continue
            ante = _cents_of(data[field_name(seat, "ante")])
            decision = data[field_name(seat, "decision")]
            entry = {
                "seat": seat,
                # No cards: a mucked hand (the calculator says whether it may be one).
                "hole": _cards(data[field_name(seat, "hole")]) or None,
                **{wager: _cents_of(data[field_name(seat, wager)]) for wager in WAGERS},
                "play": ante * int(decision) if decision not in ("", FOLD) else 0,
                "folded": decision == FOLD,
                "backline": [],
            }
            bettors = []
            for bettor in range(1, BACKLINE + 1):
                behind = _cents_of(data[field_name(seat, "ante", bettor)])
                trips = _cents_of(data[field_name(seat, "trips", bettor)])
                if behind or trips:
                    entry["backline"].append(
                        {"ante": behind, "blind": behind, "trips": trips, "bad_beat": 0}
                    )
                    bettors.append(bettor)
            seats.append(entry)
            self.seats.append((seat, bettors))
        return {
            "options": {
                "trips_paytable": self._paytable("trips_paytable"),
                "bad_beat_paytable": self._paytable("bad_beat_paytable"),
                "chip_unit_cents": data["chip"],
                "allowed_preflop_multiples": sorted(data["multiples"]),
                "table_minimum_cents": data["minimum"],
                "table_maximum_cents": data["maximum"],
                "backline_allowed": data["backline_allowed"],
            },
            "player_dealer": {
                "seat": data["pd_seat"],
                "bank": data["bank"],
                "hole": _cards(data["pd_hole"]),
            },
            "board": _cards(data["board"]),
            "seats": seats,
        }

    # --- A refusal on the field it names ---------------------------------------------------

    OPTION_FIELDS = {
        "trips_paytable": "trips_paytable",
        "bad_beat_paytable": "bad_beat_paytable",
        "chip_unit_cents": "chip",
        "allowed_preflop_multiples": "multiples",
        "table_minimum_cents": "minimum",
        "table_maximum_cents": "maximum",
        "backline_allowed": "backline_allowed",
    }
    DEALER_FIELDS = {"seat": "pd_seat", "bank": "bank", "hole": "pd_hole"}

    def field_of(self, path: str | None) -> str | None:
        """The form's field a JSON path of the hand built names (``seats[1].backline[0].trips``
        -> ``s3_b1_trips``), or None: the hand as a whole."""
        if not path:
            return None
        head, _, rest = path.partition(".")
        key = re.sub(r"\[\d+\]$", "", head)
        if key == "options":
            return self.OPTION_FIELDS.get(re.sub(r"[.\[].*$", "", rest))
        if key == "player_dealer":
            return self.DEALER_FIELDS.get(re.sub(r"[.\[].*$", "", rest))
        if key == "board":
            return "board"
        found = re.fullmatch(r"seats\[(\d+)\]", head)
        if not found or int(found.group(1)) >= len(self.seats):
            return None
        seat, bettors = self.seats[int(found.group(1))]
        behind = re.match(r"backline\[(\d+)\](?:\.(\w+))?", rest)
        if behind:
            index, what = int(behind.group(1)), behind.group(2) or "ante"
            if index >= len(bettors):
                return None
            bettor = bettors[index]
            if what in ("play", "bad_beat"):
                return field_name(seat, "decision") if what == "play" else None
            return field_name(seat, "trips" if what == "trips" else "ante", bettor)
        what = re.sub(r"[.\[].*$", "", rest)
        if what == "backline":  # the bettors behind the seat as a whole: the first of them
            return field_name(seat, "ante", bettors[0]) if bettors else None
        if what in ("play", "folded"):
            return field_name(seat, "decision")
        if what in ("hole", *WAGERS):
            return field_name(seat, what)
        return None

    def _in_words(self, found: re.Match) -> str:
        """A JSON path met in a refusal's message (a card "also in seats[0].hole") as the
        form's label of its field ("Seat 1 · cards")."""
        name = self.field_of(found.group(0))
        return self.fields[name].label if name else found.group(0)

    def refuse(self, error: RuleError) -> str:
        """Put the calculator's refusal on the field it names (the hand as a whole when none)
        and answer it in the floor's words: the field's label, the message and the rule."""
        name = self.field_of(error.field)
        text = re.sub(JSON_PATH, self._in_words, describe(error))
        self.add_error(name, text)
        if name:
            return f"{self.fields[name].label}: {text}"
        found = re.match(r"seats\[(\d+)\]", error.field or "")
        if found and int(found.group(1)) < len(self.seats):
            return f"{seat_label(self.seats[int(found.group(1))][0])}: {text}"
        return text


def _dollars(cents: Any) -> Decimal | None:
    return _in_dollars(cents) if isinstance(cents, int) and not isinstance(cents, bool) else None


def initial_from(hand: Any) -> dict | None:
    """The form's values for a hand in the calculator's JSON, or None when the form cannot
    hold it (then the JSON alone is edited). Only the shape is read; the rules are the
    calculator's."""
    try:
        return _initial(hand)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _initial(hand: dict) -> dict | None:
    options = hand.get("options") or {}
    dealer = hand["player_dealer"]
    initial: dict[str, Any] = {
        "chip": _dollars(options.get("chip_unit_cents", 1)),
        "multiples": list(options.get("allowed_preflop_multiples", [3, 4])),
        "minimum": _dollars(options.get("table_minimum_cents")),
        "maximum": _dollars(options.get("table_maximum_cents")),
        "backline_allowed": options.get("backline_allowed", True),
        "pd_seat": dealer["seat"],
        "bank": _dollars(dealer["bank"]),
        "pd_hole": " ".join(dealer["hole"]),
        "board": " ".join(hand["board"]),
    }
    for name, default in (("trips_paytable", "UTH-01"), ("bad_beat_paytable", "option-1")):
        value = options.get(name, default)
        if isinstance(value, dict):
            initial[name], initial[f"{name}_full"] = IN_FULL, json.dumps(value)
        else:
            initial[name] = NO_BAD_BEAT if value is None else value
    for entry in hand["seats"]:
        seat, ante = entry["seat"], entry["ante"]
        if seat not in SEATS:
            return None
        initial[field_name(seat, "hole")] = " ".join(entry.get("hole") or ())
        for wager in WAGERS:
            initial[field_name(seat, wager)] = _dollars(entry.get(wager, 0))
        play = entry.get("play", 0)
        if entry.get("folded"):
            initial[field_name(seat, "decision")] = FOLD
        elif play and ante and play % ante == 0 and str(play // ante) in dict(DECISIONS):
            initial[field_name(seat, "decision")] = str(play // ante)
        elif play:
            return None
        behind = entry.get("backline", [])
        if len(behind) > BACKLINE:
            return None
        for bettor, bet in enumerate(behind, start=1):
            if bet.get("blind", 0) != bet.get("ante", 0) or bet.get("bad_beat", 0):
                return None
            initial[field_name(seat, "ante", bettor)] = _dollars(bet.get("ante", 0))
            initial[field_name(seat, "trips", bettor)] = _dollars(bet.get("trips", 0))
    return initial


# --- EZ Baccarat (docs/rules.md §14.7) -------------------------------------------------------

BACCARAT = registry.game("ez_baccarat")
BACCARAT_SQUARES = tuple((square.name, f"{square.label} ($)") for square in BACCARAT.squares)


class BaccaratCalculatorForm(forms.Form):
    """One coup of EZ Baccarat for the calculator: the table's options (its Listing's labels
    and defaults), the player-dealer's seat and bank, the Player and Banker hands' cards (two
    or three each, as dealt), and each bettor's wagers by seat. ``hand`` builds the cards in
    dealing order (Player, Banker, Player, Banker, then the third cards as drawn): the
    calculator checks the drawing rules, and a refusal naming a card comes back on its hand."""

    game_key = BACCARAT.key
    template = "console/_calculator_baccarat.html"

    chip = MoneyField(label=_label("chip_unit_cents", " ($)"), initial=Decimal("1"))
    minimum = MoneyField(required=False, label=_label("minimum_cents", " ($, empty: none)"))
    maximum = MoneyField(required=False, label=_label("maximum_cents", " ($, empty: none)"))
    pd_seat = forms.TypedChoiceField(
        choices=[("", "—"), *[(seat, seat_label(seat)) for seat in seat_numbers(MOST_SEATS)]],
        coerce=int,
        label="Player-dealer's seat",
    )
    bank = MoneyField(label="Bank ($)")
    player_cards = forms.CharField(max_length=64, label="Player hand")
    banker_cards = forms.CharField(max_length=64, label="Banker hand")

    OPTION_FIELDS = {"chip_unit_cents": "chip", "table_minimum_cents": "minimum"}
    OPTION_FIELDS |= {"table_maximum_cents": "maximum"}
    DEALER_FIELDS = {"seat": "pd_seat", "bank": "bank"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        own = game_option_fields(BACCARAT.listing)
        for name, field in own.items():
            field.required = name in ("seats", "decks", "tie_pays")
            self.fields[name] = field
        self.option_names = tuple(own)
        self.fields["seats"].label = "Seats at the table"
        for seat in seat_numbers(MOST_SEATS):
            for square, label in BACCARAT_SQUARES:
                self.fields[field_name(seat, square)] = MoneyField(
                    required=False, label=f"{seat_label(seat)} · {label}"
                )
        self.seats: list[int] = []
        self.cards: list[str] = []  # "player" or "banker" for each card of the hand built

    def option_fields(self):
        return [self[name] for name in ("chip", "minimum", "maximum", *self.option_names)]

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "wagers": [
                    (label, self[field_name(seat, square)]) for square, label in BACCARAT_SQUARES
                ],
            }
            for seat in seat_numbers(MOST_SEATS)
        ]

    def hand(self) -> dict:
        data = self.cleaned_data
        options: dict[str, Any] = {"game": self.game_key, "chip_unit_cents": data["chip"]}
        for name, field in (("table_minimum_cents", "minimum"), ("table_maximum_cents", "maximum")):
            if data[field] is not None:
                options[name] = data[field]
        for name in self.option_names:
            if data.get(name) is not None:
                options[name] = data[name]
        player, banker = _cards(data["player_cards"]), _cards(data["banker_cards"])
        cards, owners = [], []
        for index in range(2):  # Player, Banker, Player, Banker
            for owner, hand in (("player", player), ("banker", banker)):
                if index < len(hand):
                    cards.append(hand[index])
                    owners.append(owner)
        for owner, hand in (("player", player), ("banker", banker)):  # the third cards
            for code in hand[2:]:
                cards.append(code)
                owners.append(owner)
        self.cards = owners
        seats = []
        for seat in seat_numbers(MOST_SEATS):
            stakes = {sq: _cents_of(data.get(field_name(seat, sq))) for sq, _ in BACCARAT_SQUARES}
            if any(stakes.values()):
                seats.append({"seat": seat, **stakes})
        self.seats = [entry["seat"] for entry in seats]
        return {
            "options": options,
            "player_dealer": {"seat": data["pd_seat"], "bank": data["bank"]},
            "cards": cards,
            "seats": seats,
        }

    def field_of(self, path: str | None) -> str | None:
        """The form's field a JSON path names (``cards[4]`` -> the hand the card was dealt
        to; ``seats[1].tie`` -> that seat's Tie), or None: the hand as a whole."""
        if not path:
            return None
        head, _, rest = path.partition(".")
        if head == "options":
            name = re.sub(r"[.\[].*$", "", rest)
            return self.OPTION_FIELDS.get(name, name if name in self.option_names else None)
        if head == "player_dealer":
            return self.DEALER_FIELDS.get(re.sub(r"[.\[].*$", "", rest))
        card = re.fullmatch(r"cards(?:\[(\d+)\])?", head)
        if card:
            index = int(card.group(1)) if card.group(1) else None
            if index is not None and index < len(self.cards):
                return f"{self.cards[index]}_cards"
            return "player_cards"  # the coup as a whole: ``refuse`` names the hand it says
        found = re.fullmatch(r"seats\[(\d+)\]", head)
        if not found or int(found.group(1)) >= len(self.seats):
            return None
        seat = self.seats[int(found.group(1))]
        what = re.sub(r"[.\[].*$", "", rest)
        if what in dict(BACCARAT_SQUARES):
            return field_name(seat, what)
        return field_name(seat, BACCARAT_SQUARES[0][0])

    def _in_words(self, found: re.Match) -> str:
        name = self.field_of(found.group(0))
        return self.fields[name].label if name else found.group(0)

    def refuse(self, error: RuleError) -> str:
        name = self.field_of(error.field)
        if error.field == "cards" and error.message.find("Banker hand") > -1:
            player = error.message.find("Player hand")
            if player < 0 or error.message.find("Banker hand") < player:
                name = "banker_cards"  # a missing card the Banker hand draws
        text = re.sub(BACCARAT_PATH, self._in_words, describe(error))
        self.add_error(name, text)
        return f"{self.fields[name].label}: {text}" if name else text


BACCARAT_PATH = re.compile(r"\b(?:seats\[\d+\]|player_dealer|options|cards)(?:\.\w+|\[\d+\])*")


def baccarat_initial(hand: Any) -> dict | None:
    """The baccarat form's values for a hand in the calculator's JSON, or None when the form
    cannot hold it."""
    try:
        options = hand.get("options") or {}
        dealer = hand["player_dealer"]
        initial: dict[str, Any] = {
            "chip": _dollars(options.get("chip_unit_cents", 1)),
            "minimum": _dollars(options.get("table_minimum_cents")),
            "maximum": _dollars(options.get("table_maximum_cents")),
            "pd_seat": dealer["seat"],
            "bank": _dollars(dealer["bank"]),
        }
        for name, default in {"seats": 9, **BACCARAT.listing.own_defaults}.items():
            value = options.get(name, default)
            initial[name] = _dollars(value) if name.endswith("_cents") else value
        cards = [str(code) for code in hand["cards"]]
        places = _places(cards)
        player = [cards[i] for i in places["player"]]
        banker = [cards[i] for i in places["banker"]]
        initial["player_cards"], initial["banker_cards"] = " ".join(player), " ".join(banker)
        for entry in hand["seats"]:
            for square, _ in BACCARAT_SQUARES:
                initial[field_name(entry["seat"], square)] = _dollars(entry.get(square, 0))
        return initial
    except (KeyError, TypeError, ValueError, AttributeError, RuleError):
        return None


def _places(cards: list[str]) -> dict[str, list[int]]:
    """The places in dealing order of each hand's cards: the first four alternate, Player
    first; a fifth or sixth card is a third card as the drawing rules dealt it (a coup the
    rules refuse: the fifth is the Player's, the sixth the Banker's, for the form to show)."""
    places = {"player": [0, 2][: len(cards[0::2][:2])], "banker": [1, 3][: len(cards[1:4:2])]}
    try:
        coup = play_out([parse_card(code) for code in cards])
        drawn = (len(coup.player) > 2, len(coup.banker) > 2)
    except RuleError:
        drawn = (len(cards) > 4, len(cards) > 5)
    after = 4
    for owner, draws in zip(("player", "banker"), drawn, strict=True):
        if draws and after < len(cards):
            places[owner].append(after)
            after += 1
    return places


UthCalculatorForm.game_key = "ultimate_texas_holdem"
UthCalculatorForm.template = "console/_calculator_uth.html"
# The calculator's form of each game, by its key (the page offers each).
CALCULATOR_FORMS: dict[str, type[forms.Form]] = {
    UthCalculatorForm.game_key: UthCalculatorForm,
    BACCARAT.key: BaccaratCalculatorForm,
}


def form_for(game: str | None) -> type[forms.Form]:
    """The calculator's form of ``game`` (the first game's for none or one it does not know)."""
    return CALCULATOR_FORMS.get(game or "", UthCalculatorForm)


def initial_for(hand: Any) -> tuple[type[forms.Form], dict | None]:
    """The form of a hand's game and its values (None: the form cannot hold the hand)."""
    options = hand.get("options") if isinstance(hand, dict) else None
    game = options.get("game") if isinstance(options, dict) else None
    form = form_for(game if isinstance(game, str) else None)
    return form, (baccarat_initial(hand) if form is BaccaratCalculatorForm else initial_from(hand))
