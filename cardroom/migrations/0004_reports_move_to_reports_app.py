"""The compliance reports' models moved to the ``reports`` app; their tables keep their names.

State only: the tables ``cardroom_reportrequest`` and ``cardroom_reportdownload`` stay as
they are and now belong to ``reports`` (its migration 0001 takes them over).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0003_reports"),
        ("reports", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ReportDownload"),
                migrations.DeleteModel(name="ReportRequest"),
            ],
            database_operations=[],
        ),
    ]
