"""Read paths of the fees app: the schedule in force, fee lines, drop boxes and their counts.

Other apps (reports, the console) read fees only through these functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import F, Q, QuerySet, Subquery, Sum

from cardroom import shifts
from fees.filing import Filed, span
from fees.models import DropBox, DropCount, FeeLine, FeeRate, FeeSchedule, FeeScheduleVersion
from fees.rules.schedule import Schedule, build_schedule
from tables.models import Round, Table
from wagers.models import AccountKind, LedgerEntry


def schedules() -> QuerySet[FeeSchedule]:
    return FeeSchedule.objects.select_related("table", "created_by").order_by("name", "id")


def versions(schedule: FeeSchedule) -> QuerySet[FeeScheduleVersion]:
    return (
        schedule.versions.select_related("created_by")
        .prefetch_related("rates")
        .order_by("effective_at")
    )


def _candidates(table: Table, moment: datetime) -> QuerySet[FeeScheduleVersion]:
    """Versions that could be in force at ``table`` at ``moment``, the one in force first.

    The table's own schedule comes before the schedule of its limit class; within a
    schedule, the latest version that has taken effect.
    """
    return (
        FeeScheduleVersion.objects.filter(effective_at__lte=moment)
        .filter(
            Q(schedule__table_id=table.pk)
            | Q(
                schedule__table__isnull=True,
                schedule__class_minimum_cents=table.minimum_cents,
                schedule__class_maximum_cents=table.maximum_cents,
            )
        )
        .order_by(F("schedule__table_id").asc(nulls_last=True), "-effective_at")
    )


def schedule_in_force(table: Table, moment: datetime) -> FeeScheduleVersion | None:
    """The version of the collection schedule in force at ``table`` at ``moment``, if any."""
    return _candidates(table, moment).select_related("schedule").first()


def snapshot_in_force(table: Table, moment: datetime) -> dict | None:
    """The version in force with its rates, as the JSON a round freezes (one query)."""
    rates = list(
        FeeRate.objects.filter(version=Subquery(_candidates(table, moment).values("pk")[:1]))
        .select_related("version")
        .order_by("position")
    )
    if not rates:
        return None
    version = rates[0].version
    return {
        "version_id": version.pk,
        "schedule_id": version.schedule_id,
        "number": version.number,
        "player_dealer_basis": version.player_dealer_basis,
        "charged_squares": list(version.charged_squares),
        "table_minimum_cents": version.table_minimum_cents,
        "table_maximum_cents": version.table_maximum_cents,
        "rates": [{"position": r.position, **r.as_row()} for r in rates],
    }


def engine_schedule(snapshot: dict) -> Schedule:
    """The fee engine's schedule from a round's frozen snapshot."""
    return build_schedule(
        basis=snapshot["player_dealer_basis"],
        rates=[{k: v for k, v in row.items() if k != "position"} for row in snapshot["rates"]],
        table_minimum=snapshot["table_minimum_cents"],
        table_maximum=snapshot["table_maximum_cents"],
        charged_squares=snapshot["charged_squares"],
    )


def fee_lines(round_: Round | int) -> QuerySet[FeeLine]:
    """The fee lines of a round in order, with payer, waiver and version."""
    return (
        FeeLine.objects.filter(round=round_)
        .select_related("player", "version__schedule", "waiver__waived_by")
        .order_by("order")
    )


@dataclass(frozen=True)
class RoundFees:
    assessed: int  # every fee line
    waived: int
    returned: int  # fees of a voided hand, returned
    collected: int  # what stays in the drop


def round_fees(round_: Round) -> RoundFees:
    lines = list(FeeLine.objects.filter(round=round_).select_related("waiver"))
    assessed = sum(line.amount_cents for line in lines)
    waived = sum(line.amount_cents for line in lines if hasattr(line, "waiver"))
    returned = (assessed - waived) if round_.state == "voided" else 0
    return RoundFees(assessed, waived, returned, assessed - waived - returned)


# --- The drop ---------------------------------------------------------------------------


def recorded_drop(table_id: int, start: datetime, end: datetime) -> int:
    """Net fees into the table's drop in [start, end): fees less waivers and void returns."""
    total = LedgerEntry.objects.filter(
        account__kind=AccountKind.DROP,
        account__table_id=table_id,
        transaction__at__gte=start,
        transaction__at__lt=end,
    ).aggregate(total=Sum("amount_cents"))["total"]
    return total or 0


