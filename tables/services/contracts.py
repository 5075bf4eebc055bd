"""TPPP contracts (docs/rules.md §8.7, ``tppp.contract``): recorded by a floor supervisor or
compliance, checked when a TPPP sits down."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction

from cardroom.clock import now
from cardroom.errors import Rule, RuleError
from tables.models import Player, Table, TPPPContract, TPPPRegistration


def record_contract(
    *,
    player_id: int,
    starts_on: date,
    ends_on: date,
    approved_on: date,
    approval_number: str,
    by=None,
    table_ids=(),
    opens_at: time | None = None,
    closes_at: time | None = None,
) -> TPPPContract:
    """A TPPP's contract with the cardroom; ``table_ids`` empty: every table."""

    def refuse(message: str, field: str) -> RuleError:
        return RuleError(message, rule=Rule.TPPP_CONTRACT, field=field)

    number = (approval_number or "").strip()
    if not number or len(number) > 64:
        raise refuse(
            "the contract is recorded with the Bureau's approval number", "approval_number"
        )
    if ends_on < starts_on:
        raise refuse(f"the contract ends on {ends_on}, before it starts on {starts_on}", "ends_on")
    if approved_on > starts_on:
        raise refuse("the contract is approved before it starts", "approved_on")
    if (opens_at is None) != (closes_at is None):
        raise refuse("the hours are recorded with their start and end, or not at all", "opens_at")
    with transaction.atomic():
        registration = TPPPRegistration.objects.filter(player_id=player_id).first()
        if registration is None:
            name = Player.objects.filter(pk=player_id).values_list("name", flat=True).first()
            raise refuse(f"{name or 'the player'} is not a registered TPPP", "player")
        tables = list(Table.objects.filter(pk__in=list(table_ids)))
        if len(tables) != len(set(table_ids)):
            raise refuse("a table named is not a table of the cardroom", "tables")
        contract = TPPPContract.objects.create(
            registration=registration, starts_on=starts_on, ends_on=ends_on, opens_at=opens_at,
            closes_at=closes_at, approved_on=approved_on, approval_number=number,
            recorded_at=now(), recorded_by=by,
        )  # fmt: skip
        contract.tables.set(tables)
        return contract


def require_contract(player: Player, table: Table, moment: datetime) -> None:
    """A TPPP sits only within a contract: its dates, its tables, its hours."""
    local = moment.astimezone(ZoneInfo(settings.TIME_ZONE))
    day = local.date()
    contracts = list(
        TPPPContract.objects.filter(
            registration__player=player, starts_on__lte=day, ends_on__gte=day
        ).prefetch_related("tables")
    )
    for contract in contracts:
        named = {t.pk for t in contract.tables.all()}
        if (not named or table.pk in named) and contract.covers_hour(local.time()):
            return
    if not contracts:
        why = f"has no contract with the cardroom in force on {day}"
    else:
        why = (
            "has no contract covering "
            + f"{table} at {local:%H:%M}: "
            + "; ".join(
                f"{', '.join(t.name for t in c.tables.all()) or 'every table'}, {c.hours}, "
                f"to {c.ends_on}"
                for c in contracts
            )
        )
    raise RuleError(f"{player.name} {why}", rule=Rule.TPPP_CONTRACT, field="player")
