"""The Administrator group holds the admin permissions its migration (cardroom 0002) promises:
every model permission, on a freshly migrated database and after every later ``migrate``."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection
from django.urls import reverse

from cardroom.roles import Role
from tests.builders.factories import UserFactory

pytestmark = pytest.mark.django_db

# The admin's pages an administrator opens: staff accounts, the floor's records, the audit
# trail, reports, fees, API tokens and sign-in lockouts.
PAGES = [
    "admin:index",
    "admin:auth_user_changelist",
    "admin:auth_user_add",
    "admin:auth_group_changelist",
    "admin:tables_player_changelist",
    "admin:tables_player_add",
    "admin:tables_table_changelist",
    "admin:tables_round_changelist",
    "admin:wagers_ledgertransaction_changelist",
    "admin:fees_feeschedule_changelist",
    "admin:reports_reportrequest_changelist",
    "admin:console_staffaction_changelist",
    "admin:knox_authtoken_changelist",
    "admin:axes_accessattempt_changelist",
]


def administrators() -> Group:
    return Group.objects.get(name=Role.ADMINISTRATOR.group_name)


def test_the_administrator_group_holds_every_permission():
    granted = set(administrators().permissions.values_list("pk", flat=True))
    assert granted == set(Permission.objects.values_list("pk", flat=True))
    assert {"add_player", "change_user", "view_staffaction"} <= set(
        administrators().permissions.values_list("codename", flat=True)
    )


@pytest.mark.parametrize("page", PAGES)
def test_an_administrator_opens_the_admin(client, page):
    user = UserFactory(role=Role.ADMINISTRATOR)
    assert not user.is_superuser
    client.force_login(user)
    assert client.get(reverse(page)).status_code == 200


def test_history_stays_read_only_for_an_administrator(client):
    client.force_login(UserFactory(role=Role.ADMINISTRATOR))
    assert client.get(reverse("admin:tables_round_add")).status_code == 403
    assert client.get(reverse("admin:console_staffaction_add")).status_code == 403


def test_another_role_opens_no_admin_page(client):
    client.force_login(UserFactory(role=Role.FLOOR_SUPERVISOR))
    assert client.get(reverse("admin:tables_player_changelist")).status_code == 403


def test_permissions_made_by_a_later_migrate_are_granted_too():
    content_type = ContentType.objects.get_for_model(Group)
    later = Permission.objects.create(
        codename="audit_group", name="Can audit group", content_type=content_type
    )
    assert not administrators().permissions.filter(pk=later.pk).exists()
    emit_post_migrate_signal(verbosity=0, interactive=False, db=connection.alias)
    assert administrators().permissions.filter(pk=later.pk).exists()


def test_the_data_migration_grants_them_on_a_database_migrated_before():
    migration = importlib.import_module("cardroom.migrations.0005_administrator_permissions")
    administrators().permissions.clear()
    migration.grant(apps, SimpleNamespace(connection=connection))
    migration.grant(apps, SimpleNamespace(connection=connection))  # idempotent
    assert administrators().permissions.count() == Permission.objects.count()
