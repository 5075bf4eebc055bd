"""Console forms: they parse what staff type (dollars to integer cents, card codes) and
nothing more. Every rule is checked by the service the form's action calls; its refusal
comes back as this form's error, naming the rule."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator

from cardroom import bounds, shifts
from cardroom.errors import RuleError
from cardroom.forms import GamingDayField, InstantField, IntegerField, ModelChoiceField, id_field
from cardroom.money import dollars
from fees.rules.schedule import MAX_RATES
from games import catalog
from games.catalog import CHOICES as GAME_CHOICES
from games.catalog import DEFAULT_GAME
from games.interface import Listing
from tables import options as table_options
from tables.models import SEAT_NUMBERS, TPPP_REGISTRATION_FIELDS, DealMode, IdType, Player, Table
from tables.options import EDITABLE_OPTIONS, OPTION_LABELS
from tables.rules.decisions import PERMITTED_PREFLOP_MULTIPLES
from tables.rules.paytables import BAD_BEAT_PAYTABLES, TRIPS_PAYTABLES, paytable_label
from tables.rules.seats import seat_label
from tables.selectors.players import patron_player
from wagers.rules.wagers import OPENING_SQUARES, WagerKind
from wagers.services.leaving import Chips

MAX_DOLLARS = Decimal(bounds.CENTS_MAX) / 100  # every amount typed (cardroom/bounds.py)


class MoneyField(forms.DecimalField):
    """Dollars and cents typed by staff, answered as integer cents (never a float).

    An empty field answers None, never 0: "nothing typed" and "zero" mean different things
    to the services (a cash-out of nothing typed takes every chip; of zero is refused).
    Written in the ASCII digits (an exponent or another script's digits is refused), at
    most ``bounds.CENTS_MAX`` cents, as the API takes it.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 12)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal("0"))
        kwargs.setdefault("max_value", MAX_DOLLARS)
        super().__init__(**kwargs)
        self.error_messages["max_value"] = bounds.too_large(dollars(bounds.CENTS_MAX))

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not bounds.ASCII_DECIMAL.fullmatch(str(value).strip()):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)

    def clean(self, value):
        amount = super().clean(value)
        if amount is None:
            return None
        try:
            return int((amount * 100).to_integral_exact())
        except InvalidOperation:  # pragma: no cover - decimal_places already refuses this
            raise forms.ValidationError("whole cents only") from None


class SignInForm(AuthenticationForm):
    """The console's sign-in. A user name longer than any account's is refused by the form,
    before django-axes records the attempt (its column holds 255 characters)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "not_staff": "This account is not a staff account: the console is for floor staff.",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))

    def confirm_login_allowed(self, user):
        """Staff sign in to the console, and a patron with the sign-in a supervisor issued
        them (their own bankroll only, docs/rules.md §3.8); any other account is refused
        here (it would meet a 403 on every page), and recorded on the audit trail as refused."""
        super().confirm_login_allowed(user)
        if not user.is_staff and patron_player(user) is None:
            raise forms.ValidationError(self.error_messages["not_staff"], code="not_staff")


def _chip_attrs(field: forms.Field, table: Table, *, limits: bool) -> None:
    """Let the browser refuse what the table refuses (the service checks again)."""
    unit = Decimal(table.chip_unit_cents) / 100
    field.widget.attrs.update({"step": str(unit), "inputmode": "decimal", "min": "0"})
    if limits:
        field.widget.attrs["max"] = str(Decimal(table.maximum_cents) / 100)
        low, high, chip = table.minimum_cents, table.maximum_cents, table.chip_unit_cents
        field.help_text = f"{dollars(low)} to {dollars(high)}, in {dollars(chip)} chips"


class RoundForm(forms.Form):
    """An action on the round the page showed: a stale tablet cannot act on a newer round."""

    round_id = id_field(widget=forms.HiddenInput)


class OpenGameForm(forms.Form):
    first_offer_seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)


class CloseGameForm(forms.Form):
    detail = forms.CharField(required=False, max_length=500, label="Why (optional)")


class CloseTableForm(forms.Form):
    """Close the table (``wagers.services.closing``): every chip at it is cashed out; the
    supervisor ticks whose cash-out is paid in currency (Title 31), by seat for the seated
    players, by player for anyone behind a seat. Nothing is ticked unless ticked."""

    currency_seats = forms.TypedMultipleChoiceField(
        choices=SEAT_NUMBERS, coerce=int, required=False, label="Cash paid (seats)"
    )
    currency_players = forms.TypedMultipleChoiceField(
        choices=[], coerce=int, required=False, label="Cash paid (behind a seat)"
    )

    def __init__(self, *args, behind=(), **kwargs):
        super().__init__(*args, **kwargs)
        # Anyone holding chips at the table without a seat there; a posted id outside them
        # is refused by the form (the service refuses it too).
        self.fields["currency_players"].choices = [(p.pk, p.name) for p in behind]


class SeatForm(forms.Form):
    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)
    player = ModelChoiceField(queryset=Player.objects.none())

    def __init__(self, *args, free_seats=None, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        if free_seats is not None:
            self.fields["seat"].choices = [(n, seat_label(n)) for n in free_seats]
        self.fields["player"].queryset = (
            players if players is not None else Player.objects.order_by("name")
        )
        self.fields["player"].label_from_instance = lambda p: f"{p.name} ({p.player_number})"


def _label(option: str, unit: str = "") -> str:
    """An option's label on a form: its name on the sheet (``tables.options.OPTION_LABELS``)."""
    return f"{OPTION_LABELS[option].label}{unit}"


