"""PostgreSQL guards: nothing about a finished (settled or voided) round is ever edited.

The round row itself, its hands and their decisions (the money's rows are guarded by the
money app's migrations). Rows may change while the round is in play (a hand gets its
category at the showdown). On a database whose guards an earlier version of the money
app's migrations installed, they are replaced by these, under the same names.
"""

from django.db import migrations

from cardroom.history import drop_frozen_with_round, frozen_with_round, run_on_postgresql

ROUND = "tables_round"
# (table, SQL giving the round's state from the OLD row)
GUARDED = {
    "tables_hand": "SELECT r.state FROM tables_round r WHERE r.id = OLD.round_id",
    "tables_handdecision": (
        "SELECT r.state FROM tables_round r JOIN tables_hand h ON h.round_id = r.id "
        "WHERE h.id = OLD.hand_id"
    ),
}


def install(apps, schema_editor):
    run_on_postgresql(
        schema_editor,
        frozen_with_round(ROUND, "SELECT OLD.state", name="finished_round"),
        *(frozen_with_round(t, sql) for t, sql in GUARDED.items()),
    )


def uninstall(apps, schema_editor):
    run_on_postgresql(
        schema_editor,
        drop_frozen_with_round(ROUND, name="finished_round"),
        *(drop_frozen_with_round(t) for t in GUARDED),
    )


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_round_fees_move_to_fees")]
    operations = [migrations.RunPython(install, uninstall)]
