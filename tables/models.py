"""The cardroom floor: players, tables and their options, seats, games, the button, rounds.

Write paths live in ``tables/services/``, read paths in ``tables/selectors/``;
the rules themselves in ``tables/rules/`` (no Django). Rows that are history
(offers, transitions, option changes, settled rounds) are only ever inserted.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q

from cardroom.errors import ACTIVE_ROUND_STATES, ROUND_STATES, State
from cardroom.money import dollar_range
from games.catalog import CHOICES as GAME_CHOICES
from games.catalog import DEFAULT_GAME, at_stakes, listing
from games.interface import Listing
from tables.rules.decisions import (
    DEFAULT_PREFLOP_MULTIPLES,
    Action,
    Decision,
    DecisionRecord,
    Street,
)
from tables.rules.identity import board_name, masked
from tables.rules.rotation import BankedHand
from tables.rules.seats import MOST_SEATS, SEAT_COUNT, seat_label, seat_numbers
from tables.rules.visibility import CardKind, card_visible
from tables.rules.waitlist import Kind as WaitlistKind
from tables.rules.waitlist import PassOver

# Every seat any table may have (a table's own count is its ``seat_count``, checked by the
# floor's services against its game's seat counts).
SEAT_NUMBERS = [(seat, seat_label(seat)) for seat in seat_numbers(MOST_SEATS)]
ROUND_STATE_CHOICES = [(state.value, state.label) for state in ROUND_STATES]


def default_preflop_multiples() -> list[int]:
    return list(DEFAULT_PREFLOP_MULTIPLES)


def default_trips_paytable() -> str:
    return "UTH-01"


def default_bad_beat_paytable() -> str:
    return "option-1"


class IdType(models.TextChoices):
    """The identification a currency transaction log records (docs/rules.md §3.3)."""

    DRIVER_LICENSE = "driver_license", "Driver's license"
    STATE_ID = "state_id", "State ID card"
    PASSPORT = "passport", "Passport"
    MILITARY_ID = "military_id", "Military ID"
    PERMANENT_RESIDENT = "permanent_resident", "Permanent resident card"
    OTHER = "other", "Other government ID"


class Player(models.Model):
    """A patron known to the cardroom. Staff are users, never players.

    The identification fields are what a Title 31 currency transaction log needs; the
    number is shown masked everywhere but the player's own record (``id_number_masked``).
    """

    player_number = models.CharField(max_length=32, unique=True)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField()
    id_type = models.CharField(max_length=32, choices=IdType.choices, blank=True)
    id_number = models.CharField(max_length=64, blank=True)
    id_issued_by = models.CharField(max_length=64, blank=True)  # the state or country
    date_of_birth = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["player_number"]
        constraints = [
            # An ID number is recorded with its type, and a type with its number.
            models.CheckConstraint(
                condition=Q(id_type="", id_number="") | (~Q(id_type="") & ~Q(id_number="")),
                name="player_id_type_with_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.player_number})"

    @property
    def id_number_masked(self) -> str:
        """The ID number with all but its last four characters hidden."""
        return masked(self.id_number)

    @property
    def board_name(self) -> str:
        """How the table board names the player ("Maria G.")."""
        return board_name(self.name)


class Correction(models.Model):
    """A change of a record kept as history: who, when, the values it replaced and those it
    recorded (never edited: the database refuses it)."""

    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    old_value = models.JSONField()
    new_value = models.JSONField()

    class Meta:
        abstract = True
        ordering = ["changed_at", "id"]


class PlayerIdentificationChange(Correction):
    """A correction of a player's identification (the numbers are shown masked)."""

    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="identification_changes"
    )

    def __str__(self) -> str:
        return f"{self.player} identification changed {self.changed_at:%Y-%m-%d %H:%M}"


