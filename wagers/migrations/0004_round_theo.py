"""A hand's theo (docs/rules.md §13.5): one row per round, stored at "no more bets".

The rows are history: on PostgreSQL a trigger refuses every UPDATE and DELETE
(``cardroom/history.py``), like the ledger's. Rounds that passed "no more bets" before this
migration have no row; the bankroll and the reports compare theo with the actual result
over the hands that have one.
"""

import django.db.models.deletion
from django.db import migrations, models

from cardroom.history import REFUSE_HISTORY_CHANGE, drop_immutable, immutable, run_on_postgresql

TABLE = "wagers_roundtheo"


def install(apps, schema_editor):
    run_on_postgresql(schema_editor, REFUSE_HISTORY_CHANGE, immutable(TABLE))


def uninstall(apps, schema_editor):
    # The function stays: the ledger's guards (0002) use it too.
    run_on_postgresql(schema_editor, drop_immutable(TABLE))


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0006_hand_result_in_words"),
        ("wagers", "0003_finished_round_guards"),
    ]

    operations = [
        migrations.CreateModel(
            name="RoundTheo",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("theo_cents", models.DecimalField(decimal_places=4, max_digits=20)),
                ("std_dev_cents", models.DecimalField(decimal_places=4, max_digits=20)),
                ("ante_cents", models.BigIntegerField()),
                ("trips_cents", models.BigIntegerField()),
                ("bad_beat_cents", models.BigIntegerField()),
                ("base_game_edge", models.DecimalField(decimal_places=12, max_digits=20)),
                ("trips_edge", models.DecimalField(decimal_places=12, max_digits=20)),
                (
                    "bad_beat_edge",
                    models.DecimalField(blank=True, decimal_places=12, max_digits=20, null=True),
                ),
                ("recorded_at", models.DateTimeField()),
                (
                    "round",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="theo",
                        to="tables.round",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("std_dev_cents__gte", 0)),
                        name="theo_spread_not_negative",
                    )
                ],
            },
        ),
        migrations.RunPython(install, uninstall),
    ]
