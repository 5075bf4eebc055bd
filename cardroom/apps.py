from django.apps import AppConfig


class CardroomConfig(AppConfig):
    """The project kernel is an app too: it owns the idempotency keys and the health task."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        # Create the Celery app whenever Django starts, so ``@shared_task`` functions bind
        # to it (a worker started with ``celery -A cardroom`` finds ``cardroom.celery``).
        from cardroom import celery  # noqa: F401