class TPPPRegistration(models.Model):
    """A third-party proposition player's registration: the business and the badge."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="tppp")
    business_name = models.CharField(max_length=200)
    badge_number = models.CharField(max_length=64)
    badge_expires_on = models.DateField()

    class Meta:
        verbose_name = "TPPP registration"

    def __str__(self) -> str:
        return f"{self.business_name} badge {self.badge_number}"


class PatronSignIn(models.Model):
    """A patron's own sign-in (docs/rules.md §3.8): a user account, never staff, linked to
    one player (a player-dealer, a TPPP), issued by a floor supervisor. It reads that
    player's own bankroll, ledger lines and theo, and nothing else (``/console/me/``,
    ``/api/me/``); it holds no role (``cardroom.roles``: not staff)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="patron"
    )
    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="sign_in")
    issued_at = models.DateTimeField()
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = "patron sign-in"

    def __str__(self) -> str:
        return f"{self.user.username}: {self.player}"


TPPP_REGISTRATION_LABELS = {
    "business_name": "business",
    "badge_number": "badge number",
    "badge_expires_on": "badge expires on",
}
TPPP_REGISTRATION_FIELDS = tuple(TPPP_REGISTRATION_LABELS)  # what a registration records


class TPPPRegistrationChange(Correction):
    """A change of a TPPP's registration: a badge renewed with a new expiry, a corrected
    business name or badge number (docs/rules.md §8.7)."""

    registration = models.ForeignKey(
        TPPPRegistration, on_delete=models.PROTECT, related_name="changes"
    )

    class Meta(Correction.Meta):
        verbose_name = "TPPP registration change"

    def __str__(self) -> str:
        return f"{self.registration} changed {self.changed_at:%Y-%m-%d %H:%M}"

    def differences(self) -> list[tuple[str, str, str]]:
        """Each value changed, in the floor's words: (what, replaced, recorded)."""
        return [
            (label, str(self.old_value.get(name) or ""), str(self.new_value.get(name) or ""))
            for name, label in TPPP_REGISTRATION_LABELS.items()
            if self.old_value.get(name) != self.new_value.get(name)
        ]


class DealMode(models.TextChoices):
    RNG = "rng", "RNG deal"
    CARD_ENTRY = "card_entry", "Card entry"