class TableOptionsForm(forms.Form):
    """The first lines of a table's options sheet (docs/rules.md §3.4), money in dollars."""

    minimum_cents = MoneyField(label=_label("minimum_cents", " ($)"), initial=Decimal("5"))
    maximum_cents = MoneyField(label=_label("maximum_cents", " ($)"), initial=Decimal("500"))
    chip_unit_cents = MoneyField(label=_label("chip_unit_cents", " ($)"), initial=Decimal("1"))
    deal_mode = forms.ChoiceField(choices=DealMode.choices, label=_label("deal_mode"))

    OPTIONS = ("minimum_cents", "maximum_cents", "chip_unit_cents", "deal_mode")


def game_option_fields(game: Listing, values: dict | None = None) -> dict[str, forms.Field]:
    """The fields of a game's own options sheet (``games.interface.Listing``), with its labels
    and defaults: the seats when the game has several seat counts, then its own options that
    are no column of every table (EZ Baccarat's decks, pays, cut card, side wagers' maximum).
    A short list of values is a choice (``option_choices``); an amount (``_cents``) is typed in
    dollars, empty for none; anything else is a whole number. The form parses; the floor's
    service judges every value against the game's rules, naming the option."""
    values = {**game.own_defaults, **(values or {})}
    labels = table_options.option_labels(game)
    fields: dict[str, forms.Field] = {}
    if len(game.seat_counts) > 1:
        fields["seats"] = forms.TypedChoiceField(
            choices=[(n, f"{n} seats") for n in game.seat_counts],
            coerce=int,
            initial=values.get("seats", game.default_seats),
            label=labels["seats"].label,
        )
    for name in game.own_options:
        if name not in game.own_defaults:
            continue  # a column of the table, on the game's own form (Ultimate Texas Hold'em)
        label, default = labels[name].label, values.get(name)
        unit = game.option_units.get(name, "")
        if name in game.option_choices:
            fields[name] = forms.TypedChoiceField(
                choices=[(n, f"{n} {unit}".strip()) for n in game.option_choices[name]],
                coerce=int,
                initial=default,
                label=label,
            )
        elif name.endswith("_cents"):
            fields[name] = MoneyField(
                label=f"{label} ($)",
                required=False,
                initial=None if default is None else _in_dollars(default),
                help_text=f"empty: {table_options.NONE_WORDS.get(name, 'none')}",
            )
        else:
            fields[name] = IntegerField(
                max_value=bounds.COUNT_MAX,
                initial=default,
                label=f"{label} ({unit})" if unit else label,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "short"}),
            )
    return fields


