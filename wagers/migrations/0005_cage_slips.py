"""Cage slips (docs/money.md, "Cage slips"): the record of each buy-in, cash-out, fill and
credit, written with its ledger transaction from now on; ``verify_ledger`` checks the one
against the other.

The rows are history: on PostgreSQL a trigger refuses every UPDATE and DELETE
(``cardroom/history.py``), like the ledger's. Chip movements posted before this migration
get their slip from the ledger as it stands (the transaction's kind and currency flag, its
player's leg): the books are taken as their own record up to here, and ``verify_ledger``
checks every movement against its slip from here on.
"""

import django.db.models.deletion
from django.db import migrations, models

from cardroom.history import REFUSE_HISTORY_CHANGE, drop_immutable, immutable, run_on_postgresql

TABLE = "wagers_cageslip"
KINDS = ("buy_in", "cash_out", "fill", "credit")
CHIP_ACCOUNTS = ("patron_chips", "bankroll")


def slips_from_the_ledger(apps, schema_editor):
    LedgerEntry = apps.get_model("wagers", "LedgerEntry")
    CageSlip = apps.get_model("wagers", "CageSlip")
    legs = (
        LedgerEntry.objects.filter(
            transaction__kind__in=KINDS, account__kind__in=CHIP_ACCOUNTS
        )
        .order_by("transaction_id", "id")
        .values_list(
            "transaction_id", "transaction__kind", "transaction__currency", "account_id",
            "account__table_id", "account__player_id", "amount_cents",
        )
    )
    batch, seen = [], set()
    for transaction_id, kind, currency, account_id, table_id, player_id, amount in legs.iterator(
        chunk_size=5_000
    ):
        if transaction_id in seen or not amount:
            continue  # one slip per movement, from its first leg on a player's chips
        seen.add(transaction_id)
        batch.append(
            CageSlip(
                transaction_id=transaction_id, kind=kind, table_id=table_id,
                player_id=player_id, account_id=account_id, amount_cents=abs(amount),
                currency=currency,
            )
        )
        if len(batch) == 5_000:
            CageSlip.objects.bulk_create(batch)
            batch = []
    CageSlip.objects.bulk_create(batch)


def install(apps, schema_editor):
    run_on_postgresql(schema_editor, REFUSE_HISTORY_CHANGE, immutable(TABLE))


def uninstall(apps, schema_editor):
    # The function stays: the ledger's guards (0002) use it too.
    run_on_postgresql(schema_editor, drop_immutable(TABLE))


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0008_tppp_registration_changes'),
        ('wagers', '0004_round_theo'),
    ]

    operations = [
        migrations.CreateModel(
            name='CageSlip',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('buy_in', 'Buy-in'), ('fill', 'Player-dealer fill (chips brought to the table)'), ('cash_out', 'Cash-out'), ('credit', 'Player-dealer credit (chips taken back to the cage)')], max_length=16)),
                ('amount_cents', models.PositiveBigIntegerField()),
                ('currency', models.BooleanField()),
                ('account', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='wagers.account')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cage_slips', to='tables.player')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.table')),
                ('transaction', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='cage_slip', to='wagers.ledgertransaction')),
            ],
            options={
                'ordering': ['id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('amount_cents__gt', 0)), name='cage_slip_above_zero')],
            },
        ),
        migrations.RunPython(slips_from_the_ledger, migrations.RunPython.noop),
        migrations.RunPython(install, uninstall),
    ]