class Table(models.Model):
    """A table of one game and its options sheet (changed only between rounds, every change
    logged). The game is chosen when the table is created and never changes."""

    name = models.CharField(max_length=64, unique=True)
    game = models.CharField(
        max_length=32, choices=GAME_CHOICES, default=DEFAULT_GAME, db_default=DEFAULT_GAME
    )
    # The seats, 1 to ``seat_count`` (Ultimate Texas Hold'em 6; EZ Baccarat 6 to 9).
    seat_count = models.PositiveSmallIntegerField(default=SEAT_COUNT, db_default=SEAT_COUNT)
    # The options that are the game's alone (``games.interface.Game.own_options``) but are
    # no column of their own: EZ Baccarat's decks, pays, cut card and side wagers' maximum.
    game_options = models.JSONField(default=dict, db_default={}, blank=True)
    minimum_cents = models.PositiveIntegerField(default=500)
    maximum_cents = models.PositiveIntegerField(default=50_000)
    chip_unit_cents = models.PositiveIntegerField(default=100)
    preflop_multiples = models.JSONField(default=default_preflop_multiples)
    trips_paytable = models.JSONField(default=default_trips_paytable)  # a name, or odds in full
    bad_beat_paytable = models.JSONField(null=True, blank=True, default=default_bad_beat_paytable)
    backline_allowed = models.BooleanField(default=True)
    deal_mode = models.CharField(max_length=16, choices=DealMode.choices, default=DealMode.RNG)
    # The rotation policy (docs/rules.md §8); the California 2026 policy by default.
    max_consecutive_hands = models.PositiveSmallIntegerField(default=2)
    offer_every_hand = models.BooleanField(default=True)
    max_tppp_per_table = models.PositiveSmallIntegerField(null=True, blank=True, default=1)
    tppp_may_bank_twice_in_a_row = models.BooleanField(default=False)
    rotation_window_minutes = models.PositiveSmallIntegerField(null=True, blank=True, default=40)
    min_non_tppp_dealers_in_window = models.PositiveSmallIntegerField(default=2)
    created_at = models.DateTimeField()
    # A closed table takes no players and opens no game until it is reopened.
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Bumped by every write that holds the table's lock (``tables.services.locks``): the
    # floor map and the board render a table's part once per version, not once per viewer.
    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(minimum_cents__lte=models.F("maximum_cents")),
                name="table_minimum_not_above_maximum",
            ),
            models.CheckConstraint(
                condition=Q(chip_unit_cents__gte=1), name="table_chip_unit_positive"
            ),
            models.CheckConstraint(
                condition=Q(max_consecutive_hands__gte=1, max_consecutive_hands__lte=2),
                name="table_consecutive_hands_at_most_two",
            ),
            models.CheckConstraint(
                condition=Q(seat_count__gte=2, seat_count__lte=MOST_SEATS),
                name="table_seat_count_2_to_9",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def game_listing(self) -> Listing:
        """The table's game as the floor sees it (``games.catalog``): its name, its seats, its
        own options."""
        return listing(self.game)


class TableOptionChange(models.Model):
    """One option changed between rounds: who, when, old and new values."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="option_changes")
    option = models.CharField(max_length=64)
    old_value = models.JSONField(null=True)
    new_value = models.JSONField(null=True)
    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.table} {self.option}: {self.old_value!r} -> {self.new_value!r}"


class Seating(models.Model):
    """A player in a seat from ``sat_at`` until ``left_at``."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seatings")
    seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seatings")
    is_tppp = models.BooleanField(default=False)  # registered TPPP at the time of seating
    sat_at = models.DateTimeField()
    seated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    left_at = models.DateTimeField(null=True, blank=True)
    unseated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["table", "seat", "sat_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=Q(left_at__isnull=True),
                name="one_player_per_seat",
            ),
            # A patron sits in one seat at a time, at one table at a time.
            models.UniqueConstraint(
                fields=["player"], condition=Q(left_at__isnull=True), name="one_seat_per_player"
            ),
            models.CheckConstraint(
                condition=Q(seat__gte=1, seat__lte=MOST_SEATS), name="seat_number_1_to_9"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.player}"


class GameEndReason(models.TextChoices):
    CLOSED = "closed", "Closed by the floor supervisor"
    ROTATION_WINDOW = "rotation_window", "40-minute rotation rule (docs/rules.md §8.12)"


class Game(models.Model):
    """A game at a table, from its opening by a floor supervisor to its end."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="games")
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    first_offer_seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    end_reason = models.CharField(max_length=32, choices=GameEndReason.choices, blank=True)
    end_detail = models.TextField(blank=True)

    class Meta:
        ordering = ["table", "opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(ended_at__isnull=True), name="one_open_game_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} game opened {self.opened_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


class OfferRoundStatus(models.TextChoices):
    OPEN = "open", "Offers going round"
    ACCEPTED = "accepted", "Accepted"
    EXHAUSTED = "exhausted", "No eligible player accepted"
    CANCELLED = "cancelled", "Cancelled"


class OfferRound(models.Model):
    """The button offered seat by seat before a hand (docs/rules.md §8.3)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="offer_rounds")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="offer_rounds")
    start_seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=16, choices=OfferRoundStatus.choices)
    # True when the player-dealer kept the position for a second hand without offers
    # (only with "offer every hand" off).
    kept_without_offers = models.BooleanField(default=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    detail = models.TextField(blank=True)

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="open"),
                name="one_open_offer_round_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} offers from seat {self.start_seat} ({self.status})"


class OfferAnswer(models.TextChoices):
    PENDING = "pending", "Awaiting an answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    INELIGIBLE = "ineligible", "Passed over: not eligible"
    WITHDRAWN = "withdrawn", "Withdrawn: the player left"


