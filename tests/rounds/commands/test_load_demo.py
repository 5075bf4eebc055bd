"""The load_demo command is idempotent and refuses to run outside DEBUG."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.roles import roles_of
from rounds.management.commands.load_demo import DEMO_FLOOR, DEMO_STAFF
from tables.models import Round
from tests.builders.fees import differences

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
