"""Collection fees (docs/rules.md §9): versioned schedules, fee lines per round, waivers, the
drop.

Schedules are insert-only: a change is a new version with its own effective time, and each
round keeps the version in force when it started, with its rates (``RoundFeeSchedule``).
Fee lines, waivers and counts are history: never updated or deleted (PostgreSQL refuses it).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from cardroom.money import dollars
from fees.rules.schedule import MAX_RATES, SQUARES, Basis
from tables.models import Player, Round, Table
from wagers.models import Account, LedgerTransaction


def default_charged_squares() -> list[str]:
    return list(SQUARES)


class FeeSchedule(models.Model):
    """The collection schedule of one table, or of a table-limit class shared by tables.

    A limit class is named by its limits: it applies to every table whose minimum and
    maximum are those limits and that has no schedule of its own.
    """

    name = models.CharField(max_length=100)
    table = models.OneToOneField(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="fee_schedule"
    )
    class_minimum_cents = models.PositiveIntegerField(null=True, blank=True)
    class_maximum_cents = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(table__isnull=False, class_minimum_cents__isnull=True)
                    & Q(class_maximum_cents__isnull=True)
                )
                | Q(
                    table__isnull=True,
                    class_minimum_cents__isnull=False,
                    class_maximum_cents__isnull=False,
                ),
                name="fee_schedule_of_a_table_or_a_limit_class",
            ),
            models.CheckConstraint(
                condition=Q(class_minimum_cents__isnull=True)
                | Q(class_minimum_cents__lte=models.F("class_maximum_cents")),
                name="fee_schedule_class_minimum_not_above_maximum",
            ),
            models.UniqueConstraint(
                fields=["class_minimum_cents", "class_maximum_cents"],
                condition=Q(table__isnull=True),
                name="one_fee_schedule_per_limit_class",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class FeeScheduleVersion(models.Model):
    """One version of a schedule, in force from ``effective_at`` until the next version's."""

    schedule = models.ForeignKey(FeeSchedule, on_delete=models.PROTECT, related_name="versions")
    number = models.PositiveIntegerField()  # 1, 2, 3, ... per schedule
    effective_at = models.DateTimeField()
    player_dealer_basis = models.CharField(
        max_length=24,
        choices=[
            (Basis.PER_BETTING_SQUARE.value, "Player-dealer fee per betting square"),
            (Basis.TOTAL_TABLE_ACTION.value, "Player-dealer fee on total table action"),
        ],
    )
    charged_squares = models.JSONField(default=default_charged_squares)
    # The table limits the ranges were validated against (the filing's "Table Limit").
    table_minimum_cents = models.PositiveIntegerField()
    table_maximum_cents = models.PositiveIntegerField()
    note = models.TextField(blank=True)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["schedule", "effective_at"]
        constraints = [
            models.UniqueConstraint(fields=["schedule", "number"], name="fee_version_number"),
            models.UniqueConstraint(
                fields=["schedule", "effective_at"], name="one_fee_version_per_moment"
            ),
        ]
        indexes = [models.Index(fields=["schedule", "-effective_at"])]

    def __str__(self) -> str:
        return f"{self.schedule} v{self.number} from {self.effective_at:%Y-%m-%d %H:%M}"