class ButtonOffer(models.Model):
    """One offer of the position to one seated player, and the answer."""

    offer_round = models.ForeignKey(OfferRound, on_delete=models.PROTECT, related_name="offers")
    seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="button_offers")
    is_tppp = models.BooleanField(default=False)
    offered_at = models.DateTimeField()
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    answer = models.CharField(
        max_length=16, choices=OfferAnswer.choices, default=OfferAnswer.PENDING
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["offered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["offer_round"],
                condition=Q(answer="pending"),
                name="one_pending_offer_per_round",
            ),
            models.UniqueConstraint(
                fields=["offer_round"],
                condition=Q(answer="accepted"),
                name="one_acceptance_per_offer_round",
            ),
        ]

    def __str__(self) -> str:
        return f"offer to seat {self.seat}: {self.answer}"


class Round(models.Model):
    """One hand at a table, from wagering to settlement (docs/rules.md §2-§7).

    Its steps are taken by the round lifecycle (``rounds.services``); the floor reads
    rounds for the button's history.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()  # per table, 1, 2, 3, ...
    deck = models.CharField(max_length=1, choices=[("A", "Deck A"), ("B", "Deck B")])
    state = models.CharField(max_length=16, choices=ROUND_STATE_CHOICES)
    offer_round = models.OneToOneField(OfferRound, on_delete=models.PROTECT, related_name="round")
    player_dealer = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="banked_rounds"
    )
    player_dealer_seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    player_dealer_is_tppp = models.BooleanField(default=False)
    consecutive_count = models.PositiveSmallIntegerField()  # 1 or 2: hands in a row banked
    tppps_seated = models.PositiveSmallIntegerField(default=0)
    options = models.JSONField()  # the options sheet in force, frozen for replay and audit
    # A game dealt from a shoe (EZ Baccarat): the shoe and the coup's two hands, in the order
    # each hand received its cards; recorded at the showdown, when they are turned face up.
    shoe = models.ForeignKey(
        "Shoe", null=True, blank=True, on_delete=models.PROTECT, related_name="rounds"
    )
    player_cards = models.JSONField(null=True, blank=True)
    banker_cards = models.JSONField(null=True, blank=True)
    deal_mode = models.CharField(max_length=16, choices=DealMode.choices)
    shuffled_deck = models.JSONField(null=True, blank=True)  # RNG deal: the 52 cards in order
    dealer_hole = models.JSONField(null=True, blank=True)
    board = models.JSONField(default=list)  # the community cards shown so far
    dealer_category = models.CharField(max_length=32, blank=True)
    dealer_qualifies = models.BooleanField(null=True)
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)

    # The columns holding hidden cards (docs/rules.md §2.6): shown only as the rule allows
    # (``shows``, ``shown_dealer_hole``, ``shown_deck``), and never searched, filtered, sorted
    # or counted by, by anyone, in any state (``cardroom.secret_columns``). The board holds
    # only the cards turned up; the showdown's columns (``dealer_category``,
    # ``dealer_qualifies``, a hand's ``category`` and ``result``) are written with the move to
    # the showdown, when the cards they come from are shown.
    secret_columns = {
        "dealer_hole": CardKind.PLAYER_DEALER_HOLE,
        "shuffled_deck": CardKind.DECK,
    }

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], name="round_number_unique_per_table"
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(state__in=[state.value for state in ACTIVE_ROUND_STATES]),
                name="one_active_round_per_table",
            ),
            models.CheckConstraint(
                condition=Q(consecutive_count__gte=1), name="round_consecutive_count_positive"
            ),
        ]
        indexes = [models.Index(fields=["game", "started_at"])]

    def __str__(self) -> str:
        return f"{self.table} round {self.number}"

    @property
    def reached_showdown(self) -> bool:
        """Whether the hand entered the showdown. Its state says so, except for a voided
        hand: its transitions say whether it was voided from the showdown (prefetch
        ``transitions`` for many rounds, or filter with ``reached_showdown()``)."""
        if self.state != State.VOIDED:
            return self.state in (State.SHOWDOWN, State.SETTLED)
        return any(t.to_state == State.SHOWDOWN for t in self.transitions.all())

    def shows(self, kind: CardKind) -> bool:
        """Whether cards of ``kind`` of this hand may be seen: the one rule, docs/rules.md
        §2.6 (``tables.rules.visibility``)."""
        return card_visible(kind, self.state, reached_showdown=self.reached_showdown)

    @property
    def cards_revealed(self) -> bool:
        """The hole cards and the stored RNG deck are shown (from the showdown on)."""
        return self.shows(CardKind.PLAYER_DEALER_HOLE)

    @property
    def shown_dealer_hole(self) -> list[str] | None:
        """The player-dealer's hole cards, or None while they are withheld."""
        return self.dealer_hole if self.shows(CardKind.PLAYER_DEALER_HOLE) else None

    @property
    def shown_deck(self) -> list[str] | None:
        """The stored RNG deck, or None while it is withheld."""
        return self.shuffled_deck if self.shows(CardKind.DECK) else None

    def banked_hand(self) -> BankedHand:
        """This hand as the rotation rules see it: who banked, when, how many TPPPs sat."""
        return BankedHand(*(getattr(self, field) for field in BANKED_HAND_FIELDS))


