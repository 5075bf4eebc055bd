"""Fee schedules and their versions (docs/rules.md §9). Insert-only: a change is a new version."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Max

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from fees.models import FeeRate, FeeSchedule, FeeScheduleVersion
from fees.rules.schedule import ALL_SQUARES, build_schedule
from games.registry import game as game_of_key
from tables.models import Table


def create_schedule(
    *,
    name: str,
    by,
    table_id: int | None = None,
    class_minimum_cents: int | None = None,
    class_maximum_cents: int | None = None,
) -> FeeSchedule:
    """A schedule for one table, or for the limit class ``class_minimum``-``class_maximum``."""
    if not name or not str(name).strip():
        raise RuleError("a schedule has a name", rule=Rule.FEE_RATES, field="name")
    by_class = class_minimum_cents is not None or class_maximum_cents is not None
    if (table_id is None) == (not by_class):
        raise RuleError(
            "a schedule belongs to a table or to a table-limit class (minimum and maximum), "
            "not both",
            rule=Rule.FEE_RATES,
            field="table",
        )
    if by_class:
        for field, value in (
            ("class_minimum_cents", class_minimum_cents),
            ("class_maximum_cents", class_maximum_cents),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RuleError(
                    "a limit class is a positive minimum and maximum in cents",
                    rule=Rule.FEE_RATES,
                    field=field,
                )
        if class_minimum_cents > class_maximum_cents:
            raise RuleError(
                "the class minimum is above its maximum",
                rule=Rule.FEE_RATES,
                field="class_minimum_cents",
            )
    try:
        with transaction.atomic():
            table = None
            if table_id is not None:
                table = Table.objects.filter(pk=table_id).first()
                if table is None:
                    raise RuleError(f"no table {table_id}", rule=Rule.FEE_RATES, field="table")
            return FeeSchedule.objects.create(
                name=str(name).strip(),
                table=table,
                class_minimum_cents=class_minimum_cents,
                class_maximum_cents=class_maximum_cents,
                created_at=now(),
                created_by=by,
            )
    except IntegrityError:
        raise StateError(
            "this table or limit class already has a schedule: add a version to it",
            state=State.ALREADY_RECORDED,
            rule=Rule.FEE_RATES,
        ) from None


def limits_of(schedule: FeeSchedule) -> tuple[int, int]:
    if schedule.table_id is not None:
        return schedule.table.minimum_cents, schedule.table.maximum_cents
    return schedule.class_minimum_cents, schedule.class_maximum_cents


def create_version(
    *,
    schedule_id: int,
    rates: Sequence[Mapping],
    player_dealer_basis: str,
    by,
    effective_at: datetime | None = None,
    charged_squares: Sequence[str] | None = None,
    note: str = "",
) -> FeeScheduleVersion:
    """A new version of a schedule, validated by the fee engine against the table limits.

    It takes effect at ``effective_at`` (now by default, never in the past: a report
    must be able to say which version applied to every hand already played). It charges
    ``charged_squares``; by default the squares of the table's game for a table's own
    schedule, every game's for a limit class (its tables may be of any game).
    """
    moment = now()
    if effective_at is None:
        effective_at = moment
    if effective_at < moment:
        raise RuleError(
            "a version takes effect now or later, never in the past",
            rule=Rule.FEE_VERSIONS,
            field="effective_at",
        )
    with transaction.atomic():
        schedule = (
            FeeSchedule.objects.select_for_update(of=("self",))
            .select_related("table")
            .filter(pk=schedule_id)
            .first()
        )
        if schedule is None:
            raise RuleError(f"no fee schedule {schedule_id}", rule=Rule.FEE_RATES, field="schedule")
        minimum, maximum = limits_of(schedule)
        if charged_squares is None:
            charged_squares = (
                ALL_SQUARES
                if schedule.table is None
                else game_of_key(schedule.table.game).opening_squares
            )
        built = build_schedule(
            basis=player_dealer_basis,
            rates=rates,
            table_minimum=minimum,
            table_maximum=maximum,
            charged_squares=charged_squares,
        )
        if schedule.versions.filter(effective_at=effective_at).exists():
            raise StateError(
                "a version already takes effect at that moment; versions are never edited",
                state=State.ALREADY_RECORDED,
                rule=Rule.FEE_VERSIONS,
            )
        last = schedule.versions.aggregate(n=Max("number"))["n"] or 0
        version = FeeScheduleVersion.objects.create(
            schedule=schedule,
            number=last + 1,
            effective_at=effective_at,
            player_dealer_basis=built.basis.value,
            charged_squares=list(built.charged_squares),
            table_minimum_cents=minimum,
            table_maximum_cents=maximum,
            note=note or "",
            created_at=moment,
            created_by=by,
        )
        FeeRate.objects.bulk_create(
            [
                FeeRate(
                    version=version,
                    position=rate.position,
                    wager_from_cents=rate.wager.low if rate.wager else None,
                    wager_to_cents=rate.wager.high if rate.wager else None,
                    player_fee_cents=rate.player_fee,
                    player_dealer_fee_cents=rate.player_dealer_fee,
                    action_from_cents=rate.action.low if rate.action else None,
                    action_to_cents=rate.action.high if rate.action else None,
                )
                for rate in built.rates
            ]
        )
        return version


def refuse_edit(version: FeeScheduleVersion) -> None:
    """Versions are never edited: in force or not, a change is a new version (409)."""
    if version.effective_at <= now():
        raise StateError(
            f"version {version.number} of {version.schedule} is in force since "
            f"{version.effective_at.isoformat()}; a version in force is never edited: "
            "create a new version",
            state=State.FEE_VERSION_IN_FORCE,
            rule=Rule.FEE_VERSIONS,
        )
    raise StateError(
        f"version {version.number} takes effect at {version.effective_at.isoformat()}; versions "
        "are never edited: create a new version with a later effective time",
        state=State.FEE_VERSION_SCHEDULED,
        rule=Rule.FEE_VERSIONS,
    )
