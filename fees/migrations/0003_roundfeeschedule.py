"""Each round's collection schedule moves from the round to the fees app.

The version in force when a hand started, with its rates frozen, was kept on the round
(``tables_round.fee_schedule_version_id`` and ``fee_schedule``); it is now a fees row,
``RoundFeeSchedule``, so the floor knows nothing of fees. Existing rounds are copied; the
round's columns are dropped by the floor's next migration. The rows are history.
"""

import django.db.models.deletion
from django.db import migrations, models

from cardroom.history import drop_immutable, immutable, run_on_postgresql

TABLE = "fees_roundfeeschedule"


def copy_from_rounds(apps, schema_editor):
    Round = apps.get_model("tables", "Round")
    RoundFeeSchedule = apps.get_model("fees", "RoundFeeSchedule")
    rounds = Round.objects.filter(fee_schedule_version__isnull=False).values_list(
        "pk", "fee_schedule_version_id", "fee_schedule"
    )
    batch = []
    for round_id, version_id, schedule in rounds.iterator(chunk_size=2000):
        batch.append(RoundFeeSchedule(round_id=round_id, version_id=version_id, schedule=schedule))
        if len(batch) >= 2000:
            RoundFeeSchedule.objects.bulk_create(batch)
            batch = []
    RoundFeeSchedule.objects.bulk_create(batch)


def copy_back(apps, schema_editor):
    # Reversed after the floor's 0004 (which drops the finished-round guard) and 0003 (which
    # brings the round's columns back).
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tables_round SET fee_schedule_version_id = s.version_id, "
            "fee_schedule = s.schedule FROM fees_roundfeeschedule s WHERE s.round_id = tables_round.id"
        )


def install(apps, schema_editor):
    run_on_postgresql(schema_editor, immutable(TABLE))


def uninstall(apps, schema_editor):
    run_on_postgresql(schema_editor, drop_immutable(TABLE))


class Migration(migrations.Migration):
    dependencies = [
        ("fees", "0002_fee_history_guards"),
        ("tables", "0002_round_fee_schedule"),
    ]

    operations = [
        migrations.CreateModel(
            name="RoundFeeSchedule",
            fields=[
                (
                    "round",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        primary_key=True,
                        related_name="fee_schedule_in_force",
                        serialize=False,
                        to="tables.round",
                    ),
                ),
                ("schedule", models.JSONField()),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rounds",
                        to="fees.feescheduleversion",
                    ),
                ),
            ],
        ),
        migrations.RunPython(copy_from_rounds, copy_back),
        migrations.RunPython(install, uninstall),
    ]
