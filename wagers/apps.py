from django.apps import AppConfig


class WagersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "wagers"
