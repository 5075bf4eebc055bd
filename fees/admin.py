"""Admin of the fees records: read-only (schedules, waivers and counts go through the services)."""

from __future__ import annotations

from django.contrib import admin

from fees.models import DropBox, DropCount, FeeLine, FeeRate, FeeSchedule, FeeScheduleVersion
from tables.admin import ReadOnlyAdmin, ReadOnlyTabularInline


class FeeRateInline(ReadOnlyTabularInline):
    model = FeeRate
    show_change_link = False


@admin.register(FeeSchedule)
class FeeScheduleAdmin(ReadOnlyAdmin):
    list_display = ["id", "name", "table", "class_minimum_cents", "class_maximum_cents"]
    search_fields = ["name"]


@admin.register(FeeScheduleVersion)
class FeeScheduleVersionAdmin(ReadOnlyAdmin):
    list_display = ["id", "schedule", "number", "effective_at", "player_dealer_basis"]
    list_select_related = ["schedule"]
    inlines = [FeeRateInline]


@admin.register(FeeLine)
class FeeLineAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "round",
        "order",
        "payer_kind",
        "player",
        "seat",
        "square",
        "amount_cents",
    ]
    list_filter = ["payer_kind", "square"]
    list_select_related = ["round__table", "player"]


class DropCountInline(ReadOnlyTabularInline):
    model = DropCount
    show_change_link = False


@admin.register(DropBox)
class DropBoxAdmin(ReadOnlyAdmin):
    list_display = ["box_number", "table", "gaming_day", "shift"]
    list_filter = ["shift"]
    search_fields = ["box_number"]
    inlines = [DropCountInline]
