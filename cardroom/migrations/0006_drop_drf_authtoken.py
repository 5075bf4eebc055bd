"""DRF's API tokens (``rest_framework.authtoken``) are gone: django-rest-knox's expire.

The app left INSTALLED_APPS, so its own migrations no longer run and cannot drop its table.
This one does: the table ``authtoken_token`` (its tokens were stored in clear and never
expired; every one of them stops working now, and API users sign in again for a knox token),
the app's rows in ``django_migrations`` (so putting the app back would make its table again),
and its content type with that type's permissions. On a fresh database there is nothing to
drop. Nothing to undo: a dropped token cannot come back.
"""

from django.db import migrations


def forget_content_type(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.using(schema_editor.connection.alias).filter(app_label="authtoken").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0005_administrator_permissions"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [
        migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", migrations.RunSQL.noop),
        migrations.RunSQL(
            "DELETE FROM django_migrations WHERE app = 'authtoken'", migrations.RunSQL.noop
        ),
        migrations.RunPython(forget_content_type, migrations.RunPython.noop),
    ]
