"""The anomaly report (docs/reports.md, docs/rules.md §13.6): a report type more. Choices
only: no column changes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("reports", "0003_heartbeat_and_hand_over")]

    operations = [
        migrations.AlterField(
            model_name="reportrequest",
            name="report_type",
            field=models.CharField(
                choices=[
                    ("rotation", "Player-dealer rotation record"),
                    ("table_activity", "Table activity and collection (drop)"),
                    ("banking", "Player-dealer banking and bankroll"),
                    ("audit", "Hand and wager audit export"),
                    ("currency", "Title 31 currency log"),
                    ("fee_filing", "Fee schedule filing"),
                    ("anomalies", "Player-dealer results against theo (anomalies)"),
                ],
                max_length=32,
            ),
        ),
    ]
