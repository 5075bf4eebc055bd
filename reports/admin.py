"""Admin views of the compliance reports: read-only (runs and downloads are records)."""

from django.contrib import admin

from reports.models import ReportDownload, ReportRequest


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # docs/rules.md §10.6: kept five years (seven for accounting)


@admin.register(ReportRequest)
class ReportRequestAdmin(ReadOnly):
    list_display = ["id", "report_type", "status", "requested_by", "requested_at", "row_count",
                    "sha256", "retention_until"]  # fmt: skip
    list_filter = ["report_type", "status", "scheduled"]
    date_hierarchy = "requested_at"


@admin.register(ReportDownload)
class ReportDownloadAdmin(ReadOnly):
    list_display = ["id", "report", "downloaded_by", "downloaded_at", "sha256", "remote_addr"]
    date_hierarchy = "downloaded_at"
