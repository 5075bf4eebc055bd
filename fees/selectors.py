"""Read paths of the fees app: the schedule in force, fee lines, drop boxes and their counts.

Other apps (reports, the console) read fees only through these functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from cardroom import shifts
from cardroom.errors import State
from cardroom.money import dollar_range
from fees.filing import Filed
from fees.models import (
    DropBox,
    DropCount,
    FeeLine,
    FeeRate,
    FeeSchedule,
    FeeScheduleVersion,
    PayerKind,
    RoundFeeSchedule,
)
from fees.rules.assessment import Assessment, Wagered, assess, least_player_dealer_fee
from fees.rules.schedule import ALL_SQUARES, Schedule, build_schedule
from games.registry import game as game_of_key
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


# Versions of a schedule, the one in force first: the latest that has taken effect.
LATEST_FIRST = ("-effective_at", "-id")


def _candidates(table_id, minimum, maximum, moment: datetime) -> QuerySet[FeeScheduleVersion]:
    """Versions that could be in force at a table at ``moment``, the one in force first
    (docs/rules.md §9.5): the table's own schedule before the schedule of its limit class;
    within a schedule, the latest version that has taken effect.

    The table's id and limits may be ``OuterRef``s, so one query finds the version in force
    at every table (``versions_in_force``).
    """
    return (
        FeeScheduleVersion.objects.filter(effective_at__lte=moment)
        .filter(
            Q(schedule__table_id=table_id)
            | Q(
                schedule__table__isnull=True,
                schedule__class_minimum_cents=minimum,
                schedule__class_maximum_cents=maximum,
            )
        )
        .order_by(F("schedule__table_id").asc(nulls_last=True), *LATEST_FIRST)
    )


def _candidates_at(table: Table, moment: datetime) -> QuerySet[FeeScheduleVersion]:
    return _candidates(table.pk, table.minimum_cents, table.maximum_cents, moment)


def schedule_in_force(table: Table, moment: datetime) -> FeeScheduleVersion | None:
    """The version of the collection schedule in force at ``table`` at ``moment``, if any."""
    return _candidates_at(table, moment).select_related("schedule").first()


def versions_in_force(moment: datetime, tables: QuerySet[Table] | None = None) -> dict[int, int]:
    """The version in force at each table at ``moment`` (table id -> version id; a table
    with none is left out), in one query, by the same rule as ``schedule_in_force``."""
    tables = Table.objects.all() if tables is None else tables
    candidates = _candidates(
        OuterRef("pk"), OuterRef("minimum_cents"), OuterRef("maximum_cents"), moment
    )
    rows = tables.annotate(version_id=Subquery(candidates.values("pk")[:1])).values_list(
        "pk", "version_id"
    )
    return {table_id: version_id for table_id, version_id in rows if version_id is not None}


def snapshot_in_force(table: Table, moment: datetime) -> dict | None:
    """The version in force with its rates, as the JSON a round freezes (one query)."""
    rates = list(
        FeeRate.objects.filter(version=Subquery(_candidates_at(table, moment).values("pk")[:1]))
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


def wagered(bets: Iterable) -> list[Wagered]:
    """A round's bets (each with its hand) as the fee engine reads them."""
    return [
        Wagered(
            seat=bet.hand.seat,
            bettor=bet.bettor,
            payer_id=bet.player_id,
            squares={square: getattr(bet, f"{square}_cents") for square in ALL_SQUARES},
        )
        for bet in bets
    ]


def least_player_dealer_owes(round_: Round, snapshot: dict | None, bets: Iterable) -> int:
    """The least the player-dealer of ``round_`` will owe in collection fees at "no more
    bets" (cents), under its frozen schedule ``snapshot`` (None: no fees, 0) and with
    ``bets`` on the layout so far (``fees.rules.assessment.least_player_dealer_fee``,
    docs/rules.md §9.4). For the bank's check (``rounds.services.post_bank``) and the
    tablet's bank form."""
    if snapshot is None:
        return 0
    return least_player_dealer_fee(
        engine_schedule(snapshot),
        wagered(bets),
        player_dealer_id=round_.player_dealer_id,
        player_dealer_seat=round_.player_dealer_seat,
        chip_unit=round_.options["chip_unit_cents"],
        least_hand=game_of_key(round_.options.get("game")).least_hand,
    )


def layout_fees(round_: Round, snapshot: dict | None, bets: Iterable) -> Assessment | None:
    """The fees ``bets`` would owe if "no more bets" were called now, under the frozen
    schedule ``snapshot`` (None: no fees), as the assessment will compute them."""
    if snapshot is None:
        return None
    return assess(
        engine_schedule(snapshot),
        wagered(bets),
        player_dealer_id=round_.player_dealer_id,
        player_dealer_seat=round_.player_dealer_seat,
    )


def fee_lines(round_: Round | int) -> QuerySet[FeeLine]:
    """The fee lines of a round in order, with payer, waiver and version."""
    return (
        FeeLine.objects.filter(round=round_)
        .select_related("player", "version__schedule", "waiver__waived_by")
        .order_by("order")
    )


def round_schedule(round_: Round | int) -> RoundFeeSchedule | None:
    """The schedule version frozen when the hand started, with its rates; None: no fees."""
    return RoundFeeSchedule.objects.filter(round=round_).select_related("version").first()


WAIVED = Q(waiver__isnull=False)
RETURNED = Q(waiver__isnull=True, round__state=State.VOIDED)  # a voided hand's fees go back


