"""Report parameters: validated, normalised to one shape, and keyed for deduplication.

Accepted: ``gaming_day`` (one day) or ``from_day`` and ``to_day`` (inclusive gaming days),
``table`` (a table id; absent or null means all tables) and ``format`` (``csv``/``pdf``).
Stored normalised as ``{"format", "from_day", "to_day", "table"}`` so that the same
request written two ways is the same request. A report registered with ``filters`` (the
console's staff-action trail) takes more keys, normalised by that function and stored
beside those four.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from cardroom import bounds
from cardroom.errors import Rule, RuleError
from cardroom.gaming_day import gaming_day_window

MAX_DAYS = 400
KNOWN = {"gaming_day", "from_day", "to_day", "table", "format"}
NORMALISED = ("format", "from_day", "to_day", "table")


@dataclass(frozen=True)
class Period:
    from_day: date
    to_day: date
    table_id: int | None
    # A registered report's own parameters, normalised: (name, value) pairs by name.
    filters: tuple[tuple[str, object], ...] = ()

    @property
    def start(self) -> datetime:
        return gaming_day_window(self.from_day)[0]

    @property
    def end(self) -> datetime:
        return gaming_day_window(self.to_day)[1]

    def is_open(self, moment: datetime) -> bool:
        return moment < self.end


def _day(value, field: str) -> date:
    try:
        day = date.fromisoformat(str(value))
    except ValueError:
        raise RuleError(
            f"{value!r} is not a date written YYYY-MM-DD", rule=Rule.REPORTS, field=field
        ) from None
    if problem := bounds.day_problem(day):
        raise RuleError(problem, rule=Rule.REPORTS, field=field)
    return day


def normalise(
    report_type: str,
    raw: dict,
    *,
    formats: tuple[str, ...],
    today: date,
    filters: Callable[[dict], dict] | None = None,
) -> dict:
    """Validate ``raw`` and return the normalised parameters (RuleError names the field);
    ``filters`` normalises the keys beyond the period, table and format (none without it)."""
    from tables.models import Table

    if not isinstance(raw, dict):
        raise RuleError("parameters must be an object", rule=Rule.REPORTS, field="parameters")
    unknown = sorted(set(raw) - KNOWN)
    extra = {}
    if filters is not None:
        extra = filters({key: raw[key] for key in unknown})
        unknown = []
    if unknown:
        raise RuleError(
            f"unknown parameter(s): {', '.join(unknown)}", rule=Rule.REPORTS, field=unknown[0]
        )
    if raw.get("gaming_day") is not None:
        if raw.get("from_day") is not None or raw.get("to_day") is not None:
            raise RuleError(
                "give either one gaming day or a first and a last day, not both",
                rule=Rule.REPORTS,
                field="gaming_day",
            )
        from_day = to_day = _day(raw["gaming_day"], "gaming_day")
    else:
        for field in ("from_day", "to_day"):
            if raw.get(field) is None:
                raise RuleError(
                    "a report needs a gaming day, or a first and a last day",
                    rule=Rule.REPORTS,
                    field=field,
                )
        from_day, to_day = _day(raw["from_day"], "from_day"), _day(raw["to_day"], "to_day")
    if to_day < from_day:
        raise RuleError("the last day is before the first day", rule=Rule.REPORTS, field="to_day")
    if to_day > today:
        raise RuleError(
            f"gaming day {to_day.isoformat()} has not begun (current gaming day "
            f"{today.isoformat()})",
            rule=Rule.REPORTS,
            field="to_day",
        )
    if (to_day - from_day).days + 1 > MAX_DAYS:
        raise RuleError(
            f"a report covers at most {MAX_DAYS} gaming days", rule=Rule.REPORTS, field="to_day"
        )
    table = raw.get("table")
    if table is not None:
        try:  # ASCII digits only: superscripts or Arabic-Indic digits is no id
            table = bounds.strict_int(table, minimum=1, maximum=bounds.ID_MAX)
        except bounds.OutOfBounds:
            raise RuleError("table must be a table id", rule=Rule.REPORTS, field="table") from None
        if not Table.objects.filter(pk=table).exists():
            raise RuleError("no such table", rule=Rule.REPORTS, field="table")
    output = raw.get("format") or formats[0]
    if output not in formats:
        raise RuleError(
            f"this report is produced as {' or '.join(formats)}, not {output!r}",
            rule=Rule.REPORTS,
            field="format",
        )
    return {
        "format": output,
        "from_day": from_day.isoformat(),
        "to_day": to_day.isoformat(),
        "table": table,
        **{key: value for key, value in extra.items() if key not in NORMALISED},
    }


def parameters_key(parameters: dict) -> str:
    text = json.dumps(parameters, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def period_of(parameters: dict) -> Period:
    return Period(
        date.fromisoformat(parameters["from_day"]),
        date.fromisoformat(parameters["to_day"]),
        parameters["table"],
        tuple(sorted((k, v) for k, v in parameters.items() if k not in NORMALISED)),
    )
