"""Load demonstration data so ``make run`` opens onto a usable system.

Idempotent: it only creates what is missing and never overwrites existing rows (in
particular it never resets a password someone has changed).

The floor it opens on is live: the simulated hands (three RNG tables, two with a TPPP at
seat 6) are played in the hours before now and their games closed when the last hand
ended; every table then has a game opened now, with its players still seated, beside a
card-entry table with four players who have bought in, and two EZ Baccarat tables (players
bought in, games open, a list for the first one's game and stakes; no hands played on them).
"""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from cardroom import clock, shifts
from cardroom.clock import now
from cardroom.roles import Role
from fees.selectors import reconcile
from fees.services import drop
from fees.services import schedules as fee_schedules
from rounds.simulation import SIM_FEES_PER_SQUARE
from tables.models import DealMode, Round, Table
from tables.selectors.floor import open_game
from tables.services import floor, waitlists
from wagers.services import chips

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
# The simulated hands start this long before now and end (60 hands of about 100 s) well
# before it: the games opened now are fresh, far from the 40-minute rule's window.
DEMO_HISTORY = timedelta(hours=3)
CARD_TABLE = "DEMO-CARD"
CARD_TABLE_PLAYERS = ["Ana Alvarez", "Ben Brooks", "Cleo Cruz", "Dev Desai"]
CARD_TABLE_BUY_IN = 20_000  # $200 each
# Waiting for a seat at the demo stakes, in the order they joined; the last by phone.
WAITING = ["Mia Moreno", "Noah Ng", "Omar Ortiz", "Pia Park", "Quinn Quade", "Rosa Reyes"]
# EZ Baccarat tables beside them: each with its options, its players (bought in) and a game
# open. No hands are played on them: the baccarat hand's lifecycle is not built yet
# (docs/architecture.md, "EZ Baccarat on the floor: built and not yet").
BACCARAT_TABLES = {
    "DEMO-BAC-1": {
        "options": {"minimum_cents": 2_000, "maximum_cents": 200_000, "chip_unit_cents": 500},
        "players": ["Sam Sato", "Tia Tran", "Uma Upton", "Vic Vega", "Wes Wong", "Xia Xu"],
    },
    "DEMO-BAC-2": {
        "options": {
            "minimum_cents": 10_000, "maximum_cents": 1_000_000, "chip_unit_cents": 2_500,
            "seats": 7, "decks": 6, "tie_pays": 9, "side_wager_maximum_cents": 50_000,
            "deal_mode": DealMode.CARD_ENTRY,
        },
        "players": ["Yan Yoon", "Zoe Zeller", "Abe Arden"],
    },
}  # fmt: skip
BACCARAT_BUY_IN = 100_000  # $1,000 each
# Waiting for the $20.00 - $2,000.00 EZ Baccarat list, in the order they joined.
BACCARAT_WAITING = ["Bea Bell", "Cal Cho", "Dot Diaz"]


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
            start = (now() - DEMO_HISTORY).isoformat()
            call_command("simulate", **DEMO_FLOOR, prefix="DEMO", start=start, stdout=self.stdout)
            self._demo_drop()
            self._live_floor()
        token = getattr(settings, "CARDROOM_BOARD_TOKEN", "")
        if token:
            self.stdout.write(
                f"Table board (a TV in the room, no sign-in): http://127.0.0.1:8000/board/{token}/"
            )

    def _live_floor(self) -> None:
        """The simulated games closed when their last hand ended; a game opened now at every
        table, and a card-entry table beside them."""
        supervisor = get_user_model().objects.get(username="supervisor")
        for table in Table.objects.filter(name__startswith="DEMO-").order_by("name"):
            last = table.rounds.order_by("-number").first()
            if open_game(table) is not None and last is not None:
                clock.freeze(last.ended_at or last.started_at)
                try:
                    floor.close_game(table_id=table.pk, by=supervisor, detail="demo history")
                finally:
                    clock.freeze(None)
            floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
        self._card_table(supervisor)
        self._waitlists(supervisor)
        self._baccarat_tables(supervisor)
        self.stdout.write(
            f"Demo floor live: games opened now, {CARD_TABLE} (card entry) with "
            f"{len(CARD_TABLE_PLAYERS)} players, and {len(WAITING)} players on the waitlist "
            f"(the first called to an open seat); EZ Baccarat at {', '.join(BACCARAT_TABLES)} "
            f"with {len(BACCARAT_WAITING)} players waiting."
        )

    def _baccarat_tables(self, supervisor) -> None:
        """The EZ Baccarat tables, their players bought in, a game open at each, and a list for
        the first one's game and stakes with players on it."""
        number = 0
        for name, spec in BACCARAT_TABLES.items():
            table = floor.create_table(
                name=name, by=supervisor, game="ez_baccarat", options=spec["options"]
            )
            for seat, player_name in enumerate(spec["players"], start=1):
                number += 1
                player = floor.create_player(player_number=f"DEMO-B{number}", name=player_name)
                floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=supervisor)
                chips.buy_in(
                    table_id=table.pk,
                    player_id=player.pk,
                    amount=BACCARAT_BUY_IN,
                    currency=True,
                    by=supervisor,
                )
            floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)
        first = Table.objects.get(name=next(iter(BACCARAT_TABLES)))
        row = waitlists.open_waitlist(
            minimum_cents=first.minimum_cents,
            maximum_cents=first.maximum_cents,
            game=first.game,
            by=supervisor,
        )
        for index, player_name in enumerate(BACCARAT_WAITING, start=1):
            player = floor.create_player(player_number=f"DEMO-BW{index}", name=player_name)
            waitlists.join(waitlist_id=row.pk, player_id=player.pk, by=supervisor)

    def _waitlists(self, supervisor) -> None:
        """A list for the stakes of the card table, people on it, the first called to its
        first open seat."""
        table = Table.objects.get(name=CARD_TABLE)
        row = waitlists.open_waitlist(
            minimum_cents=table.minimum_cents, maximum_cents=table.maximum_cents, by=supervisor
        )
        for number, name in enumerate(WAITING, start=1):
            player = floor.create_player(player_number=f"DEMO-W{number}", name=name)
            waitlists.join(
                waitlist_id=row.pk,
                player_id=player.pk,
                by_phone=number == len(WAITING),
                by=supervisor,
            )
        seated = set(table.seatings.filter(left_at__isnull=True).values_list("seat", flat=True))
        seat = min(set(range(1, 7)) - seated)
        waitlists.call(waitlist_id=row.pk, table_id=table.pk, seat=seat, by=supervisor)

    def _card_table(self, supervisor) -> None:
        table = floor.create_table(
            name=CARD_TABLE,
            by=supervisor,
            options={
                "minimum_cents": 500,
                "maximum_cents": 50_000,
                "chip_unit_cents": 100,
                "deal_mode": DealMode.CARD_ENTRY,
            },
        )
        schedule = fee_schedules.create_schedule(
            name=f"{CARD_TABLE} collection", table_id=table.pk, by=supervisor
        )
        fee_schedules.create_version(
            schedule_id=schedule.pk,
            rates=SIM_FEES_PER_SQUARE,
            player_dealer_basis="per_betting_square",
            note="demo floor",
            by=supervisor,
        )
        for seat, name in enumerate(CARD_TABLE_PLAYERS, start=1):
            player = floor.create_player(player_number=f"DEMO-C{seat}", name=name)
            floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=supervisor)
            chips.buy_in(
                table_id=table.pk,
                player_id=player.pk,
                amount=CARD_TABLE_BUY_IN,
                currency=True,
                by=supervisor,
            )
        floor.open_game_at(table_id=table.pk, first_offer_seat=1, by=supervisor)

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
