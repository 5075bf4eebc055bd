"""Admin of the tables app.

The floor's history (option changes, seatings, games, offers, rounds and their
transitions, hands and decisions) is read-only here: it is written only by the
services, which record who did what and when. Tables are read-only too: their
options change only through ``change_table_options``, which logs every change.
Players and TPPP registrations are the only records edited here; a player's identification
is shown (the number masked, docs/rules.md §3.3) but recorded and corrected only through
``create_player`` and ``update_player_identification`` (the console's players page, the API),
which check it and leave the change on the staff-action trail. A TPPP registration is added
here, but once recorded it is renewed or corrected only through ``update_tppp_registration``
(the console's player page, the API), which keeps every change with what it replaced.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin

from cardroom.clock import now
from tables.models import (
    TPPP_REGISTRATION_FIELDS,
    ButtonOffer,
    Exclusion,
    Game,
    Hand,
    HandDecision,
    MustMove,
    OfferRound,
    PatronSignIn,
    Player,
    PlayerIdentificationChange,
    Round,
    RoundTransition,
    SeatHold,
    Seating,
    SeatPass,
    Shoe,
    Table,
    TableChange,
    TableOptionChange,
    TPPPContract,
    TPPPRegistration,
    TPPPRegistrationChange,
    Waitlist,
    WaitlistEvent,
    WaitlistPolicyChange,
)
from tables.rules.identity import masked


class ReadOnlyAdminMixin:
    """View only: no add, change or delete, whoever asks."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    pass


class ReadOnlyTabularInline(ReadOnlyAdminMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True


# --- Players ----------------------------------------------------------------------------

IDENTIFICATION = ["id_type", "id_number_masked", "id_issued_by", "date_of_birth"]


TPPP_CHANGED_ELSEWHERE = (
    "Renewed or corrected on the player's page in the console (or PATCH /api/players/{id}/), "
    "which keeps every change with what it replaced."
)


class TPPPRegistrationAdminForm(forms.ModelForm):
    """A new registration is typed here; a recorded one is shown, not edited (its changes
    go through ``update_tppp_registration``, which keeps the history)."""

    class Meta:
        model = TPPPRegistration
        fields = ["player", *TPPP_REGISTRATION_FIELDS]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            for name in TPPP_REGISTRATION_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].help_text = TPPP_CHANGED_ELSEWHERE


class TPPPRegistrationInline(admin.StackedInline):
    model = TPPPRegistration
    form = TPPPRegistrationAdminForm
    extra = 0
    max_num = 1
    can_delete = False  # a registration explains past TPPP seatings; let its badge expire


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["player_number", "name", "is_tppp", "id_type", "id_number_masked", "created_at"]
    list_filter = [("tppp", admin.EmptyFieldListFilter)]
    search_fields = ["player_number", "name", "tppp__business_name", "tppp__badge_number"]
    list_select_related = ["tppp"]
    fields = ["player_number", "name", "created_at", *IDENTIFICATION]
    readonly_fields = ["created_at", *IDENTIFICATION]
    inlines = [TPPPRegistrationInline]

    @admin.display(description="ID number")
    def id_number_masked(self, player: Player) -> str:
        return player.id_number_masked

    @admin.display(boolean=True, description="TPPP")
    def is_tppp(self, player: Player) -> bool:
        return getattr(player, "tppp", None) is not None

    def save_model(self, request, obj, form, change):
        if obj.created_at is None:
            obj.created_at = now()
        super().save_model(request, obj, form, change)


@admin.register(TPPPRegistration)
class TPPPRegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", *TPPP_REGISTRATION_FIELDS]
    list_filter = ["business_name", "badge_expires_on"]
    search_fields = ["business_name", "badge_number", "player__name", "player__player_number"]
    list_select_related = ["player"]
    autocomplete_fields = ["player"]
    form = TPPPRegistrationAdminForm

    def get_readonly_fields(self, request, obj=None):
        return ["player"] if obj is not None else []

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# --- Tables -----------------------------------------------------------------------------


