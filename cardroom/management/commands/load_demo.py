"""Load demonstration data so ``make run`` opens onto a usable system.

Idempotent: it only creates what is missing and never overwrites existing rows (in
particular it never resets a password someone has changed). Later issues grow the demo.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_ADMIN_USERNAME = "admin"
# Deliberately public: this is a demo credential, and the command refuses to run without DEBUG.
DEMO_ADMIN_PASSWORD = "admin"


class Command(BaseCommand):
    help = "Create demonstration data (a demo superuser admin/admin) if it is missing."

    def handle(self, *args, **options) -> None:
        # A well-known password must never reach a production cardroom.
        if not settings.DEBUG:
            raise CommandError("load_demo only runs with DEBUG on: it creates admin/admin")

        user_model = get_user_model()
        if user_model.objects.filter(username=DEMO_ADMIN_USERNAME).exists():
            self.stdout.write(f"Demo user {DEMO_ADMIN_USERNAME!r} already exists; left as is.")
            return

        user_model.objects.create_superuser(
            username=DEMO_ADMIN_USERNAME, email="", password=DEMO_ADMIN_PASSWORD
        )
        banner = "!" * 72
        self.stdout.write(
            self.style.WARNING(
                f"{banner}\n"
                f"DEMO CREDENTIAL CREATED: superuser {DEMO_ADMIN_USERNAME!r} with password "
                f"{DEMO_ADMIN_PASSWORD!r}.\n"
                "Anyone who can reach this server can log in with it. Demo use only.\n"
                f"{banner}"
            )
        )