class TableForm(TableOptionsForm):
    """A new table of a game and the first lines of its options sheet: the limits, the chip,
    the deal, and the game's own options (``game_option_fields``: EZ Baccarat's seats, decks,
    pays, cut card and side wagers' maximum). The rest of the sheet keeps its defaults and is
    changed between rounds."""

    game = forms.ChoiceField(
        choices=GAME_CHOICES, initial=DEFAULT_GAME, required=False, label="Game"
    )
    name = forms.CharField(max_length=64)

    field_order = ["game", "name", *TableOptionsForm.OPTIONS]

    def __init__(self, *args, game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        chosen = game or (self.data.get("game") if self.is_bound else None)
        try:
            self.listing = catalog.listing(chosen)
        except RuleError:
            self.listing = catalog.listing(None)
        self.fields["game"].initial = self.listing.key
        self.game_fields = tuple(game_option_fields(self.listing))
        self.fields.update(game_option_fields(self.listing))

    def game_options(self):
        """The game's own fields, bound, for the template."""
        return [self[name] for name in self.game_fields]

    def table(self) -> tuple[str, str, dict]:
        """The new table's name, game and options as the floor's service takes them."""
        data = dict(self.cleaned_data)
        return data.pop("name"), data.pop("game") or DEFAULT_GAME, data


def _in_dollars(cents: int) -> Decimal:
    """Cents as the dollars a money field shows: 500 -> 5.00."""
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


# A pay table the API set in full (odds by category): the form offers to keep it, never to
# type one (the API takes them: docs/rules.md §12, `PATCH /api/tables/{id}/`).
IN_FULL = "in-full"
NO_BAD_BEAT = ""  # the Bad Beat pay table "none": no Bad Beat wager at the table


def _paytable_choices(
    named: dict,
    value,
    *,
    none: str | None = None,
    in_full: str = "Custom, given in full through the API (kept)",
) -> list[tuple[str, str]]:
    """The named pay tables the rules know, each with its odds from the top hand down ("UTH-01
    · 50/40/30/9/7/4/3"); then "none" where the table may have none, and the table in force
    when it was given in full (``in_full``: kept unless another is chosen)."""

    def odds(table) -> str:
        return "/".join(
            f"{o.numerator:,}" if o.denominator == 1 else f"{o.numerator}/{o.denominator}"
            for _, o in table.odds
        )

    choices = [(name, f"{paytable_label(name)} · {odds(table)}") for name, table in named.items()]
    if none is not None:
        choices.append((NO_BAD_BEAT, none))
    if isinstance(value, dict):
        choices.append((IN_FULL, in_full))
    return choices


def preflop_multiples_field(**kwargs) -> forms.TypedMultipleChoiceField:
    """The pre-flop Play multiples as tick boxes, the rules' own (docs/rules.md §5.2)."""
    return forms.TypedMultipleChoiceField(
        choices=[(m, f"{m}x") for m in sorted(PERMITTED_PREFLOP_MULTIPLES)],
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_label("preflop_multiples"),
        **kwargs,
    )


def _count(option: str, unit: str = "", **kwargs) -> IntegerField:
    """A whole number of the sheet (hands, players, minutes), parsed as the API parses it: its
    range is the rule's, checked by the service, which names the rule."""
    return IntegerField(max_value=bounds.COUNT_MAX, label=_label(option, unit), **kwargs)


def _choice(value) -> str:
    """A pay table's value as its select holds it."""
    if value is None:
        return NO_BAD_BEAT
    return IN_FULL if isinstance(value, dict) else value


class OptionsSheetForm(TableOptionsForm):
    """A table's whole options sheet (docs/rules.md §3.4, §12), changed between rounds: the
    create form's options and the rest of the sheet, filled with the table's. Each field also
    carries the value the page showed (a hidden initial), so ``changes`` holds only what the
    supervisor changed, never a value someone else changed meanwhile put back.

    The form parses; the floor's service judges every value (the API's rules and words). The
    choices offered are the rules' own: the pre-flop multiples, the named pay tables, the
    rotation limits' ranges."""

    preflop_multiples = preflop_multiples_field()
    trips_paytable = forms.CharField(
        max_length=64, required=False, widget=forms.Select, label=_label("trips_paytable")
    )
    bad_beat_paytable = forms.CharField(
        max_length=64, required=False, widget=forms.Select, label=_label("bad_beat_paytable")
    )
    backline_allowed = forms.BooleanField(required=False, label=_label("backline_allowed"))
    max_consecutive_hands = _count(
        "max_consecutive_hands", required=False, widget=forms.Select(choices=[(1, "1"), (2, "2")])
    )
    offer_every_hand = forms.BooleanField(required=False, label=_label("offer_every_hand"))
    max_tppp_per_table = _count(
        "max_tppp_per_table",
        required=False,
        widget=forms.Select(
            choices=[("", "No limit"), (0, "0: no TPPP"), *[(n, str(n)) for n in range(1, 7)]]
        ),
    )
    tppp_may_bank_twice_in_a_row = forms.BooleanField(
        required=False, label=_label("tppp_may_bank_twice_in_a_row")
    )
    rotation_window_minutes = _count(
        "rotation_window_minutes",
        " (minutes)",
        required=False,
        widget=forms.NumberInput(attrs={"min": "1", "step": "1", "inputmode": "numeric"}),
    )
    rotation_window_off = forms.BooleanField(required=False, label="Off")
    min_non_tppp_dealers_in_window = _count(
        "min_non_tppp_dealers_in_window",
        required=False,
        widget=forms.Select(choices=[(n, str(n)) for n in range(1, 6)]),
    )

    OPTIONS = EDITABLE_OPTIONS
    MONEY = ("minimum_cents", "maximum_cents", "chip_unit_cents")
    # The window typed while it is off, for the supervisor who turns it on: the table's default.
    DEFAULT_WINDOW = Table._meta.get_field("rotation_window_minutes").default

    # The first game's own options, columns of every table: on its sheet only.
    FIRST_GAME_OWN = (
        "preflop_multiples",
        "trips_paytable",
        "bad_beat_paytable",
        "backline_allowed",
    )

    def __init__(self, *args, table: Table, **kwargs):
        kwargs.setdefault("initial", self.shown(table))
        super().__init__(*args, **kwargs)
        self.table = table
        self.listing = table.game_listing
        self.options = table_options.editable_options(self.listing)
        own = game_option_fields(self.listing, table_options.snapshot(table))
        self.game_fields = tuple(own)
        if own:  # a game with options of its own beside the columns (EZ Baccarat)
            for name in self.FIRST_GAME_OWN:
                del self.fields[name]
            for name, field in own.items():
                field.initial = self.initial.get(name, field.initial)
                self.fields[name] = field
        for name in (*self.options, "rotation_window_off"):
            self.fields[name].show_hidden_initial = True
        for name in self.MONEY:
            self.fields[name].widget.attrs["inputmode"] = "decimal"
        if own:
            return
        trips, bad_beat = table.trips_paytable, table.bad_beat_paytable
        self.fields["trips_paytable"].widget.choices = _paytable_choices(TRIPS_PAYTABLES, trips)
        self.fields["bad_beat_paytable"].widget.choices = _paytable_choices(
            BAD_BEAT_PAYTABLES, bad_beat, none="None: no Bad Beat wager"
        )

    @classmethod
    def shown(cls, table: Table) -> dict:
        """The sheet as the form shows it: dollars, pay tables by name, the window's switch."""
        values = {name: getattr(table, name) for name in cls.OPTIONS}
        values |= table_options.snapshot(table)
        values.update(
            {
                name: _in_dollars(value)
                for name, value in values.items()
                if name.endswith("_cents") and value is not None
            }
        )
        values["trips_paytable"] = _choice(table.trips_paytable)
        values["bad_beat_paytable"] = _choice(table.bad_beat_paytable)
        window = table.rotation_window_minutes
        values["rotation_window_off"] = window is None
        values["rotation_window_minutes"] = cls.DEFAULT_WINDOW if window is None else window
        return values

    def clean(self):
        data = super().clean()
        minutes, off = "rotation_window_minutes", "rotation_window_off"
        turned_on = self._changed(minutes) and not data.get(off)
        if turned_on and data.get(minutes) is None and minutes not in self.errors:
            self.add_error(minutes, "type the window in minutes, or tick Off")
        return data

    def _value(self, name: str):
        """The option as the service takes it, or ``IN_FULL``: the table in full kept."""
        value = self.cleaned_data[name]
        if name == "preflop_multiples":
            return sorted(value)
        if name == "bad_beat_paytable" and value == NO_BAD_BEAT:
            return None
        if name == "rotation_window_minutes" and self.cleaned_data["rotation_window_off"]:
            return None
        return value

    def _changed(self, name: str) -> bool:
        if name == "rotation_window_minutes":
            return bool({name, "rotation_window_off"} & set(self.changed_data))
        return name in self.changed_data

    def changes(self) -> dict:
        """The options changed on the page and different from the table's now."""
        changes = {}
        now = table_options.snapshot(self.table)
        for name in self.options:
            if not self._changed(name):
                continue
            value = self._value(name)
            if value != IN_FULL and value != now[name]:
                changes[name] = value
        return changes

    def game_options(self):
        """The game's own fields, bound, for the template (none for the first game, whose
        own options are laid out by hand)."""
        return [self[name] for name in self.game_fields]


class IdentificationForm(forms.Form):
    """A player's identification (docs/rules.md §3.3): the number is typed in full and
    shown only masked."""

    id_type = forms.ChoiceField(
        choices=[("", "none"), *IdType.choices], required=False, label="ID type"
    )
    id_number = forms.CharField(max_length=64, required=False, label="ID number")
    id_issued_by = forms.CharField(
        max_length=64,
        required=False,
        label="Issued by",
        widget=forms.TextInput(attrs={"placeholder": "state or country"}),
    )
    date_of_birth = forms.DateField(
        required=False, label="Date of birth", widget=forms.DateInput(attrs={"type": "date"})
    )

    FIELDS = ("id_type", "id_number", "id_issued_by", "date_of_birth")

    def identification(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.FIELDS}


class EditIdentificationForm(IdentificationForm):
    """A supervisor corrects a registered player's name or number, or records or corrects
    their identification. The
    recorded number is never put back in the page: left empty, it is kept; an ID type of
    "none" with no number clears the ID (its number and issuer)."""

    name = forms.CharField(max_length=200, required=False, label="Name (empty: kept)")
    player_number = forms.CharField(
        max_length=32, required=False, label="Player number (empty: kept)"
    )

    FIELDS = ("name", "player_number", *IdentificationForm.FIELDS)

    def __init__(self, *args, player: Player | None = None, **kwargs):
        if player is not None and not args and "data" not in kwargs:
            kwargs["initial"] = {
                "name": player.name,
                "player_number": player.player_number,
                "id_type": player.id_type,
                "id_issued_by": player.id_issued_by,
                "date_of_birth": player.date_of_birth,
            }
        super().__init__(*args, **kwargs)
        if player is not None and player.id_number:
            field = self.fields["id_number"]
            field.widget.attrs["placeholder"] = player.id_number_masked
            field.label = "ID number (empty: kept)"

    def changes(self) -> dict:
        changes = self.identification()
        for name in ("name", "player_number"):
            if not changes[name].strip():
                del changes[name]
        if not changes["id_number"]:
            del changes["id_number"]
            if not changes["id_type"]:
                changes.update(id_number="", id_issued_by="")
        return changes


class PlayerForm(IdentificationForm):
    """A new player (docs/rules.md §3.3) and the identification; a TPPP with its
    registration (§8.7)."""

    player_number = forms.CharField(max_length=32, label="Player number")
    name = forms.CharField(max_length=200)
    tppp = forms.BooleanField(required=False, label="TPPP")
    business_name = forms.CharField(max_length=200, required=False, label="TPPP business")
    badge_number = forms.CharField(max_length=64, required=False, label="Badge number")
    badge_expires_on = forms.DateField(
        required=False, label="Badge expires on", widget=forms.DateInput(attrs={"type": "date"})
    )

    TPPP_FIELDS = TPPP_REGISTRATION_FIELDS

    def clean(self):
        data = super().clean()
        if data.get("tppp"):
            for name in self.TPPP_FIELDS:
                if not data.get(name) and name not in self.errors:
                    self.add_error(name, "a TPPP needs its business, badge number and expiry")
        return data

    def registration(self) -> dict | None:
        data = self.cleaned_data
        return {name: data[name] for name in self.TPPP_FIELDS} if data["tppp"] else None


class TPPPRegistrationForm(forms.Form):
    """A supervisor renews a TPPP's badge or corrects the registration (docs/rules.md §8.7),
    on the player's page: the recorded values are filled in, the ones typed replace them.
    An emptied field is sent as it is, for the service to refuse naming the rule."""

    business_name = forms.CharField(max_length=200, required=False, label="TPPP business")
    badge_number = forms.CharField(max_length=64, required=False, label="Badge number")
    badge_expires_on = forms.DateField(
        required=False, label="Badge expires on", widget=forms.DateInput(attrs={"type": "date"})
    )

    FIELDS = TPPP_REGISTRATION_FIELDS

    def __init__(self, *args, registration=None, **kwargs):
        if registration is not None and not args and "data" not in kwargs:
            kwargs["initial"] = {name: getattr(registration, name) for name in self.FIELDS}
        super().__init__(*args, **kwargs)

    def changes(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.FIELDS}


class UnseatForm(forms.Form):
    """A player leaves: with chips, they are cashed out or carried to the player's next seat
    at another table in the same step (``wagers.services.leaving``)."""

    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)
    chips = forms.ChoiceField(
        required=False,
        choices=[("", "no chips"), *[(c.value, c.label) for c in Chips]],
        label="Chips",
    )
    currency = forms.BooleanField(required=False, label="cash paid")
    to_table = ModelChoiceField(
        queryset=Table.objects.order_by("name"), required=False, label="To table"
    )
    to_seat = forms.TypedChoiceField(
        choices=[("", "seat"), *SEAT_NUMBERS], coerce=int, empty_value=None, required=False,
        label="seat",
    )  # fmt: skip

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        if table is not None:  # carried to another table
            self.fields["to_table"].queryset = Table.objects.exclude(pk=table.pk).order_by("name")
        # A closed table takes no one (the service refuses, naming the rule): it says so.
        self.fields["to_table"].label_from_instance = lambda t: (
            f"{t.name} (closed)" if t.closed_at else t.name
        )