class FeeRate(models.Model):
    """A row of the schedule: a collection rate. Flat amounts in cents only (no percentage)."""

    version = models.ForeignKey(FeeScheduleVersion, on_delete=models.PROTECT, related_name="rates")
    position = models.PositiveSmallIntegerField()
    wager_from_cents = models.PositiveIntegerField(null=True, blank=True)
    wager_to_cents = models.PositiveIntegerField(null=True, blank=True)
    player_fee_cents = models.PositiveIntegerField(null=True, blank=True)
    player_dealer_fee_cents = models.PositiveIntegerField(null=True, blank=True)
    action_from_cents = models.PositiveBigIntegerField(null=True, blank=True)
    action_to_cents = models.PositiveBigIntegerField(null=True, blank=True)  # None: and above

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "position"], name="fee_rate_position"),
            models.CheckConstraint(
                condition=Q(position__gte=1, position__lte=MAX_RATES),
                name="at_most_five_fee_rates",
            ),
            models.CheckConstraint(
                condition=Q(wager_to_cents__isnull=True)
                | Q(wager_from_cents__lte=models.F("wager_to_cents")),
                name="fee_rate_wager_range_ordered",
            ),
            models.CheckConstraint(
                condition=Q(action_to_cents__isnull=True)
                | Q(action_from_cents__lte=models.F("action_to_cents")),
                name="fee_rate_action_range_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.version} rate {self.position}"

    def as_row(self) -> dict:
        return {
            "wager_from_cents": self.wager_from_cents,
            "wager_to_cents": self.wager_to_cents,
            "player_fee_cents": self.player_fee_cents,
            "player_dealer_fee_cents": self.player_dealer_fee_cents,
            "action_from_cents": self.action_from_cents,
            "action_to_cents": self.action_to_cents,
        }


class RoundFeeSchedule(models.Model):
    """The collection schedule in force when a hand started, frozen with its rates as the
    fee engine reads them (docs/rules.md §9.5). A hand at a table with no schedule in force
    has none: it pays no fee."""

    round = models.OneToOneField(
        Round, primary_key=True, on_delete=models.PROTECT, related_name="fee_schedule_in_force"
    )
    version = models.ForeignKey(FeeScheduleVersion, on_delete=models.PROTECT, related_name="rounds")
    schedule = models.JSONField()

    def __str__(self) -> str:
        return f"{self.round}: fee schedule version {self.version_id}"


class PayerKind(models.TextChoices):
    PLAYER = "player", "Player"
    BACKLINE = "backline", "Backline bettor"
    PLAYER_DEALER = "player_dealer", "Player-dealer"


class FeeLine(models.Model):
    """One fee assessed at "no more bets": payer, square, rate applied, amount, its posting."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="fee_lines")
    order = models.PositiveSmallIntegerField()
    version = models.ForeignKey(FeeScheduleVersion, on_delete=models.PROTECT, related_name="+")
    payer_kind = models.CharField(max_length=16, choices=PayerKind.choices)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="fee_lines")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    bettor = models.PositiveSmallIntegerField()
    square = models.CharField(max_length=16)  # ante, blind, trips, bad_beat or table_action
    wager_cents = models.PositiveBigIntegerField()  # what the rate was chosen by
    rate_position = models.PositiveSmallIntegerField()
    amount_cents = models.PositiveIntegerField()
    transaction = models.OneToOneField(
        LedgerTransaction, on_delete=models.PROTECT, related_name="fee_line"
    )

    class Meta:
        ordering = ["round", "order"]
        constraints = [
            models.UniqueConstraint(fields=["round", "order"], name="one_fee_line_per_place"),
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="fee_line_above_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.round} fee #{self.order} seat {self.seat} {self.square}"


class FeeWaiver(models.Model):
    """A fee waived by a floor supervisor before the deal; its reversal goes back to the payer."""

    fee_line = models.OneToOneField(FeeLine, on_delete=models.PROTECT, related_name="waiver")
    reason = models.TextField()
    waived_at = models.DateTimeField()
    waived_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reversal = models.OneToOneField(LedgerTransaction, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["waived_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="fee_waiver_has_reason"),
        ]

    def __str__(self) -> str:
        return f"waiver of {self.fee_line}"


class DropBox(models.Model):
    """The drop box of one table for one shift of one gaming day."""

    box_number = models.CharField(max_length=32, unique=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="drop_boxes")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=32)
    registered_at = models.DateTimeField()
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name_plural = "drop boxes"
        ordering = ["gaming_day", "table", "shift"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift"], name="one_drop_box_per_table_shift"
            ),
        ]

    def __str__(self) -> str:
        return f"box {self.box_number} ({self.table}, {self.gaming_day} {self.shift})"


class DropCount(models.Model):
    """A count of a drop box; a recount is a new row (the latest one stands)."""

    box = models.ForeignKey(DropBox, on_delete=models.PROTECT, related_name="counts")
    amount_cents = models.PositiveBigIntegerField()
    counters = models.JSONField()  # the names of the count team, at least two
    counted_at = models.DateTimeField()
    entered_at = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["box", "entered_at", "id"]

    def __str__(self) -> str:
        return f"count of {self.box}: {dollars(self.amount_cents)}"
