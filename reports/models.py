"""Compliance reports (docs/rules.md §10.5): each request is a row, run once, stored with a
checksum, kept for its retention period; every download is recorded.

The tables were created by the kernel app (``cardroom``) and keep their names.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models

from cardroom.errors import Rule, State


class ReportType(models.TextChoices):
    ROTATION = "rotation", "Player-dealer rotation record"
    TABLE_ACTIVITY = "table_activity", "Table activity and collection (drop)"
    BANKING = "banking", "Player-dealer banking and bankroll"
    AUDIT = "audit", "Hand and wager audit export"
    CURRENCY = "currency", "Title 31 currency log"
    FEE_FILING = "fee_filing", "Fee schedule filing"
    ANOMALIES = "anomalies", "Player-dealer results against theo (anomalies)"
    MTL = "mtl", "Multiple Transaction Log (Title 31)"
    CTRS = "ctrs", "Currency Transaction Reports (Title 31)"


class ReportStatus(models.TextChoices):
    """A report's run, in the states' own words (``cardroom.errors.State``)."""

    QUEUED = State.REPORT_QUEUED.value, State.REPORT_QUEUED.label
    RUNNING = State.REPORT_RUNNING.value, State.REPORT_RUNNING.label
    DONE = State.REPORT_DONE.value, State.REPORT_DONE.label
    FAILED = State.REPORT_FAILED.value, State.REPORT_FAILED.label


# A request in one of these states is "in flight": asking again returns it.
IN_FLIGHT_STATUSES = [ReportStatus.QUEUED, ReportStatus.RUNNING]


class QueueState(models.TextChoices):
    """Where a queued report's task is (``ReportRequest.queue_state``; docs/reports.md)."""

    PENDING = "pending", "Not handed to the queue yet"
    SENT = "sent", "Handed to the queue"
    UNREACHABLE = "unreachable", "The report queue cannot be reached"


# What the console and the API say while a request waits for an unreachable queue.
QUEUE_UNREACHABLE = (
    "The report queue cannot be reached; your request is saved and will run when it is back."
)


class RetentionError(Exception):
    """A stored report (or its file) may not be deleted before its retention date."""


class ReportRequestQuerySet(models.QuerySet):
    def delete(self):
        from cardroom.clock import today

        kept = self.filter(retention_until__gt=today())
        if kept.exists():
            raise RetentionError(
                f"{kept.count()} report(s) are still within their retention period "
                f"({Rule.RETENTION.citation}: five years, seven for accounting records)"
            )
        return super().delete()


class ReportRequest(models.Model):
    """One requested report: its parameters, its run, and the stored file with its checksum.

    Written only through ``reports.services``. The partial unique constraint makes
    "the same report with the same parameters while one is queued or running" a single row.
    """

    report_type = models.CharField(max_length=32, choices=ReportType.choices)
    parameters = models.JSONField()  # normalised (see reports.parameters)
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
    # A running row whose lease has passed belongs to a dead run (no run outlives its hard
    # time limit): the sweeper queues it again.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # The hand-over of the row's task to the queue: when the broker last took it (null: not
    # yet), and why the last attempt failed ("" once taken). docs/reports.md.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    enqueue_error = models.TextField(blank=True)
    # When the row was last queued (asked for, or queued again after a dead run or an error;
    # null on rows queued before this column: their ``requested_at``), and how many times
    # its task was handed to the queue in all (a hand-over the broker took).
    queued_at = models.DateTimeField(null=True, blank=True)
    hand_overs = models.PositiveIntegerField(default=0)
    # When the sweeper (or a repeated request) first found the broker no longer holding the
    # task it took (neither waiting in the queue nor taken by a worker: a broker restarted
    # empty); null while it holds it. Missing again at a later look, the task is handed over
    # again (docs/reports.md).
    message_missing_since = models.DateTimeField(null=True, blank=True)
    # The run's signs of life: the process running it ("<host> pid <n>") and its latest
    # heartbeat. A running row whose heartbeat is stale, or whose process is gone from this
    # host, is a dead run.
    runner = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
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
    # The file deleted once its retention passed (``reports.services.purge_report_file``).
    file_purged_at = models.DateTimeField(null=True, blank=True)

    objects = ReportRequestQuerySet.as_manager()

    class Meta:
        db_table = "cardroom_reportrequest"
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
        indexes = [
            models.Index(
                fields=["report_type", "status", "requested_at"],
                name="cardroom_re_report__a91d41_idx",
            ),
            # The sweeper's rows (docs/reports.md): only those in flight.
            models.Index(
                fields=["status"],
                condition=models.Q(status__in=["queued", "running"]),
                name="reports_in_flight_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_report_type_display()} #{self.pk} ({self.status})"

    def get_report_type_display(self) -> str:
        """The report's title, also for a report a layer above registered (no choice here)."""
        from reports.registry import title_of

        return title_of(self.report_type)

    @property
    def filters_words(self) -> str:
        """The filters of a report registered with its own (the audit trail's export)."""
        from reports.registry import filters_of

        return filters_of(self.report_type, self.parameters)

    @property
    def queue_state(self) -> QueueState | None:
        """Where a queued report's task is; None once it runs (or ran)."""
        if self.status != ReportStatus.QUEUED:
            return None
        if self.enqueue_error:
            return QueueState.UNREACHABLE
        return QueueState.PENDING if self.enqueued_at is None else QueueState.SENT

    def retention_refusal(self, today: date) -> RetentionError | None:
        """Why this report may not be deleted on ``today`` (still within retention), or None."""
        if self.retention_until <= today:
            return None
        return RetentionError(
            f"report {self.pk} is kept until {self.retention_until.isoformat()} "
            f"({Rule.RETENTION.citation}: five years, seven for accounting records)"
        )

    def delete(self, *args, **kwargs):
        from cardroom.clock import today

        if refusal := self.retention_refusal(today()):
            raise refusal
        return super().delete(*args, **kwargs)


class ReportDownload(models.Model):
    """Who downloaded which report, and when (docs/rules.md §10.5)."""

    report = models.ForeignKey(ReportRequest, on_delete=models.PROTECT, related_name="downloads")
    downloaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    downloaded_at = models.DateTimeField()
    sha256 = models.CharField(max_length=64)  # the checksum verified before serving
    remote_addr = models.CharField(max_length=64, blank=True)

    class Meta:
        db_table = "cardroom_reportdownload"
        ordering = ["-downloaded_at", "-id"]

    def __str__(self) -> str:
        return f"report #{self.report_id} downloaded by {self.downloaded_by_id}"