class ChipsForm(forms.Form):
    player_id = id_field(widget=forms.HiddenInput)
    amount = MoneyField(label="Amount ($)")
    currency = forms.BooleanField(required=False, label="cash", initial=True)

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        if table is not None:
            _chip_attrs(self.fields["amount"], table, limits=False)


class ChipsOutForm(forms.Form):
    """Chips back to the cage; an empty amount takes them all (and closes the session)."""

    player_id = id_field(widget=forms.HiddenInput)
    amount = MoneyField(required=False, label="Amount ($, empty: all)")
    currency = forms.BooleanField(required=False, label="cash", initial=True)


class IdentifyForm(IdentificationForm):
    """A floor supervisor records a patron's ID on the spot, when a cash buy-in or cash-out
    was refused for it (Title 31, docs/rules.md §10.7), and the same transaction is tried
    again: ``then`` names it, with its amount and cash flag."""

    player_id = id_field(widget=forms.HiddenInput)
    then = forms.ChoiceField(
        choices=[("buy_in", "buy in"), ("cash_out", "cash out")], widget=forms.HiddenInput
    )
    amount = MoneyField(required=False, widget=forms.HiddenInput)
    currency = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        if not data.get("id_type") or not (data.get("id_number") or "").strip():
            raise forms.ValidationError("the ID type and number are recorded before the chips")
        return data


