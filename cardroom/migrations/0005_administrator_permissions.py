"""The Administrator group gets the admin permissions 0002 promised it: every model permission.

Django makes each app's permissions after that app migrates (``post_migrate``), so on a fresh
database most of them do not exist yet when this runs: ``CardroomConfig`` grants the rest
after every ``migrate`` (the same function). On a database migrated before, they all exist
and are granted here. Idempotent; undoing it leaves the group's permissions as they are.
"""

from django.db import migrations

from cardroom.roles import grant_administrator_permissions


def grant(apps, schema_editor):
    grant_administrator_permissions(
        apps.get_model("auth", "Group"),
        apps.get_model("auth", "Permission"),
        using=schema_editor.connection.alias,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0004_reports_move_to_reports_app"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
