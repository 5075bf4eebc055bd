"""The reports app takes over the compliance report tables the kernel app created.

State only: ``cardroom_reportrequest`` and ``cardroom_reportdownload`` exist already (made
by ``cardroom`` 0003 on every database); this records them as this app's models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('cardroom', '0003_reports'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ReportRequest',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('report_type', models.CharField(choices=[('rotation', 'Player-dealer rotation record'), ('table_activity', 'Table activity and collection (drop)'), ('banking', 'Player-dealer banking and bankroll'), ('audit', 'Hand and wager audit export'), ('currency', 'Title 31 currency log'), ('fee_filing', 'Fee schedule filing')], max_length=32)),
                        ('parameters', models.JSONField()),
                        ('parameters_key', models.CharField(max_length=64)),
                        ('requested_at', models.DateTimeField()),
                        ('scheduled', models.BooleanField(default=False)),
                        ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=16)),
                        ('task_id', models.CharField(blank=True, max_length=64)),
                        ('attempts', models.PositiveSmallIntegerField(default=0)),
                        ('started_at', models.DateTimeField(blank=True, null=True)),
                        ('lease_expires_at', models.DateTimeField(blank=True, null=True)),
                        ('finished_at', models.DateTimeField(blank=True, null=True)),
                        ('period_open', models.BooleanField(null=True)),
                        ('row_count', models.PositiveBigIntegerField(blank=True, null=True)),
                        ('file', models.FileField(blank=True, max_length=300, upload_to='')),
                        ('file_name', models.CharField(blank=True, max_length=200)),
                        ('content_type', models.CharField(blank=True, max_length=100)),
                        ('size_bytes', models.PositiveBigIntegerField(blank=True, null=True)),
                        ('sha256', models.CharField(blank=True, max_length=64)),
                        ('failure_reason', models.TextField(blank=True)),
                        ('retention_until', models.DateField()),
                        ('requested_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'cardroom_reportrequest',
                        'ordering': ['-requested_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='ReportDownload',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('downloaded_at', models.DateTimeField()),
                        ('sha256', models.CharField(max_length=64)),
                        ('remote_addr', models.CharField(blank=True, max_length=64)),
                        ('downloaded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('report', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='downloads', to='reports.reportrequest')),
                    ],
                    options={
                        'db_table': 'cardroom_reportdownload',
                        'ordering': ['-downloaded_at', '-id'],
                    },
                ),
                migrations.AddIndex(
                    model_name='reportrequest',
                    index=models.Index(fields=['report_type', 'status', 'requested_at'], name='cardroom_re_report__a91d41_idx'),
                ),
                migrations.AddConstraint(
                    model_name='reportrequest',
                    constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['queued', 'running'])), fields=('report_type', 'parameters_key'), name='one_in_flight_report_per_parameters'),
                ),
                migrations.AddConstraint(
                    model_name='reportrequest',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'done'), _negated=True), models.Q(('sha256', ''), _negated=True), _connector='OR'), name='done_report_has_checksum'),
                ),
            ],
            database_operations=[],
        ),
    ]