class AnswerForm(forms.Form):
    offer_id = id_field(widget=forms.HiddenInput)
    answer = forms.ChoiceField(choices=[("accept", "Accept"), ("decline", "Decline")])


class BankForm(RoundForm):
    amount = MoneyField(label="Bank ($)")

    def __init__(self, *args, table=None, **kwargs):
        super().__init__(*args, **kwargs)
        if table is not None:
            _chip_attrs(self.fields["amount"], table, limits=False)


class BetForm(RoundForm):
    seat = forms.TypedChoiceField(choices=SEAT_NUMBERS, coerce=int)
    ante = MoneyField(required=False, label="Ante ($)")
    blind = MoneyField(required=False, label="Blind ($)")
    trips = MoneyField(required=False, label="Trips ($)")
    bad_beat = MoneyField(required=False, label="Bad Beat ($)")
    # EZ Baccarat's squares (docs/rules.md §14.4): the tablet of a baccarat table shows these.
    # The Player square (EZ Baccarat); ``player`` names a patron everywhere else.
    player_wager = MoneyField(required=False, label="Player ($)")
    banker = MoneyField(required=False, label="Banker ($)")
    tie = MoneyField(required=False, label="Tie ($)")
    dragon_7 = MoneyField(required=False, label="Dragon 7 ($)")
    panda_8 = MoneyField(required=False, label="Panda 8 ($)")
    backline_player = ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label="Backline bettor",
        empty_label="none: the seat's own",
    )

    SQUARES = (
        "ante",
        "blind",
        "trips",
        "bad_beat",
        "player",
        "banker",
        "tie",
        "dragon_7",
        "panda_8",
    )

    FIELD_OF_SQUARE = {"player": "player_wager"}  # the form's field of each square

    @classmethod
    def field_of(cls, square: str) -> str:
        return cls.FIELD_OF_SQUARE.get(square, square)

    def __init__(self, *args, table=None, backliners=None, **kwargs):
        super().__init__(*args, **kwargs)
        if table is not None:
            for name in self.SQUARES:
                _chip_attrs(self.fields[self.field_of(name)], table, limits=True)
        self.fields["backline_player"].queryset = (
            backliners if backliners is not None else Player.objects.none()
        )