# A round's columns in the order of ``BankedHand``'s fields: the one mapping from a stored
# round to the rotation rules' view of it (a model instance, or a ``values_list`` row).
BANKED_HAND_FIELDS = (
    "pk",
    "game_id",
    "started_at",
    "player_dealer_seat",
    "player_dealer_id",
    "player_dealer_is_tppp",
    "tppps_seated",
)


class Shoe(models.Model):
    """A shoe of a table whose game keeps one across hands (``Listing.shoe``; EZ Baccarat,
    docs/rules.md §14.2): shuffled when it starts, dealt in order until the cut card comes out,
    and finished with the hand in progress then. ``shoe_order`` (every card, top first) and
    ``burned_cards`` are secret, for everyone and in every interface; the cards dealt so far are
    ``dealt`` and each hand's on its round. At a card-entry table the shoe is the house
    dealer's: no order is stored, and the cards keyed are checked against what it can hold."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    decks = models.PositiveSmallIntegerField()
    shoe_order = models.JSONField(null=True, blank=True)  # RNG tables: the shuffled order
    burned_cards = models.JSONField(default=list, blank=True)
    position = models.PositiveIntegerField(default=0)  # the next card's index in ``order``
    cut_position = models.PositiveIntegerField(null=True, blank=True)
    dealt = models.JSONField(default=list, blank=True)  # the cards dealt, in order, by hands
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)  # the cut card came out

    # Hidden for ever: the undealt cards are the deck's secret (docs/rules.md §2.6, §14.2).
    secret_columns = {"shoe_order": CardKind.DECK, "burned_cards": CardKind.DECK}

    class Meta:
        ordering = ["table", "started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(finished_at__isnull=True), name="one_shoe_in_use"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} shoe of {self.started_at:%Y-%m-%d %H:%M}"


class RoundTransition(models.Model):
    """Who moved a round from one state to the next, and when."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="transitions")
    from_state = models.CharField(max_length=16, choices=ROUND_STATE_CHOICES, blank=True)
    to_state = models.CharField(max_length=16, choices=ROUND_STATE_CHOICES)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "to_state"], name="each_state_entered_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.from_state or '-'} -> {self.to_state}"


class HandResultChoice(models.TextChoices):
    WIN = "win", "beats the player-dealer"
    LOSE = "lose", "loses to the player-dealer"
    TIE = "tie", "ties the player-dealer"
    FOLD = "fold", "folded"


