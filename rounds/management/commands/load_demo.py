"""Load demonstration data so ``make run`` opens onto a usable system.

Idempotent: it only creates what is missing and never overwrites existing rows (in
particular it never resets a password someone has changed). Later issues grow the demo.
"""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from cardroom import shifts
from cardroom.clock import now
from cardroom.roles import Role
from fees.selectors import reconcile
from fees.services import drop
from tables.models import Round

DEMO_ADMIN_USERNAME = "admin"
# Deliberately public: this is a demo credential, and the command refuses to run without DEBUG.
DEMO_ADMIN_PASSWORD = "admin"
# One demo user per role, password equal to the user name (demo only, like admin/admin).
DEMO_STAFF = {
    "supervisor": Role.FLOOR_SUPERVISOR,
    "dealer": Role.HOUSE_DEALER,
    "compliance": Role.COMPLIANCE_OFFICER,
}
DEMO_FLOOR = {"tables": 3, "rounds": 60, "seed": 2026}


class Command(BaseCommand):
    help = (
        "Create demonstration data if missing: a superuser admin/admin, one user per staff "
        "role (supervisor, dealer, compliance; password = user name) and a simulated floor."
    )

    def handle(self, *args, **options) -> None:
        # A well-known password must never reach a production cardroom.
        if not settings.DEBUG:
            raise CommandError("load_demo only runs with DEBUG on: it creates admin/admin")

        self._demo_admin()
        self._demo_staff()
        if not Round.objects.exists():
            call_command("simulate", **DEMO_FLOOR, prefix="DEMO", stdout=self.stdout)
            self._demo_drop()

    def _demo_drop(self) -> None:
        """A drop box per demo table and shift played, counted once its shift is over."""
        supervisor = get_user_model().objects.get(username="supervisor")
        played = Round.objects.filter(table__name__startswith="DEMO-").values_list(
            "table_id", "started_at"
        )
        for table_id, day_shift in sorted(
            {(table_id, shifts.locate(moment)) for table_id, moment in played}
        ):
            day, shift = day_shift
            box = drop.register_box(
                box_number=f"D{table_id}-{day:%Y%m%d}-{shifts.names().index(shift) + 1}",
                table_id=table_id,
                gaming_day=day,
                shift=shift,
                by=supervisor,
            )
            counted_at = reconcile(box).end + timedelta(minutes=30)
            if counted_at <= now():
                drop.enter_count(
                    box_id=box.pk,
                    amount_cents=reconcile(box).recorded_cents,
                    counters=["Demo counter A", "Demo counter B"],
                    counted_at=counted_at,
                    by=supervisor,
                )
        self.stdout.write("Demo drop boxes registered and counted (fees: /api/fees/).")

    def _demo_staff(self) -> None:
        user_model = get_user_model()
        for username, role in DEMO_STAFF.items():
            if user_model.objects.filter(username=username).exists():
                continue
            user = user_model.objects.create_user(
                username=username, password=username, is_staff=True
            )
            user.groups.add(Group.objects.get_or_create(name=role.group_name)[0])
            self.stdout.write(f"Demo user {username!r} ({role.group_name}), password {username!r}.")

    def _demo_admin(self) -> None:
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
