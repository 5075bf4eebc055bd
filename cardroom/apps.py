from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.db.models.signals import post_migrate


class CardroomConfig(AppConfig):
    """The project kernel is an app too: it owns the idempotency keys and the health task."""

    default = True
    default_auto_field = "django.db.models.BigAutoField"
    name = "cardroom"
    verbose_name = "Cardroom"

    def ready(self) -> None:
        # Create the Celery app whenever Django starts, so ``@shared_task`` functions bind
        # to it (a worker started with ``celery -A cardroom`` finds ``cardroom.celery``);
        # register the system checks of secret columns (``manage.py check``).
        from cardroom import celery, secret_columns  # noqa: F401
        from cardroom.tokens import connect as connect_tokens

        # A changed password, a lost staff status, a deactivation end the user's API tokens.
        connect_tokens()
        # Permissions are made after each app migrates (post_migrate): grant them then.
        post_migrate.connect(_grant_administrator, dispatch_uid="cardroom.administrator")


def _grant_administrator(sender, using="default", apps=None, **kwargs) -> None:
    from django.contrib.auth.models import Group, Permission

    from cardroom.roles import grant_administrator_permissions

    grant_administrator_permissions(Group, Permission, using=using)


class CardroomAdminConfig(admin_apps.AdminConfig):
    """``django.contrib.admin`` with this project's site as the default (INSTALLED_APPS): every
    ModelAdmin on it refuses secret columns (``cardroom.admin_site``)."""

    default = False  # "cardroom" is the kernel's app (CardroomConfig); this one is named
    default_site = "cardroom.admin_site.CardroomAdminSite"
