from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "console"
    verbose_name = "Floor staff console"

    def ready(self) -> None:
        # The audit trail's CSV export is a report of the reports pipeline (docs/reports.md).
        from .audit_export import register

        register()