class Hand(models.Model):
    """A seat's hand in a round: its cards, its decisions, and how it ended."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="hands")
    seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hands")
    joined_at = models.DateTimeField()
    hole = models.JSONField(null=True, blank=True)
    category = models.CharField(max_length=32, blank=True)
    result = models.CharField(max_length=8, choices=HandResultChoice.choices, blank=True)

    # Hidden until the showdown, never searched, filtered or sorted by (as ``Round``'s).
    secret_columns = {"hole": CardKind.PLAYER_HOLE}

    class Meta:
        ordering = ["round", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="one_hand_per_seat_per_round"),
            models.UniqueConstraint(
                fields=["round", "player"], name="one_hand_per_player_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} seat {self.seat}"

    @property
    def shown_hole(self) -> list[str] | None:
        """The seat's hole cards, or None while they are withheld (docs/rules.md §2.6)."""
        return self.hole if self.round.shows(CardKind.PLAYER_HOLE) else None

    def decision_record(self) -> DecisionRecord:
        """The hand's decisions as the rules see them, in the order they were made (reads
        ``decisions`` once; prefetch them for many hands)."""
        return decision_record(self.decisions.all())


class HandDecision(models.Model):
    """One decision of a hand (docs/rules.md §5), as the house dealer recorded it."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="decisions")
    street = models.CharField(max_length=8, choices=[(s.value, s.value) for s in Street])
    action = models.CharField(max_length=8, choices=[(a.value, a.value) for a in Action])
    multiple = models.PositiveSmallIntegerField(default=0)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "street"], name="one_decision_per_street"),
        ]

    def __str__(self) -> str:
        return f"{self.hand} {self.street}: {self.action}"

    def as_rule(self) -> Decision:
        return Decision(Street(self.street), Action(self.action), self.multiple)


def decision_record(decisions: Iterable[HandDecision]) -> DecisionRecord:
    """A hand's decisions (its rows, however read) as the rules see them, in the order they
    were made: by id (a hand decides at most once a street, a database constraint, and the
    streets in their order); the one home of a hand's decision record."""
    made = sorted(decisions, key=lambda decision: decision.pk)
    return DecisionRecord(tuple(decision.as_rule() for decision in made))


def reached_showdown(round_ref: str = "pk") -> Exists:
    """A query expression: the round (``round_ref``, an outer reference) entered the
    showdown, by its transitions; ``Round.reached_showdown`` for many rounds in one query."""
    return Exists(
        RoundTransition.objects.filter(round=OuterRef(round_ref), to_state=State.SHOWDOWN)
    )


class Waitlist(models.Model):
    """The list for one game at one stakes (a table's game and limits) and its policy
    (docs/rules.md §3.6): a player waiting for "$20.00 - $2,000.00 EZ Baccarat" is called only to a
    table of that game at those limits.

    Who is on it, in what order, and who is called is never stored: it is the replay of its
    events (``WaitlistEvent``). The policy in force is here; every change of it is a
    ``WaitlistPolicyChange`` (the first recorded when the list is opened), so a replay
    applies each event under the policy of its time.
    """

    game = models.CharField(
        max_length=32, choices=GAME_CHOICES, default=DEFAULT_GAME, db_default=DEFAULT_GAME
    )
    minimum_cents = models.PositiveIntegerField()
    maximum_cents = models.PositiveIntegerField()
    response_seconds = models.PositiveIntegerField(default=180)
    call_in_seconds = models.PositiveIntegerField(default=1800)
    pass_over = models.CharField(
        max_length=16,
        choices=[(p.value, p.value.replace("_", " ")) for p in PassOver],
        default=PassOver.KEEP_PLACE,
    )
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # The list was empty after this event (its id): a replay starts after it, so a list's
    # cost does not grow with its history. Kept by the services; a replay from the first
    # event gives the same list (tests/tables/services/test_waitlists.py proves it).
    empty_after_event = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["minimum_cents", "maximum_cents", "game"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "minimum_cents", "maximum_cents"],
                name="one_waitlist_per_game_and_stakes",
            ),
            models.CheckConstraint(
                condition=Q(response_seconds__gte=60, call_in_seconds__gte=60),
                name="waitlist_timers_at_least_a_minute",
            ),
        ]

    def __str__(self) -> str:
        return at_stakes(self.minimum_cents, self.maximum_cents, self.game)

    @property
    def game_listing(self) -> Listing:
        return listing(self.game)


