"""PostgreSQL guards: a finished (settled or voided) round's wagers and bank are never edited.

Rows may change while the round is in play (a Play is added to a bet, the bank gets its
result at settlement). The round, its hands and decisions are guarded by the floor's
migrations.
"""

from django.db import migrations

from cardroom.history import drop_frozen_with_round, frozen_with_round, run_on_postgresql

# (table, SQL giving the round's state from the OLD row)
GUARDED = {
    "wagers_bet": (
        "SELECT r.state FROM tables_round r JOIN tables_hand h ON h.round_id = r.id "
        "WHERE h.id = OLD.hand_id"
    ),
    "wagers_playerdealerbank": "SELECT r.state FROM tables_round r WHERE r.id = OLD.round_id",
}


def install(apps, schema_editor):
    run_on_postgresql(schema_editor, *(frozen_with_round(t, sql) for t, sql in GUARDED.items()))


def uninstall(apps, schema_editor):
    run_on_postgresql(schema_editor, *(drop_frozen_with_round(t) for t in GUARDED))


class Migration(migrations.Migration):
    dependencies = [("wagers", "0002_ledger_guards")]
    operations = [migrations.RunPython(install, uninstall)]