@dataclass(frozen=True)
class Reconciliation:
    box: DropBox
    start: datetime
    end: datetime
    recorded_cents: int
    count: DropCount | None  # the latest count; None until counted
    counts: int  # how many counts (1 + recounts)

    @property
    def counted_cents(self) -> int | None:
        return self.count.amount_cents if self.count else None

    @property
    def difference_cents(self) -> int | None:
        """Counted minus recorded: above zero an overage, below zero a shortage."""
        return None if self.count is None else self.count.amount_cents - self.recorded_cents


def drop_boxes(
    *, table_id: int | None = None, gaming_day: date | None = None, shift: str | None = None
) -> QuerySet[DropBox]:
    boxes = DropBox.objects.select_related("table").order_by("gaming_day", "table__name", "shift")
    if table_id is not None:
        boxes = boxes.filter(table_id=table_id)
    if gaming_day is not None:
        boxes = boxes.filter(gaming_day=gaming_day)
    if shift is not None:
        boxes = boxes.filter(shift=shift)
    return boxes


def counts(box: DropBox) -> QuerySet[DropCount]:
    return box.counts.select_related("entered_by").order_by("entered_at", "id")


def reconcile(box: DropBox) -> Reconciliation:
    """A box's counted amount against the fees the system recorded for its table and shift."""
    return reconciliations([box])[0]


def reconciliations(boxes) -> list[Reconciliation]:
    """``reconcile`` for many boxes in two queries, whatever their number (a page of boxes):
    one for every count, one summing each box's drop entries over its own shift."""
    boxes = list(boxes)
    if not boxes:
        return []
    windows = {box.pk: shifts.window(box.gaming_day, box.shift) for box in boxes}
    by_box: dict[int, list[DropCount]] = {}
    for count in (
        DropCount.objects.filter(box__in=boxes)
        .select_related("entered_by")
        .order_by("entered_at", "id")
    ):
        by_box.setdefault(count.box_id, []).append(count)
    recorded = LedgerEntry.objects.filter(
        account__kind=AccountKind.DROP,
        account__table_id__in={box.table_id for box in boxes},
        transaction__at__gte=min(start for start, _ in windows.values()),
        transaction__at__lt=max(end for _, end in windows.values()),
    ).aggregate(
        **{
            f"box_{box.pk}": Sum(
                "amount_cents",
                filter=Q(
                    account__table_id=box.table_id,
                    transaction__at__gte=windows[box.pk][0],
                    transaction__at__lt=windows[box.pk][1],
                ),
            )
            for box in boxes
        }
    )
    return [
        Reconciliation(
            box=box,
            start=windows[box.pk][0],
            end=windows[box.pk][1],
            recorded_cents=recorded[f"box_{box.pk}"] or 0,
            count=by_box[box.pk][-1] if box.pk in by_box else None,
            counts=len(by_box.get(box.pk, ())),
        )
        for box in boxes
    ]


# --- Filing -----------------------------------------------------------------------------


def filed_in_force(moment: datetime, table_ids=None) -> list:
    """Each table's schedule version in force at ``moment``, ready for ``fees.filing``."""
    tables = Table.objects.order_by("name")
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    filed = []
    for table in tables:
        version = schedule_in_force(table, moment)
        if version is not None:
            filed.append(Filed(table.name, version))
    return filed


def filed_version(version: FeeScheduleVersion) -> list:
    """One version, labelled with its table or limit class."""
    schedule = version.schedule
    label = (
        schedule.table.name
        if schedule.table_id
        else f"tables of {span(schedule.class_minimum_cents, schedule.class_maximum_cents)}"
    )
    return [Filed(label, version)]
