"""What a queued report's answer says is happening to it (``reports.selectors.queue_status``):
queued since when, handed over how many times, whether the queue has it, lost it or cannot be
reached, and by when it is handed over next; nothing once it runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from reports.models import QueueState, ReportRequest, ReportStatus
from reports.selectors import queue_status

# 14:02:11 in Los Angeles (the cardroom's time zone), and later that day.
QUEUED = datetime(2026, 11, 20, 22, 2, 11, tzinfo=UTC)
NOW = QUEUED + timedelta(minutes=3)


def row(**fields) -> ReportRequest:
    made = {
        "status": ReportStatus.QUEUED,
        "requested_at": QUEUED - timedelta(hours=25),
        "queued_at": QUEUED,
        "hand_overs": 0,
        "enqueued_at": None,
        "enqueue_error": "",
        "message_missing_since": None,
        **fields,
    }
    return ReportRequest(**made)


@pytest.mark.parametrize(
    ("fields", "state", "said", "next_hand_over"),
    [
        (
            {},
            QueueState.PENDING,
            "queued since 14:02:11; not handed to the report queue yet: at the next sweep at "
            "the latest (by 14:06:11)",
            NOW + timedelta(seconds=60),
        ),
        (
            {"enqueue_error": "OperationalError: refused"},
            QueueState.UNREACHABLE,
            "queued since 14:02:11; the report queue cannot be reached: handed over when it is "
            "back, at the next sweep (by 14:06:11)",
            NOW + timedelta(seconds=60),
        ),
        (
            {"hand_overs": 1, "enqueued_at": QUEUED},
            QueueState.SENT,
            "queued since 14:02:11; handed to the report queue once, last at 14:02:11; the "
            "report queue has it: a worker runs it when one is free",
            None,
        ),
        (
            {
                "hand_overs": 2,
                "enqueued_at": QUEUED + timedelta(minutes=1),
                "message_missing_since": QUEUED + timedelta(minutes=2),
            },
            QueueState.SENT,
            "queued since 14:02:11; handed to the report queue twice, last at 14:03:11; the "
            "report queue lost it (noticed at 14:04:11): handed over again at the next sweep "
            "(by 14:06:11)",
            NOW + timedelta(seconds=60),
        ),
        (
            # A row from before queued_at was kept: queued since it was requested (another day).
            {"hand_overs": 3, "queued_at": None, "requested_at": QUEUED - timedelta(days=1)},
            QueueState.PENDING,
            "queued since 2026-11-19 14:02:11; handed to the report queue 3 times; not handed "
            "to the report queue yet: at the next sweep at the latest (by 14:06:11)",
            NOW + timedelta(seconds=60),
        ),
    ],
)
def test_a_queued_report_says_what_is_happening(fields, state, said, next_hand_over, settings):
    settings.REPORTS_SWEEP_INTERVAL = 60
    report = row(**fields)
    assert report.queue_state == state
    status = queue_status(report, moment=NOW)
    assert (status.state, status.words, status.next_hand_over) == (state, said, next_hand_over)
    assert status.hand_overs == report.hand_overs


def test_the_answer_may_know_more_than_the_row_and_a_running_report_says_nothing():
    # A request answered before its commit: pending on the row, but the broker is down.
    status = queue_status(row(), state=QueueState.UNREACHABLE, moment=NOW)
    assert "the report queue cannot be reached" in status.words
    assert queue_status(row(status=ReportStatus.RUNNING), moment=NOW) is None
