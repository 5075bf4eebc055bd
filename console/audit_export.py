"""The staff-action trail as a compliance report: a CSV of what the audit page filtered,
produced by the reports pipeline (a Celery worker, stored with its SHA-256, every download
recorded; docs/reports.md).

The reports app sits below the console, so the console registers this report with it
(``ConsoleConfig.ready``, in every process: the web server and the worker): report type
``staff_actions``, its parameters the reports' period (gaming days), table and format, plus
the page's filters (staff member, action, outcome, channel), normalised here."""

from __future__ import annotations

from cardroom import bounds
from cardroom.errors import Rule, RuleError
from reports import registry
from reports.common import header, stream
from reports.document import Document, Section
from reports.parameters import Period

from . import selectors
from .audit_forms import ACTION_MAX, CHANNELS, USERNAME_MAX
from .audit_words import Names, RowWords
from .models import Outcome

REPORT_TYPE = "staff_actions"
TITLE = "Audit trail of staff actions"
FILTERS = {"username": USERNAME_MAX, "action": ACTION_MAX, "outcome": 8, "channel": 8}
ALLOWED = {"outcome": set(Outcome.values), "channel": {value for value, _ in CHANNELS}}
WORDS = {"outcome": dict(Outcome.choices), "channel": dict(CHANNELS)}
FILTER_WORDS = {"username": "staff member", "action": "action", "outcome": "outcome",
                "channel": "channel"}  # fmt: skip
COLUMNS = [
    "at", "staff_member", "signed_in_account", "channel", "action", "method", "path", "table",
    "hand", "detail", "outcome", "status", "message", "ip_address",
]  # fmt: skip


def normalise_filters(raw: dict) -> dict:
    """The audit page's filters as report parameters: known, text, bounded; empty ones left
    out, so an export of everything is one request whoever asks for it."""
    unknown = sorted(set(raw) - set(FILTERS))
    if unknown:
        raise RuleError(
            f"unknown parameter(s): {', '.join(unknown)}", rule=Rule.REPORTS, field=unknown[0]
        )
    normalised = {}
    for key, limit in FILTERS.items():
        value = raw.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            raise RuleError(f"{key} must be text", rule=Rule.REPORTS, field=key)
        value = value.strip()
        problem = bounds.text_problem(value) or (
            f"at most {limit} characters" if len(value) > limit else None
        )
        if problem is None and key in ALLOWED and value not in ALLOWED[key]:
            problem = f"one of {', '.join(sorted(ALLOWED[key]))}"
        if problem:
            raise RuleError(f"{key}: {problem}", rule=Rule.REPORTS, field=key)
        if value:
            normalised[key] = value
    return normalised


def filter_words(parameters: dict) -> str:
    """The filters beyond the period and table, as the page says them: "outcome Refused; channel
    sign-in" (the reports page's list shows them beside the period)."""
    words = []
    for key in FILTERS:
        value = parameters.get(key)
        if value:
            shown = WORDS.get(key, {}).get(value, value)
            words.append(f"{FILTER_WORDS[key]} {shown}")
    return "; ".join(words)


def described(parameters: dict, table_name: str = "") -> dict:
    """An export request as the trail records it, in the floor's words."""
    days = parameters["from_day"]
    if parameters["to_day"] != days:
        days += f" to {parameters['to_day']}"
    return {
        "gaming days": days,
        "table": table_name or "all tables",
        **({"filters": words} if (words := filter_words(parameters)) else {}),
    }


def _rows(period: Period):
    filters = dict(period.filters)
    actions = selectors.staff_actions(
        username=filters.get("username", ""),
        action=filters.get("action", ""),
        outcome=filters.get("outcome", ""),
        channel=filters.get("channel", ""),
        table=period.table_id,
        start=period.start,
        end=period.end,
    ).order_by("at", "id")
    names = Names()  # each player, table, offer... looked up once for the whole export
    for a in stream(actions):
        words = RowWords(a, names)
        yield (
            a.at, a.username, a.user.get_username() if a.user else "", a.channel_words,
            a.action, a.method, words.path, words.table, words.hand, words.detail,
            a.get_outcome_display(), a.status_code, words.message, a.ip_address,
        )  # fmt: skip


def build(period: Period, *, is_open: bool) -> Document:
    filters = dict(period.filters)
    extra = [("filters", filter_words(filters) or "none")]

    def sections():
        yield Section("Staff actions", COLUMNS, _rows(period))

    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())


KIND = registry.ReportKind(
    build,
    ("csv",),
    False,
    "audit-trail",
    daily=False,
    title=TITLE,
    filters=normalise_filters,
    describe=filter_words,
)


def register() -> None:
    registry.register(REPORT_TYPE, KIND)
