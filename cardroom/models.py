"""The establishment's own records: idempotency keys for write requests."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyKey(models.Model):
    """A write request's key and its answer: a retry replays the answer, never re-applies."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    key = models.CharField(max_length=128)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=512)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    response_body = models.JSONField(null=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.method} {self.path})"


# --- Compliance reports (RULEBOOK §8) --------------------------------------------------------


class ReportType(models.TextChoices):
    ROTATION = "rotation", "Player-dealer rotation record"
    TABLE_ACTIVITY = "table_activity", "Table activity and collection (drop)"
    BANKING = "banking", "Player-dealer banking and bankroll"
    AUDIT = "audit", "Hand and wager audit export"
    CURRENCY = "currency", "Title 31 currency log"
    FEE_FILING = "fee_filing", "Fee schedule filing"


class ReportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


# A request in one of these states is "in flight": asking again returns it.
IN_FLIGHT_STATUSES = [ReportStatus.QUEUED, ReportStatus.RUNNING]


class RetentionError(Exception):
    """A stored report (or its file) may not be deleted before its retention date."""


class ReportRequestQuerySet(models.QuerySet):
    def delete(self):
        from cardroom.clock import now

        kept = self.filter(retention_until__gt=now().date())
        if kept.exists():
            raise RetentionError(
                f"{kept.count()} report(s) are still within their retention period "
                "(RULEBOOK §8: five years, seven for accounting records)"
            )
        return super().delete()


class ReportRequest(models.Model):
    """One requested report: its parameters, its run, and the stored file with its checksum.

    Written only through ``cardroom.reports.services``. The partial unique constraint makes
    "the same report with the same parameters while one is queued or running" a single row.
    """

    report_type = models.CharField(max_length=32, choices=ReportType.choices)
    parameters = models.JSONField()  # normalised (see cardroom.reports.parameters)
    parameters_key = models.CharField(max_length=64)  # SHA-256 of the sorted parameters JSON
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField()
    scheduled = models.BooleanField(default=False)  # requested by the daily beat schedule
    status = models.CharField(
        max_length=16, choices=ReportStatus.choices, default=ReportStatus.QUEUED
    )
    task_id = models.CharField(max_length=64, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    # A running row whose lease has passed belongs to a dead run (its worker was killed):
    # asking again re-enqueues it instead of waiting for a run that will never finish.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    period_open = models.BooleanField(null=True)
    row_count = models.PositiveBigIntegerField(null=True, blank=True)
    file = models.FileField(max_length=300, blank=True)
    file_name = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    size_bytes = models.PositiveBigIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    failure_reason = models.TextField(blank=True)
    retention_until = models.DateField()

    objects = ReportRequestQuerySet.as_manager()

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["report_type", "parameters_key"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_in_flight_report_per_parameters",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="done") | ~models.Q(sha256=""),
                name="done_report_has_checksum",
            ),
        ]
        indexes = [models.Index(fields=["report_type", "status", "requested_at"])]

    def __str__(self) -> str:
        return f"{self.get_report_type_display()} #{self.pk} ({self.status})"

    def delete(self, *args, **kwargs):
        from cardroom.clock import now

        if self.retention_until > now().date():
            raise RetentionError(
                f"report #{self.pk} is kept until {self.retention_until.isoformat()} "
                "(RULEBOOK §8)"
            )
        return super().delete(*args, **kwargs)


class ReportDownload(models.Model):
    """Who downloaded which report, and when (RULEBOOK §8)."""

    report = models.ForeignKey(ReportRequest, on_delete=models.PROTECT, related_name="downloads")
    downloaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    downloaded_at = models.DateTimeField()
    sha256 = models.CharField(max_length=64)  # the checksum verified before serving
    remote_addr = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-downloaded_at", "-id"]

    def __str__(self) -> str:
        return f"report #{self.report_id} downloaded by {self.downloaded_by_id}"