class DealForm(RoundForm):
    """The deal keys no card (docs/rules.md §2.3); cards posted anyway reach the service,
    which refuses them rather than have them silently dropped."""

    cards = forms.CharField(required=False, label="Cards")


class RevealForm(DealForm):
    cards = forms.CharField(
        required=False,
        label="Community cards",
        help_text="pick them below, or type codes such as Ah Kd",
    )


class ShowdownForm(DealForm):
    """At a card-entry table, the cards turned face up: the player-dealer's two, then two for
    each hand turned face up, by seat (``rounds.selectors.seats_turned_face_up``)."""

    cards = forms.CharField(required=False, label="Cards turned face up")
    cut_card_out = forms.BooleanField(
        required=False, label="The cut card came out this hand (the shoe is finished)"
    )


class DecideForm(RoundForm):
    seat = IntegerField(max_value=bounds.COUNT_MAX, widget=forms.HiddenInput)
    action = forms.ChoiceField(choices=[(a, a) for a in ("check", "play", "fold")])
    multiple = IntegerField(min_value=0, max_value=4, required=False)


class WaiveForm(forms.Form):
    fee_line_id = id_field(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=500, label="Why is the fee waived?")


class VoidForm(RoundForm):
    reason = forms.CharField(max_length=500, label="Why is the round void (misdeal)?")
    confirm = forms.BooleanField(
        label="Yes: void this round. Nothing is resolved and every wager goes back.",
        error_messages={"required": "tick the box to confirm the void"},
    )


