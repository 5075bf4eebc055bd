from django.apps import AppConfig


class RoundsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rounds"
    verbose_name = "Round lifecycle"