class WaitlistPolicyChange(models.Model):
    """The policy a list took from ``at`` on: who set it, when (history, never edited)."""

    waitlist = models.ForeignKey(Waitlist, on_delete=models.PROTECT, related_name="policies")
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    response_seconds = models.PositiveIntegerField()
    call_in_seconds = models.PositiveIntegerField()
    pass_over = models.CharField(max_length=16)
    # The list's last event when the policy changed (none: the list was new): the policy
    # applies to the events recorded after it.
    after_event = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.waitlist} policy from {self.at:%Y-%m-%d %H:%M}"


WAITLIST_KINDS = [(k.value, k.value.replace("_", " ")) for k in WaitlistKind]


class WaitlistEvent(models.Model):
    """One change to a list: what, whose, when and by whom (``by`` empty: the clock, a
    call not answered in time or a call-in not checked in). History, never edited."""

    waitlist = models.ForeignKey(Waitlist, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=16, choices=WAITLIST_KINDS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="waitlist_events")
    at = models.DateTimeField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    by_phone = models.BooleanField(default=False)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="waitlist_events"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True, choices=SEAT_NUMBERS)
    skipped = models.JSONField(default=list, blank=True)  # CALLED: players ahead not called
    # WITHDRAWN: why the call ended; REMOVED/JOINED: the list moved (tables.rules.waitlist.Reason)
    reason = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["waitlist", "at", "id"], name="waitlist_event_order")]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind__in=["called", "seated"], table__isnull=False, seat__isnull=False)
                    | (~Q(kind__in=["called", "seated"]) & Q(table__isnull=True, seat__isnull=True))
                ),
                name="waitlist_event_seat_for_calls_and_seating",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.waitlist} {self.kind} player {self.player_id} at {self.at:%H:%M:%S}"


class HoldEnd(models.TextChoices):
    RETURNED = "returned", "The player came back"
    PICKED_UP = "picked_up", "Picked up: the seat went to the list"
    LEFT = "left", "The player left the seat"


class SeatHold(models.Model):
    """A seated player stepped away: their seat is held until ``until``. Once it has run
    out the seat is offered to the list; it ends when the player comes back, leaves, or is
    picked up for the player called to the seat."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="holds")
    seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="holds")
    held_at = models.DateTimeField()
    until = models.DateTimeField()
    held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    end = models.CharField(max_length=16, choices=HoldEnd.choices, blank=True)

    class Meta:
        ordering = ["held_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=Q(ended_at__isnull=True),
                name="one_hold_per_seat",
            ),
            models.CheckConstraint(
                condition=Q(until__gt=models.F("held_at")), name="hold_ends_later"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat} held for {self.player} until {self.until:%H:%M}"


# --- Must-move tables and table changes (docs/rules.md §3.6) ------------------------------------


class MustMove(models.Model):
    """A must-move table feeding a main game of the same stakes: as seats open at the main
    table its players move there, first come (to the must-move table) first moved. Active
    while ``ended_at`` is empty; history, never edited but to end it."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="must_moves")
    main_table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="fed_by")
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    end = models.CharField(max_length=16, blank=True)  # tables.rules.seat_requests.End

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(ended_at__isnull=True), name="one_must_move_link"
            ),
            models.CheckConstraint(
                condition=~Q(table=models.F("main_table")), name="must_move_feeds_another"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} must move to {self.main_table}"


