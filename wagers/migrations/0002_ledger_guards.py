"""PostgreSQL guards for the ledger, so the database itself, not only Python, keeps the books.

- Every ledger transaction sums to zero: a deferred constraint trigger checks
  each transaction's entries at commit.
- Ledger rows and settlement lines are immutable: UPDATE and DELETE are refused
  (corrections are reversing transactions).
The floor's own rows (rounds, hands, decisions) are guarded by the floor's migrations.
SQLite (the development default) has no such triggers; Python checks the same.
"""

from django.db import migrations

from cardroom.history import (
    DROP_REFUSE_HISTORY_CHANGE,
    REFUSE_HISTORY_CHANGE,
    drop_immutable,
    immutable,
    run_on_postgresql,
)

BALANCED = """
CREATE FUNCTION ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
    SELECT COALESCE(SUM(amount_cents), 0) INTO total
      FROM wagers_ledgerentry WHERE transaction_id = NEW.transaction_id;
    IF total <> 0 THEN
        RAISE EXCEPTION 'ledger transaction % does not balance: its entries sum to %',
            NEW.transaction_id, total USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER ledger_entry_balanced
    AFTER INSERT ON wagers_ledgerentry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();
"""
DROP_BALANCED = """
DROP TRIGGER IF EXISTS ledger_entry_balanced ON wagers_ledgerentry;
DROP FUNCTION IF EXISTS ledger_transaction_balanced();
"""
# table -> its trigger's name
IMMUTABLE = {
    "wagers_ledgerentry": "ledger_entry_immutable",
    "wagers_ledgertransaction": "ledger_transaction_immutable",
    "wagers_settlementline": "settlement_line_immutable",
}


def install(apps, schema_editor):
    run_on_postgresql(
        schema_editor,
        BALANCED,
        REFUSE_HISTORY_CHANGE,
        *(immutable(table, trigger=name) for table, name in IMMUTABLE.items()),
    )


def uninstall(apps, schema_editor):
    run_on_postgresql(
        schema_editor,
        *(drop_immutable(table, trigger=name) for table, name in IMMUTABLE.items()),
        DROP_REFUSE_HISTORY_CHANGE,
        DROP_BALANCED,
    )


class Migration(migrations.Migration):
    dependencies = [("wagers", "0001_initial"), ("tables", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
