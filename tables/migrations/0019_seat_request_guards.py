"""PostgreSQL guards for the floor's seat requests (docs/rules.md §3.6, §10.1): must-move
links, table changes and seat passes are history.

- No row is ever deleted.
- A must-move link or a table change changes once, when the services end it: ``ended_at``
  set from empty with ``ended_by`` and ``end`` (a table change also ``moved_to``, the seat
  it moved to); every other column stays as recorded, and an ended row never changes.
- A seat pass is never edited.
SQLite (the development default) has no such triggers; the services write the same.
"""

from django.db import migrations

from cardroom.history import (
    DROP_REFUSE_CHANGE_BUT_ENDING,
    REFUSE_CHANGE_BUT_ENDING,
    REFUSE_HISTORY_CHANGE,
    drop_ended_once,
    drop_immutable,
    ended_once,
    immutable,
    run_on_postgresql,
)

# table -> the columns its ending sets (the first: when it ended)
ENDED_ONCE = {
    "tables_mustmove": ("ended_at", "ended_by_id", "end"),
    "tables_tablechange": ("ended_at", "ended_by_id", "end", "moved_to_id"),
}
IMMUTABLE = "tables_seatpass"


def install(apps, schema_editor):
    run_on_postgresql(
        schema_editor,
        REFUSE_CHANGE_BUT_ENDING,
        REFUSE_HISTORY_CHANGE,
        *(ended_once(table, *columns) for table, columns in ENDED_ONCE.items()),
        immutable(IMMUTABLE),
    )


def uninstall(apps, schema_editor):
    run_on_postgresql(
        schema_editor,
        drop_immutable(IMMUTABLE),
        *(drop_ended_once(table) for table in ENDED_ONCE),
        DROP_REFUSE_CHANGE_BUT_ENDING,
    )


class Migration(migrations.Migration):
    dependencies = [("tables", "0018_names_in_english")]
    operations = [migrations.RunPython(install, uninstall)]