class TableChange(models.Model):
    """A seated player asked to move to another table of the stakes they play (``to_table``
    empty: any of them) or to a named one. Open while ``ended_at`` is empty."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="table_changes")
    from_table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    to_table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="table_changes"
    )
    minimum_cents = models.PositiveIntegerField()  # the stakes asked for
    maximum_cents = models.PositiveIntegerField()
    asked_at = models.DateTimeField()
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    end = models.CharField(max_length=16, blank=True)  # tables.rules.seat_requests.End
    moved_to = models.ForeignKey(
        Seating, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["asked_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(ended_at__isnull=True), name="one_table_change"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} from {self.from_table} to {self.to_table or 'any table'}"

    @property
    def stakes(self) -> str:
        return dollar_range(self.minimum_cents, self.maximum_cents)


class SeatPass(models.Model):
    """A must-move player or a table change passed a seat offered to them: the seat goes to
    the next in line; they keep their place for the next one (history, never edited)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(choices=SEAT_NUMBERS)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["at", "id"]
        verbose_name_plural = "seat passes"

    def __str__(self) -> str:
        return f"{self.player} passed {self.table} seat {self.seat}"


class ExclusionKind(models.TextChoices):
    BARRED = "barred", "Barred by the cardroom"
    SELF_RESTRICTED = "self_restricted", "Self-restricted (the Bureau's program)"


class Exclusion(models.Model):
    """A patron kept off the tables (docs/rules.md §3.9): barred by the cardroom, or enrolled
    in the Bureau's self-restriction program, from a day until a day (none: until lifted).
    Kept by floor supervisors and compliance; never edited or deleted, only lifted once
    (who, when, why), so the list's history stays whole."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="exclusions")
    kind = models.CharField(max_length=16, choices=ExclusionKind.choices)
    reason = models.TextField()
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lift_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-recorded_at", "id"]
        indexes = [models.Index(fields=["player", "starts_on"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="exclusion_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player}"

    def in_force_on(self, day) -> bool:
        return (
            self.lifted_at is None
            and self.starts_on <= day
            and (self.ends_on is None or day <= self.ends_on)
        )

    @property
    def words(self) -> str:
        """``barred from 2026-01-02 until lifted`` / ``self-restricted from ... to ...``."""
        what = "barred" if self.kind == ExclusionKind.BARRED else "self-restricted"
        until = f"to {self.ends_on}" if self.ends_on else "until lifted"
        return f"{what} from {self.starts_on} {until}"


class TPPPContract(models.Model):
    """A TPPP's contract with the cardroom (docs/rules.md §8.7, ``tppp.contract``): the
    tables it may play (none named: every table), the hours (none: any hour; an evening
    contract may run past midnight), the dates, and the Bureau's approval. Never edited: a
    renewal is a new contract."""

    registration = models.ForeignKey(
        TPPPRegistration, on_delete=models.PROTECT, related_name="contracts"
    )
    tables = models.ManyToManyField(Table, blank=True, related_name="+")
    starts_on = models.DateField()
    ends_on = models.DateField()
    opens_at = models.TimeField(null=True, blank=True)
    closes_at = models.TimeField(null=True, blank=True)
    approved_on = models.DateField()
    approval_number = models.CharField(max_length=64)
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = "TPPP contract"
        verbose_name_plural = "TPPP contracts"
        ordering = ["starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="contract_ends_after_start"
            ),
            models.CheckConstraint(
                condition=Q(opens_at__isnull=True, closes_at__isnull=True)
                | Q(opens_at__isnull=False, closes_at__isnull=False),
                name="contract_hours_both_or_neither",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration} contract {self.starts_on} to {self.ends_on}"

    def covers_hour(self, moment_time) -> bool:
        if self.opens_at is None:
            return True
        if self.opens_at <= self.closes_at:
            return self.opens_at <= moment_time < self.closes_at
        return moment_time >= self.opens_at or moment_time < self.closes_at  # past midnight

    @property
    def hours(self) -> str:
        if self.opens_at is None:
            return "any hour"
        return f"{self.opens_at:%H:%M} to {self.closes_at:%H:%M}"