# --- Fee schedules ----------------------------------------------------------------------------

RATE_KEYS = (
    ("wager_from_cents", "Player wager from ($)"),
    ("wager_to_cents", "to ($)"),
    ("player_fee_cents", "Player fee ($)"),
    ("player_dealer_fee_cents", "Player-dealer fee ($)"),
    ("action_from_cents", "Table action from ($)"),
    ("action_to_cents", "to ($, empty: and above)"),
)
RATE_ROWS = MAX_RATES  # no more than five collection rates per table (docs/rules.md §9.2)


class ScheduleForm(forms.Form):
    name = forms.CharField(max_length=100)
    table = ModelChoiceField(queryset=Table.objects.order_by("name"), required=False, label="Table")
    class_minimum = MoneyField(required=False, label="or limit class minimum ($)")
    class_maximum = MoneyField(required=False, label="and maximum ($)")


class VersionForm(forms.Form):
    """A new version of a schedule: up to five rows of flat amounts, in dollars."""

    schedule_id = id_field(widget=forms.HiddenInput)
    effective_at = InstantField(
        required=False,
        label="Takes effect (empty: now)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    player_dealer_basis = forms.ChoiceField(
        choices=[
            ("per_betting_square", "per betting square"),
            ("total_table_action", "on total table action"),
        ],
        label="Player-dealer fee",
    )
    charged_squares = forms.MultipleChoiceField(
        choices=[(s, WagerKind(s).label) for s in OPENING_SQUARES],
        initial=list(OPENING_SQUARES),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Betting squares charged",
    )
    note = forms.CharField(required=False, max_length=500)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for row in range(RATE_ROWS):
            for key, label in RATE_KEYS:
                # The label names the row: a refusal reads "Rate 2 · to ($): ...".
                self.fields[f"rate{row}_{key}"] = MoneyField(
                    required=False, label=f"Rate {row + 1} · {label}"
                )
                self.fields[f"rate{row}_{key}"].widget.attrs.update({"step": "0.01"})

    @classmethod
    def copy_of(cls, version) -> VersionForm:
        """A blank new version prefilled from ``version`` (its basis, squares and rates, in
        dollars); the time it takes effect and the note are left to the supervisor. ``None``:
        the empty form."""
        if version is None:
            form = cls()
        else:
            initial = {
                "player_dealer_basis": version.player_dealer_basis,
                "charged_squares": list(version.charged_squares),
            }
            rates = sorted(version.rates.all(), key=lambda rate: rate.position)
            for row, rate in enumerate(rates[:RATE_ROWS]):
                for key, _ in RATE_KEYS:
                    cents = getattr(rate, key)
                    if cents is not None:
                        initial[f"rate{row}_{key}"] = (Decimal(cents) / 100).quantize(
                            Decimal("0.01")
                        )
            form = cls(initial=initial)
        form.copied_from = version
        return form

    def rate_rows(self):
        """The rows as bound fields, for the template."""
        return [[self[f"rate{row}_{key}"] for key, _ in RATE_KEYS] for row in range(RATE_ROWS)]

    def rates(self) -> list[dict]:
        """The rows typed (blank rows left out) as the fee engine's rows, in cents."""
        rows = []
        for row in range(RATE_ROWS):
            raw = {key: self.data.get(f"rate{row}_{key}", "").strip() for key, _ in RATE_KEYS}
            if not any(raw.values()):
                continue
            rows.append(
                {
                    key: (self.cleaned_data[f"rate{row}_{key}"] if raw[key] else None)
                    for key, _ in RATE_KEYS
                }
            )
        return rows

    def field_for(self, service_field: str | None) -> str | None:
        """The form field a fee-engine error names: ``rates[1].wager_to_cents`` -> row 1's."""
        if not service_field:
            return None
        if service_field.startswith("rates[") and "]." in service_field:
            index, key = service_field[len("rates[") :].split("].", 1)
            key = {"wager": "wager_from_cents", "action": "action_from_cents"}.get(key, key)
            name = f"rate{index}_{key}"
            return name if name in self.fields else None
        return service_field if service_field in self.fields else None


