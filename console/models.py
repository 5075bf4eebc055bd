"""The staff-action audit trail: who did what, when, and how it ended."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Outcome(models.TextChoices):
    DONE = "done", "Done"
    REFUSED = "refused", "Refused"  # a broken rule, a wrong state, a wrong role (4xx)
    FAILED = "failed", "Failed"  # the server failed (5xx)


CHANNEL_WORDS = {"console": "console", "api": "API", "auth": "sign-in"}


class StaffAction(models.Model):
    """One write a staff member asked for, from the console or the API, or a sign-in.

    Rows are only ever added (the admin is read-only and ``save`` refuses updates): a
    regulator reads this trail next to the surveillance video.
    """

    at = models.DateTimeField(db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Kept as typed, so a failed sign-in under an unknown name is on the record too.
    username = models.CharField(max_length=150, blank=True)
    channel = models.CharField(max_length=8)  # "console", "api" or "auth"
    action = models.CharField(max_length=64)  # e.g. "place wagers", "tables:seat-create"
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    # Ids as typed in the path (up to the largest 64-bit id, cardroom/converters.py).
    table_id = models.PositiveBigIntegerField(null=True, blank=True, db_index=True)
    round_id = models.PositiveBigIntegerField(null=True, blank=True)
    # The table's name and the hand's number at the time of the action, as the floor says
    # them ("UTH-3, hand 41"): written with the row, never looked up again.
    table_name = models.CharField(max_length=64, blank=True)
    round_number = models.PositiveIntegerField(null=True, blank=True)
    detail = models.TextField(blank=True)  # what was asked (never a password)
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    status_code = models.PositiveSmallIntegerField()
    message = models.TextField(blank=True)  # the refusal, as the staff member saw it
    ip_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["user", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.username or '-'} {self.action} {self.outcome}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("the audit trail is append-only; a staff action is never edited")
        super().save(*args, **kwargs)

    @property
    def hand(self) -> str:
        """The hand by its number at its table ("hand 41"); a round not found when the row
        was written, by its id."""
        if self.round_number is not None:
            return f"hand {self.round_number}"
        return f"round #{self.round_id}" if self.round_id is not None else ""

    @property
    def where(self) -> str:
        """The table and the hand in the floor's words: "UTH-3, hand 41"."""
        table = self.table_name or (f"table #{self.table_id}" if self.table_id else "")
        return ", ".join(part for part in (table, self.hand) if part)

    @property
    def channel_words(self) -> str:
        return CHANNEL_WORDS.get(self.channel, self.channel)

    @property
    def detail_words(self) -> str:
        """What was asked, in the floor's words (``console.audit_words``)."""
        from .audit_words import detail_words

        return detail_words(self.detail)