class TableOptionChangeInline(ReadOnlyTabularInline):
    model = TableOptionChange
    fields = ["option", "old_value", "new_value", "changed_at", "changed_by"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = [
        "name",
        "minimum_cents",
        "maximum_cents",
        "deal_mode",
        "offer_every_hand",
        "max_tppp_per_table",
        "rotation_window_minutes",
        "created_at",
    ]
    list_filter = ["deal_mode", "offer_every_hand", "backline_allowed"]
    search_fields = ["name"]
    inlines = [TableOptionChangeInline]


@admin.register(PatronSignIn)
class PatronSignInAdmin(ReadOnlyAdmin):
    """A patron's own sign-in (docs/rules.md §3.8): issued on the console, by a floor
    supervisor; read here. Its account is a user (deactivated there to end it)."""

    list_display = ["player", "user", "issued_at", "issued_by"]
    search_fields = ["player__name", "player__player_number", "user__username"]
    list_select_related = ["player", "user", "issued_by"]


@admin.register(TableOptionChange)
class TableOptionChangeAdmin(ReadOnlyAdmin):
    list_display = ["table", "option", "old_value", "new_value", "changed_at", "changed_by"]
    list_filter = ["table", "option"]
    search_fields = ["table__name", "option", "changed_by__username"]
    list_select_related = ["table", "changed_by"]
    date_hierarchy = "changed_at"


@admin.register(Seating)
class SeatingAdmin(ReadOnlyAdmin):
    list_display = ["table", "seat", "player", "is_tppp", "sat_at", "left_at", "seated_by"]
    list_filter = ["table", "is_tppp", ("left_at", admin.EmptyFieldListFilter)]
    search_fields = ["player__name", "player__player_number", "table__name"]
    list_select_related = ["table", "player", "seated_by"]
    date_hierarchy = "sat_at"


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["table", "opened_at", "opened_by", "first_offer_seat", "ended_at", "end_reason"]
    list_filter = ["table", "end_reason", ("ended_at", admin.EmptyFieldListFilter)]
    search_fields = ["table__name", "end_detail"]
    list_select_related = ["table", "opened_by"]
    date_hierarchy = "opened_at"


# --- The button -------------------------------------------------------------------------


class ButtonOfferInline(ReadOnlyTabularInline):
    model = ButtonOffer
    fields = [
        "seat",
        "player",
        "is_tppp",
        "offered_at",
        "offered_by",
        "answer",
        "answered_at",
        "answered_by",
        "reason",
    ]


@admin.register(OfferRound)
class OfferRoundAdmin(ReadOnlyAdmin):
    list_display = ["table", "game", "start_seat", "status", "started_at", "closed_at"]
    list_filter = ["status", "kept_without_offers", "table"]
    search_fields = ["table__name", "detail"]
    list_select_related = ["table", "game__table"]
    date_hierarchy = "started_at"
    inlines = [ButtonOfferInline]


@admin.register(ButtonOffer)
class ButtonOfferAdmin(ReadOnlyAdmin):
    list_display = [
        "offer_round",
        "seat",
        "player",
        "is_tppp",
        "answer",
        "offered_at",
        "answered_at",
        "offered_by",
    ]
    list_filter = ["answer", "is_tppp", "offer_round__table"]
    search_fields = ["player__name", "player__player_number", "reason"]
    list_select_related = ["offer_round__table", "player", "offered_by"]
    date_hierarchy = "offered_at"


# --- Rounds -----------------------------------------------------------------------------


def _withheld(cards):
    """Cards the rule lets anyone see, or "(withheld)" (docs/rules.md §2.6)."""
    return "(withheld)" if cards is None else cards


class RoundTransitionInline(ReadOnlyTabularInline):
    model = RoundTransition
    fields = ["from_state", "to_state", "at", "by"]


class HandInline(ReadOnlyTabularInline):
    model = Hand
    fields = ["seat", "player", "joined_at", "hole_cards", "category", "result"]
    readonly_fields = ["hole_cards"]

    @admin.display(description="hole cards")
    def hole_cards(self, hand: Hand):
        return _withheld(hand.shown_hole)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "number",
        "state",
        "deck",
        "player_dealer_seat",
        "player_dealer",
        "player_dealer_is_tppp",
        "consecutive_count",
        "started_at",
        "ended_at",
    ]
    list_filter = ["state", "table", "deck", "deal_mode", "player_dealer_is_tppp"]
    search_fields = ["table__name", "player_dealer__name", "player_dealer__player_number"]
    list_select_related = ["table", "player_dealer"]
    date_hierarchy = "started_at"
    # Hole cards and the deck stay secret until the showdown, here as everywhere
    # (docs/rules.md §2.6).
    exclude = ["dealer_hole", "shuffled_deck"]
    readonly_fields = ["dealer_cards", "deck_order"]
    inlines = [RoundTransitionInline, HandInline]

    @admin.display(description="player-dealer's hole cards")
    def dealer_cards(self, round_: Round):
        return _withheld(round_.shown_dealer_hole)

    @admin.display(description="shuffled deck (RNG deal)")
    def deck_order(self, round_: Round):
        return _withheld(round_.shown_deck)


