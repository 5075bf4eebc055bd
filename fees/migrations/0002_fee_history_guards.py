"""PostgreSQL guards: schedule versions, rates, fee lines, waivers and counts are history.

UPDATE and DELETE are refused (``refuse_history_change`` comes from the wagers guards): a
schedule changes by a new version, a fee by a waiver or a reversal, a count by a recount.
SQLite has no such triggers; the services never update these rows.
"""

from django.db import migrations

TABLES = (
    "fees_feescheduleversion",
    "fees_feerate",
    "fees_feeline",
    "fees_feewaiver",
    "fees_dropcount",
)


def _run(schema_editor, statements) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def install(apps, schema_editor):
    _run(
        schema_editor,
        [
            f"CREATE TRIGGER {t}_immutable BEFORE UPDATE OR DELETE ON {t} "
            "FOR EACH ROW EXECUTE FUNCTION refuse_history_change();"
            for t in TABLES
        ],
    )


def remove(apps, schema_editor):
    _run(schema_editor, [f"DROP TRIGGER IF EXISTS {t}_immutable ON {t};" for t in TABLES])


class Migration(migrations.Migration):
    dependencies = [
        ("fees", "0001_initial"),
        ("wagers", "0002_ledger_guards"),
    ]

    operations = [migrations.RunPython(install, remove)]
