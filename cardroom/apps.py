from django.apps import AppConfig


class CardroomConfig(AppConfig):
    """The project package is also an app so it can own management commands."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "cardroom"
    verbose_name = "Cardroom"