@admin.register(Shoe)
class ShoeAdmin(ReadOnlyAdmin):
    """A baccarat table's shoe: its decks, where it stands, the cards dealt so far. Its order
    and its burned cards are secret for ever (docs/rules.md §2.6, §14.2): never shown here."""

    list_display = ["table", "decks", "position", "cut_position", "started_at", "finished_at"]
    list_filter = ["table", "decks"]
    search_fields = ["table__name"]
    list_select_related = ["table"]
    date_hierarchy = "started_at"
    exclude = list(Shoe.secret_columns)


@admin.register(RoundTransition)
class RoundTransitionAdmin(ReadOnlyAdmin):
    list_display = ["round", "from_state", "to_state", "at", "by"]
    list_filter = ["to_state", "round__table"]
    search_fields = ["round__table__name", "by__username"]
    list_select_related = ["round__table", "by"]
    date_hierarchy = "at"


class HandDecisionInline(ReadOnlyTabularInline):
    model = HandDecision
    fields = ["street", "action", "multiple", "at", "by"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["round", "seat", "player", "hole_cards", "category", "result"]
    list_filter = ["result", "round__table"]
    search_fields = ["player__name", "player__player_number", "round__table__name"]
    list_select_related = ["round__table", "player"]
    exclude = ["hole"]
    readonly_fields = ["hole_cards"]
    inlines = [HandDecisionInline]

    def get_queryset(self, request):
        # A voided round's transitions say whether its cards were shown (one query a page).
        return super().get_queryset(request).prefetch_related("round__transitions")

    @admin.display(description="hole cards")
    def hole_cards(self, hand: Hand):
        return _withheld(hand.shown_hole)


@admin.register(HandDecision)
class HandDecisionAdmin(ReadOnlyAdmin):
    list_display = ["hand", "street", "action", "multiple", "at", "by"]
    list_filter = ["street", "action"]
    search_fields = ["hand__player__name", "by__username"]
    list_select_related = ["hand__round__table", "by"]
    date_hierarchy = "at"


# --- Waitlists and seat holds: read only (written by the services, docs/rules.md §3.6) ------


class WaitlistPolicyChangeInline(ReadOnlyTabularInline):
    model = WaitlistPolicyChange
    fields = ["at", "by", "response_seconds", "call_in_seconds", "pass_over"]


@admin.register(Waitlist)
class WaitlistAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "response_seconds", "call_in_seconds", "pass_over", "created_at"]
    search_fields = ["minimum_cents", "maximum_cents"]
    inlines = [WaitlistPolicyChangeInline]


@admin.register(WaitlistPolicyChange)
class WaitlistPolicyChangeAdmin(ReadOnlyAdmin):
    list_display = ["waitlist", "at", "by", "response_seconds", "call_in_seconds", "pass_over"]
    search_fields = ["by__username"]
    list_select_related = ["waitlist", "by"]


@admin.register(WaitlistEvent)
class WaitlistEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "waitlist", "kind", "player", "table", "seat", "reason", "by"]
    list_filter = ["kind", "reason", "waitlist"]
    search_fields = ["player__name", "player__player_number", "by__username"]
    list_select_related = ["waitlist", "player", "table", "by"]
    date_hierarchy = "at"