# --- The drop count (docs/rules.md §10.4) ------------------------------------------------------


class DropFilterForm(forms.Form):
    """Which drop boxes the page shows: a gaming day (the current one if empty), a table."""

    gaming_day = GamingDayField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Gaming day"
    )
    table = ModelChoiceField(
        queryset=Table.objects.order_by("name"),
        required=False,
        empty_label="all tables",
        label="Table",
    )


class DropBoxForm(forms.Form):
    box_number = forms.CharField(max_length=32, label="Box number")
    table = ModelChoiceField(
        queryset=Table.objects.order_by("name"), label="Table", empty_label="choose a table"
    )
    gaming_day = GamingDayField(widget=forms.DateInput(attrs={"type": "date"}), label="Gaming day")
    shift = forms.ChoiceField(choices=(), label="Shift")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["shift"].choices = [(name, name) for name in shifts.names()]


class DropCountForm(forms.Form):
    """A count as the count team made it: the amount in dollars, at least two counters (one
    a line, or separated by commas), when it was counted."""

    amount = MoneyField(label="Amount counted ($)")
    counters = forms.CharField(
        max_length=500,
        label="Counted by (two or more names, commas between)",
    )
    counted_at = InstantField(
        label="Counted at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    note = forms.CharField(required=False, max_length=500, label="Note")

    def clean_counters(self) -> list[str]:
        names = self.cleaned_data["counters"].replace("\n", ",").split(",")
        return [name.strip() for name in names if name.strip()]


class PatronSignInForm(forms.Form):
    """A patron's own sign-in, issued by a floor supervisor (docs/rules.md §3.8)."""

    username = forms.CharField(max_length=150, label="User name")
    password = forms.CharField(
        max_length=128,
        label="First password (hand it to the player)",
        widget=forms.PasswordInput(render_value=False),
    )
