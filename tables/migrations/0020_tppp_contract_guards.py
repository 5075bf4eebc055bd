"""PostgreSQL guards for TPPP contracts (docs/rules.md §8.7): a contract is never edited or
deleted, a renewal is a new contract; the tables it names are fixed with it (their rows are
written once, when the contract is recorded). SQLite (the development default) has no such
triggers; the service writes the same."""

from django.db import migrations

from cardroom.history import REFUSE_HISTORY_CHANGE, drop_immutable, immutable, run_on_postgresql


def _tables(apps) -> list[str]:
    contract = apps.get_model("tables", "TPPPContract")
    return [
        contract._meta.db_table,
        contract._meta.get_field("tables").remote_field.through._meta.db_table,
    ]


def install(apps, schema_editor):
    run_on_postgresql(
        schema_editor, REFUSE_HISTORY_CHANGE, *(immutable(table) for table in _tables(apps))
    )


def uninstall(apps, schema_editor):
    run_on_postgresql(schema_editor, *(drop_immutable(table) for table in _tables(apps)))


class Migration(migrations.Migration):
    dependencies = [("tables", "0019_seat_request_guards")]
    operations = [migrations.RunPython(install, uninstall)]
