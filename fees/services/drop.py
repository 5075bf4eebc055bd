"""Drop boxes per table, gaming day and shift, and their counts (docs/rules.md §10.4).

A count is never edited: a recount is a new row, and the latest count is the one that
reconciles with the fees recorded (``fees.selectors.reconcile``).
"""

from __future__ import annotations

from datetime import date, datetime

from django.db import IntegrityError, transaction

from cardroom import shifts
from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from fees.models import DropBox, DropCount
from tables.models import Table


def register_box(*, box_number: str, table_id: int, gaming_day: date, shift: str, by) -> DropBox:
    box_number = str(box_number or "").strip()
    if not box_number:
        raise RuleError("a drop box has its identifier", rule=Rule.DROP_COUNT, field="box_number")
    shifts.window(gaming_day, shift)  # refuses an unknown shift, naming the shifts
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise RuleError(f"no table {table_id}", rule=Rule.DROP_COUNT, field="table")
    try:
        with transaction.atomic():
            return DropBox.objects.create(
                box_number=box_number,
                table=table,
                gaming_day=gaming_day,
                shift=shift,
                registered_at=now(),
                registered_by=by,
            )
    except IntegrityError:
        raise StateError(
            f"box {box_number} is already registered, or {table} already has a box for "
            f"{gaming_day} {shift}",
            state=State.ALREADY_RECORDED,
            rule=Rule.DROP_COUNT,
        ) from None


def enter_count(
    *,
    box_id: int,
    amount_cents: int,
    counters: list[str],
    counted_at: datetime,
    by,
    note: str = "",
) -> DropCount:
    box = DropBox.objects.filter(pk=box_id).first()
    if box is None:
        raise RuleError(f"no drop box {box_id}", rule=Rule.DROP_COUNT, field="box")
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents < 0:
        raise RuleError(
            "the count is a whole number of cents, zero or more",
            rule=Rule.DROP_COUNT,
            field="amount_cents",
        )
    names = [str(name).strip() for name in counters or [] if str(name).strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise RuleError(
            "a count names its counters: at least two different people",
            rule=Rule.DROP_COUNT,
            field="counters",
        )
    _, end = shifts.window(box.gaming_day, box.shift)
    moment = now()
    if counted_at > moment:
        raise RuleError(
            "a count is entered after it is made", rule=Rule.DROP_COUNT, field="counted_at"
        )
    if counted_at < end:
        raise RuleError(
            f"the box of {box.gaming_day} {box.shift} is counted after its shift ends "
            f"({end.isoformat()})",
            rule=Rule.DROP_COUNT,
            field="counted_at",
        )
    return DropCount.objects.create(
        box=box,
        amount_cents=amount_cents,
        counters=names,
        counted_at=counted_at,
        entered_at=moment,
        entered_by=by,
        note=note or "",
    )
