"""Admin of the money records: all read-only (the ledger is only ever posted by the services)."""

from __future__ import annotations

from django.contrib import admin

from tables.admin import ReadOnlyAdmin, ReadOnlyTabularInline
from wagers.models import (
    Account,
    Bet,
    CageSlip,
    ComplianceReview,
    CurrencyDay,
    CurrencyTransactionReport,
    LedgerEntry,
    LedgerTransaction,
    MtlEntry,
    PlayerDealerBank,
    RoundTheo,
    SettlementLine,
)


class LedgerEntryInline(ReadOnlyTabularInline):
    model = LedgerEntry
    fields = ["account", "amount_cents", "label"]
    show_change_link = False


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "at", "by", "round", "currency", "memo"]
    list_filter = ["kind", "currency"]
    search_fields = ["memo"]
    date_hierarchy = "at"
    inlines = [LedgerEntryInline]
    list_select_related = ["by", "round__table"]


@admin.register(CageSlip)
class CageSlipAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "table", "player", "amount_cents", "currency", "transaction"]
    list_filter = ["kind", "currency"]
    search_fields = ["player__name", "player__player_number", "table__name"]
    list_select_related = ["table", "player", "transaction"]


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "kind",
        "table",
        "player",
        "round",
        "balance_cents",
        "opened_at",
        "closed_at",
    ]
    list_filter = ["kind"]
    search_fields = ["player__name", "player__player_number", "table__name"]
    list_select_related = ["table", "player", "round__table"]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "transaction", "account", "amount_cents", "label"]
    list_select_related = ["transaction", "account__player", "account__table"]


@admin.register(Bet)
class BetAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "hand",
        "bettor",
        "player",
        "ante_cents",
        "trips_cents",
        "bad_beat_cents",
        "play_cents",
    ]
    list_select_related = ["hand__round__table", "player"]


@admin.register(PlayerDealerBank)
class PlayerDealerBankAdmin(ReadOnlyAdmin):
    list_display = ["round", "player", "amount_cents", "net_cents", "exhausted", "posted_at"]
    list_select_related = ["round__table", "player"]


@admin.register(SettlementLine)
class SettlementLineAdmin(ReadOnlyAdmin):
    list_display = [
        "round",
        "order",
        "settlement_pass",
        "seat",
        "bettor",
        "wager",
        "stake_cents",
        "outcome",
        "paid_cents",
        "collected_cents",
        "returned_uncovered_cents",
        "unpaid_uncovered_cents",
    ]
    list_filter = ["settlement_pass", "wager", "outcome"]
    list_select_related = ["round__table"]


@admin.register(RoundTheo)
class RoundTheoAdmin(ReadOnlyAdmin):
    list_display = [
        "round",
        "theo_cents",
        "std_dev_cents",
        "ante_cents",
        "trips_cents",
        "bad_beat_cents",
        "recorded_at",
    ]
    list_select_related = ["round__table"]


@admin.register(CurrencyDay)
class CurrencyDayAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "player", "cash_in_cents", "cash_out_cents"]
    search_fields = ["player__name", "player__player_number"]
    list_select_related = ["player"]


@admin.register(MtlEntry)
class MtlEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "gaming_day", "table", "player", "direction", "amount_cents",
                    "identified"]  # fmt: skip
    list_filter = ["direction", "identified"]
    list_select_related = ["table", "player"]


@admin.register(CurrencyTransactionReport)
class CurrencyTransactionReportAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "player", "due_on", "filed_at", "filing_number"]
    list_select_related = ["player"]


@admin.register(ComplianceReview)
class ComplianceReviewAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "player", "kind", "raised_at", "closed_at"]
    list_filter = ["kind"]
    list_select_related = ["player"]