def fee_sums() -> dict:
    """The SQL aggregates of a set of fee lines (``FeeLine`` queryset ``.aggregate`` or
    ``.annotate``): assessed, waived, returned with a voided hand, lines and waivers. What
    stays in the drop is assessed - waived - returned (``collected``)."""
    return {
        "assessed": Coalesce(Sum("amount_cents"), 0),
        "waived": Coalesce(Sum("amount_cents", filter=WAIVED), 0),
        "returned": Coalesce(Sum("amount_cents", filter=RETURNED), 0),
        "lines": Count("id"),
        "waivers": Count("id", filter=WAIVED),
    }


def collected(sums: dict) -> int:
    """What stays in the drop of the fees summed by ``fee_sums``."""
    return sums["assessed"] - sums["waived"] - sums["returned"]


@dataclass(frozen=True)
class RoundFees:
    assessed: int  # every fee line
    waived: int
    returned: int  # fees of a voided hand, returned
    collected: int  # what stays in the drop


def round_fees(round_: Round | int) -> RoundFees:
    """A hand's fee totals (one query)."""
    sums = FeeLine.objects.filter(round=round_).aggregate(**fee_sums())
    return RoundFees(sums["assessed"], sums["waived"], sums["returned"], collected(sums))


@dataclass(frozen=True)
class SeatFees:
    """What the players of a seat pay in collection fees for one hand: the seated player's fee
    lines and those of its backline bettors; at the player-dealer's seat, the player-dealer's
    (charged on the other seats' wagers or on the table's action, docs/rules.md §9.2)."""

    assessed: int
    waived: int  # of it, waived by a floor supervisor (docs/rules.md §9.6)

    @property
    def owed(self) -> int:
        """What the seat pays for the hand: the fees not waived."""
        return self.assessed - self.waived

    @property
    def all_waived(self) -> bool:
        return self.waived == self.assessed


def seat_fees(lines: Iterable[FeeLine], player_dealer_seat: int) -> dict[int, SeatFees]:
    """Each seat's fees for a hand, from its fee lines (``fee_lines``, waivers fetched): a
    line is the seat's it was wagered at, but a player-dealer's line is the player-dealer's
    seat's."""
    sums: dict[int, tuple[int, int]] = {}
    for line in lines:
        seat = player_dealer_seat if line.payer_kind == PayerKind.PLAYER_DEALER else line.seat
        assessed, waived = sums.get(seat, (0, 0))
        waived_now = line.amount_cents if hasattr(line, "waiver") else 0
        sums[seat] = (assessed + line.amount_cents, waived + waived_now)
    return {seat: SeatFees(*figures) for seat, figures in sorted(sums.items())}


# --- The drop ---------------------------------------------------------------------------


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


# --- Schedules at a glance ------------------------------------------------------------------


@dataclass(frozen=True)
class VersionRow:
    version: FeeScheduleVersion
    status: str  # "in force", "in force at no table", "past" or "scheduled"
    tables: list[str]  # the tables it is in force at now


@dataclass(frozen=True)
class ScheduleRow:
    schedule: FeeSchedule
    versions: list[VersionRow]  # newest first


def schedule_overview(moment: datetime) -> list[ScheduleRow]:
    """Every schedule with its versions, each marked by the rule that decides the version in
    force at a table (``versions_in_force``): a limit class's latest version is in force
    only at the tables of the class that have no schedule of their own (three queries)."""
    in_force = versions_in_force(moment)
    names = dict(Table.objects.filter(pk__in=in_force).values_list("pk", "name"))
    tables_of: dict[int, list[str]] = {}
    for table_id, version_id in in_force.items():
        tables_of.setdefault(version_id, []).append(names[table_id])
    current = {
        schedule_id: version_id
        for schedule_id, version_id in FeeSchedule.objects.annotate(
            current=Subquery(
                FeeScheduleVersion.objects.filter(schedule=OuterRef("pk"), effective_at__lte=moment)
                .order_by(*LATEST_FIRST)
                .values("pk")[:1]
            )
        ).values_list("pk", "current")
    }
    rows = []
    for schedule in schedules().prefetch_related("versions__rates", "versions__created_by"):
        marked = []
        for version in sorted(schedule.versions.all(), key=lambda v: (v.effective_at, v.pk)):
            if version.effective_at > moment:
                status = "scheduled"
            elif version.pk == current[schedule.pk]:
                status = "in force" if version.pk in tables_of else "in force at no table"
            else:
                status = "past"
            marked.append(VersionRow(version, status, sorted(tables_of.get(version.pk, []))))
        rows.append(ScheduleRow(schedule, marked[::-1]))
    return rows


# --- Filing -----------------------------------------------------------------------------


def filed_in_force(moment: datetime, table_ids=None) -> list:
    """Each table's schedule version in force at ``moment``, ready for ``fees.filing``."""
    tables = Table.objects.order_by("name")
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    in_force = versions_in_force(moment, tables)
    versions = FeeScheduleVersion.objects.select_related("schedule").in_bulk(in_force.values())
    return [
        Filed(table.name, versions[in_force[table.pk]]) for table in tables if table.pk in in_force
    ]


def filed_version(version: FeeScheduleVersion) -> list:
    """One version, labelled with its table or limit class."""
    schedule = version.schedule
    label = (
        schedule.table.name
        if schedule.table_id
        else f"tables of {dollar_range(schedule.class_minimum_cents, schedule.class_maximum_cents)}"
    )
    return [Filed(label, version)]