@admin.register(SeatHold)
class SeatHoldAdmin(ReadOnlyAdmin):
    list_display = ["table", "seat", "player", "held_at", "until", "ended_at", "end"]
    list_filter = ["end", ("ended_at", admin.EmptyFieldListFilter)]
    search_fields = ["player__name", "player__player_number", "table__name"]
    list_select_related = ["table", "player"]
    date_hierarchy = "held_at"


@admin.register(MustMove)
class MustMoveAdmin(ReadOnlyAdmin):
    list_display = ["table", "main_table", "started_at", "started_by", "ended_at", "end"]
    list_filter = [("ended_at", admin.EmptyFieldListFilter)]
    list_select_related = ["table", "main_table", "started_by"]
    date_hierarchy = "started_at"


@admin.register(TableChange)
class TableChangeAdmin(ReadOnlyAdmin):
    list_display = ["asked_at", "player", "from_table", "to_table", "ended_at", "end"]
    list_filter = ["end", ("ended_at", admin.EmptyFieldListFilter)]
    search_fields = ["player__name", "player__player_number"]
    list_select_related = ["player", "from_table", "to_table"]
    date_hierarchy = "asked_at"


@admin.register(SeatPass)
class SeatPassAdmin(ReadOnlyAdmin):
    list_display = ["at", "table", "seat", "player", "by"]
    search_fields = ["player__name", "player__player_number"]
    list_select_related = ["table", "player", "by"]
    date_hierarchy = "at"


@admin.register(PlayerIdentificationChange)
class PlayerIdentificationChangeAdmin(ReadOnlyAdmin):
    """Corrections of players' identification, the numbers masked."""

    list_display = ["changed_at", "player", "changed_by", "replaced", "recorded"]
    fields = ["changed_at", "player", "changed_by", "replaced", "recorded"]
    readonly_fields = fields
    search_fields = ["player__name", "player__player_number", "changed_by__username"]
    list_select_related = ["player", "changed_by"]
    date_hierarchy = "changed_at"

    @staticmethod
    def _shown(values: dict) -> str:
        shown = {**values, "id_number": masked(values.get("id_number") or "")}
        return ", ".join(f"{name}: {value or '-'}" for name, value in shown.items())

    @admin.display(description="replaced")
    def replaced(self, change: PlayerIdentificationChange) -> str:
        return self._shown(change.old_value)

    @admin.display(description="recorded")
    def recorded(self, change: PlayerIdentificationChange) -> str:
        return self._shown(change.new_value)


@admin.register(TPPPRegistrationChange)
class TPPPRegistrationChangeAdmin(ReadOnlyAdmin):
    """Renewals and corrections of TPPP registrations: what each replaced and recorded."""

    list_display = ["changed_at", "registration", "changed_by", "replaced", "recorded"]
    fields = ["changed_at", "registration", "changed_by", "replaced", "recorded"]
    readonly_fields = fields
    search_fields = [
        "registration__business_name",
        "registration__badge_number",
        "registration__player__name",
        "registration__player__player_number",
        "changed_by__username",
    ]
    list_select_related = ["registration__player", "changed_by"]
    date_hierarchy = "changed_at"

    @admin.display(description="replaced")
    def replaced(self, change: TPPPRegistrationChange) -> str:
        return ", ".join(f"{what}: {old or '-'}" for what, old, _ in change.differences())

    @admin.display(description="recorded")
    def recorded(self, change: TPPPRegistrationChange) -> str:
        return ", ".join(f"{what}: {new or '-'}" for what, _, new in change.differences())


@admin.register(Exclusion)
class ExclusionAdmin(ReadOnlyAdmin):
    """The barred and self-restricted list (docs/rules.md §3.9), kept through the console."""

    list_display = ["player", "kind", "starts_on", "ends_on", "recorded_by", "lifted_at"]
    list_filter = ["kind"]
    search_fields = ["player__name", "player__player_number"]
    list_select_related = ["player", "recorded_by"]


@admin.register(TPPPContract)
class TPPPContractAdmin(ReadOnlyAdmin):
    """TPPP contracts (docs/rules.md §8.7): a renewal is a new contract, never an edit."""

    list_display = ["registration", "starts_on", "ends_on", "opens_at", "closes_at",
                    "approval_number"]  # fmt: skip
    list_select_related = ["registration"]
