"""A round no longer carries its collection schedule: the fees app keeps it
(``fees.RoundFeeSchedule``, copied there by the fees app's migration 0003)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0002_round_fee_schedule"),
        ("fees", "0003_roundfeeschedule"),
    ]

    operations = [
        migrations.RemoveField(model_name="round", name="fee_schedule"),
        migrations.RemoveField(model_name="round", name="fee_schedule_version"),
    ]
