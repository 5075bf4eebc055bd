from django.contrib import admin

from .models import StaffAction


@admin.register(StaffAction)
class StaffActionAdmin(admin.ModelAdmin):
    """Read-only: the trail is append-only, so nobody adds, edits or deletes here."""

    list_display = ["at", "username", "channel", "action", "outcome", "status_code", "path"]
    list_filter = ["channel", "outcome"]
    search_fields = ["username", "action", "path", "message"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
