"""Title 31 live (docs/rules.md §10.7): each patron's currency totals per gaming day, the
Multiple Transaction Log (history: on PostgreSQL a trigger refuses every UPDATE and DELETE),
the CTRs due and filed, and the compliance officer's review queue."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from cardroom.history import REFUSE_HISTORY_CHANGE, drop_immutable, immutable, run_on_postgresql

MTL = "wagers_mtlentry"


def install(apps, schema_editor):
    run_on_postgresql(schema_editor, REFUSE_HISTORY_CHANGE, immutable(MTL))


def uninstall(apps, schema_editor):
    run_on_postgresql(schema_editor, drop_immutable(MTL))


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0016_exclusions'),
        ('wagers', '0008_round_theo_of_any_game'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CurrencyDay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('gaming_day', models.DateField()),
                ('cash_in_cents', models.BigIntegerField(default=0)),
                ('cash_out_cents', models.BigIntegerField(default=0)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='currency_days', to='tables.player')),
            ],
            options={
                'ordering': ['gaming_day', 'player'],
            },
        ),
        migrations.CreateModel(
            name='CurrencyTransactionReport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('gaming_day', models.DateField()),
                ('due_on', models.DateField()),
                ('opened_at', models.DateTimeField()),
                ('filed_at', models.DateTimeField(blank=True, null=True)),
                ('filing_number', models.CharField(blank=True, max_length=64)),
                ('currency_day', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='ctr', to='wagers.currencyday')),
                ('filed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='ctrs', to='tables.player')),
            ],
            options={
                'ordering': ['gaming_day', 'id'],
            },
        ),
        migrations.CreateModel(
            name='MtlEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('gaming_day', models.DateField()),
                ('at', models.DateTimeField()),
                ('direction', models.CharField(choices=[('in', 'Cash in'), ('out', 'Cash out')], max_length=3)),
                ('amount_cents', models.PositiveBigIntegerField()),
                ('identified', models.BooleanField()),
                ('description', models.CharField(blank=True, max_length=200)),
                ('by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('cage_slip', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='mtl_entry', to='wagers.cageslip')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='mtl_entries', to='tables.player')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.table')),
            ],
            options={
                'ordering': ['at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='ComplianceReview',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('gaming_day', models.DateField()),
                ('kind', models.CharField(choices=[('structuring', 'Cash just under the thresholds (structuring)'), ('little_play', 'Chips bought in cash and cashed out with little play')], max_length=16)),
                ('evidence', models.TextField()),
                ('raised_at', models.DateTimeField()),
                ('closed_at', models.DateTimeField(blank=True, null=True)),
                ('note', models.TextField(blank=True)),
                ('closed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reviews', to='tables.player')),
            ],
            options={
                'ordering': ['-gaming_day', 'id'],
                'constraints': [models.UniqueConstraint(fields=('player', 'gaming_day', 'kind'), name='one_review_per_pattern_and_day')],
            },
        ),
        migrations.AddConstraint(
            model_name='currencyday',
            constraint=models.UniqueConstraint(fields=('player', 'gaming_day'), name='one_currency_day_per_patron'),
        ),
        migrations.AddConstraint(
            model_name='currencyday',
            constraint=models.CheckConstraint(condition=models.Q(('cash_in_cents__gte', 0), ('cash_out_cents__gte', 0)), name='currency_totals_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='currencytransactionreport',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('filed_at__isnull', True), ('filing_number', '')), models.Q(('filed_at__isnull', False), models.Q(('filing_number', ''), _negated=True)), _connector='OR'), name='ctr_filed_with_its_number'),
        ),
        migrations.AddIndex(
            model_name='mtlentry',
            index=models.Index(fields=['gaming_day', 'at'], name='wagers_mtle_gaming__2ba988_idx'),
        ),
        migrations.RunPython(install, uninstall),
    ]
