"""The load_demo command is idempotent, refuses to run outside DEBUG, and opens a live floor."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.clock import now
from cardroom.roles import roles_of
from rounds import services as rounds
from rounds.management.commands.load_demo import (
    BACCARAT_TABLES,
    BACCARAT_WAITING,
    CARD_TABLE,
    CARD_TABLE_PLAYERS,
    DEMO_FLOOR,
    DEMO_STAFF,
)
from tables.models import DealMode, Game, Round, Seating, Table
from tables.services import button
from tests.builders.fees import differences
from wagers.services.chips import chip_account

pytestmark = pytest.mark.django_db


@pytest.fixture
def debug_on(settings):
    # pytest-django runs tests with DEBUG off; the command is meant for DEBUG setups.
    settings.DEBUG = True


def test_creates_the_demo_superuser_once_with_a_warning(debug_on, capsys):
    call_command("load_demo")
    first = capsys.readouterr().out
    call_command("load_demo")
    second = capsys.readouterr().out

    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff
    assert admin.check_password("admin")
    for username, role in DEMO_STAFF.items():
        user = get_user_model().objects.get(username=username)
        assert roles_of(user) == {role}
        assert user.check_password(username)
    assert "DEMO CREDENTIAL" in first
    assert "already exists" in second
    # The floor is simulated once: a second run adds no rounds, and the books balance.
    assert Round.objects.filter(state="settled").count() > 0
    assert Round.objects.count() == DEMO_FLOOR["rounds"]
    assert list(differences()) == []


def test_never_resets_a_changed_password(debug_on):
    get_user_model().objects.create_superuser("admin", "", "changed-by-a-human")
    call_command("load_demo")
    assert get_user_model().objects.get(username="admin").check_password("changed-by-a-human")


def test_refuses_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo")
    assert not get_user_model().objects.exists()


def test_the_demo_floor_is_live(debug_on):
    """The floor opens live: every game opened now (not when the simulated history began),
    a card-entry table with players who bought in, a TPPP seated; the button offered at
    a demo table is accepted and the hand starts, the game going on."""
    call_command("load_demo")
    moment = now()
    tables = Table.objects.order_by("name")
    assert tables.count() == DEMO_FLOOR["tables"] + 1 + len(BACCARAT_TABLES)
    for table in tables:
        game = Game.objects.get(table=table, ended_at__isnull=True)
        assert moment - game.opened_at < timedelta(minutes=5), table.name
    # The simulated hands are history: all before the games of now.
    assert Round.objects.filter(started_at__gt=moment - timedelta(minutes=30)).count() == 0
    card = Table.objects.get(name=CARD_TABLE)
    assert card.deal_mode == DealMode.CARD_ENTRY
    seated = Seating.objects.filter(table=card, left_at__isnull=True).select_related("player")
    assert sorted(s.player.name for s in seated) == sorted(CARD_TABLE_PLAYERS)
    assert {chip_account(s.player, card).balance_cents for s in seated} == {20_000}
    assert Seating.objects.filter(left_at__isnull=True, player__tppp__isnull=False).exists()

    dealer = get_user_model().objects.get(username="dealer")
    table = Table.objects.filter(name__startswith="DEMO-1-").order_by("name").first()
    offer = button.offer_button(table_id=table.pk, by=dealer)
    button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=True, by=dealer)
    started = rounds.start_round(table_id=table.pk, by=dealer)
    assert started.state == "wagering", started
    assert Game.objects.get(table=table, ended_at__isnull=True).rounds.count() == 1
    assert list(differences()) == []


def test_the_demo_floor_has_ez_baccarat_tables_open_with_players_and_a_list(debug_on):
    from tables.selectors import waitlist_views

    call_command("load_demo")
    for name, spec in BACCARAT_TABLES.items():
        table = Table.objects.get(name=name)
        assert table.game == "ez_baccarat"
        seated = Seating.objects.filter(table=table, left_at__isnull=True).count()
        assert seated == len(spec["players"])
        assert Game.objects.filter(table=table, ended_at__isnull=True).exists()
        assert not Round.objects.filter(table=table).exists()  # no baccarat hands yet
    assert Table.objects.get(name="DEMO-BAC-2").seat_count == 7
    lists = {str(view.waitlist): view for view in waitlist_views()}
    baccarat = lists["$20.00 - $2,000.00 EZ Baccarat"]
    assert [baccarat.player(e.player).name for e in baccarat.now.entries] == BACCARAT_WAITING
    assert [(s.table.name, s.seat) for s in baccarat.open_seats] == [
        ("DEMO-BAC-1", 7), ("DEMO-BAC-1", 8), ("DEMO-BAC-1", 9)
    ]  # fmt: skip
