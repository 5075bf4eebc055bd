"""Barred and self-restricted patrons (docs/rules.md §3.9): the list, kept by floor
supervisors and compliance officers, and the one check every door of the floor asks.

An entry is never edited or deleted: a correction lifts it (who, when, why) and records a
new one, so the list keeps its history. A refusal names the rule; the request that was
refused is on the staff-action trail with its message (``console.audit``)."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from cardroom.clock import now, today
from cardroom.errors import Rule, RuleError, State, StateError
from tables.guards import require_not_excluded
from tables.models import Exclusion, ExclusionKind, Player
from tables.selectors.exclusions import exclusion_in_force

REASON_MAX = 1000


def require_allowed(player_id: int, *, action: str) -> None:
    """Refuse ``action`` ("a seat", "a place on the waitlist", "a buy-in", "the button") to a
    patron barred or self-restricted today (``floor.excluded``)."""
    require_not_excluded(exclusion_in_force(player_id=player_id), action=action)


def _text(value, field: str, what: str) -> str:
    text = (value or "").strip() if isinstance(value, str) else ""
    if not text:
        raise RuleError(f"{what} is recorded", rule=Rule.EXCLUDED, field=field)
    if len(text) > REASON_MAX:
        raise RuleError(
            f"{what} is at most {REASON_MAX} characters", rule=Rule.EXCLUDED, field=field
        )
    return text


def exclude(
    *,
    player_id: int,
    kind: str,
    reason: str,
    by,
    starts_on: date | None = None,
    ends_on: date | None = None,
) -> Exclusion:
    """Put a patron on the list from ``starts_on`` (today) until ``ends_on`` (none: until
    lifted). A self-restriction has its end date (the program's term, chosen by the patron)."""
    if kind not in ExclusionKind.values:
        raise RuleError(
            f"{kind!r} is not barred or self-restricted", rule=Rule.EXCLUDED, field="kind"
        )
    reason = _text(reason, "reason", "why the patron is kept off the tables")
    starts_on = starts_on or today()
    if ends_on is not None and ends_on < starts_on:
        raise RuleError(
            f"the entry ends on {ends_on}, before it starts on {starts_on}",
            rule=Rule.EXCLUDED,
            field="ends_on",
        )
    if kind == ExclusionKind.SELF_RESTRICTED and ends_on is None:
        raise RuleError(
            "a self-restriction is recorded with the last day of the term the patron chose",
            rule=Rule.EXCLUDED,
            field="ends_on",
        )
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise RuleError(f"no player {player_id}", rule=Rule.KNOWN_PLAYER, field="player")
        return Exclusion.objects.create(
            player=player,
            kind=kind,
            reason=reason,
            starts_on=starts_on,
            ends_on=ends_on,
            recorded_at=now(),
            recorded_by=by,
        )


def lift(*, exclusion_id: int, reason: str, by) -> Exclusion:
    """End an entry before its term (once; the entry stays on the list's history)."""
    reason = _text(reason, "reason", "why the entry is lifted")
    with transaction.atomic():
        entry = Exclusion.objects.select_for_update().select_related("player").get(pk=exclusion_id)
        if entry.lifted_at is not None:
            raise StateError(
                f"the entry was lifted on {entry.lifted_at:%Y-%m-%d %H:%M}",
                state=State.ALREADY_RECORDED,
                rule=Rule.EXCLUDED,
            )
        entry.lifted_at, entry.lifted_by, entry.lift_reason = now(), by, reason
        entry.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        return entry
