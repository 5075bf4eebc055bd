"""PostgreSQL guards for the ledger, so the database itself, not only Python, keeps the books.

- Every ledger transaction sums to zero: a deferred constraint trigger checks
  each transaction's entries at commit.
- Ledger rows, settlement lines and settled rounds are immutable: UPDATE and
  DELETE are refused (corrections are reversing transactions).
SQLite (the development default) has no such triggers; Python checks the same.
"""

from django.db import migrations

GUARDS = """
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

CREATE FUNCTION refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are history and cannot be changed: post a correction instead',
        TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER ledger_entry_immutable BEFORE UPDATE OR DELETE ON wagers_ledgerentry
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER ledger_transaction_immutable BEFORE UPDATE OR DELETE ON wagers_ledgertransaction
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER settlement_line_immutable BEFORE UPDATE OR DELETE ON wagers_settlementline
    FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

CREATE FUNCTION refuse_finished_round_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.state IN ('settled', 'voided') THEN
        RAISE EXCEPTION 'round % is %: a finished round is never edited', OLD.id, OLD.state
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER finished_round_immutable BEFORE UPDATE OR DELETE ON tables_round
    FOR EACH ROW EXECUTE FUNCTION refuse_finished_round_change();
"""

DROP_GUARDS = """
DROP TRIGGER IF EXISTS finished_round_immutable ON tables_round;
DROP FUNCTION IF EXISTS refuse_finished_round_change();
DROP TRIGGER IF EXISTS settlement_line_immutable ON wagers_settlementline;
DROP TRIGGER IF EXISTS ledger_transaction_immutable ON wagers_ledgertransaction;
DROP TRIGGER IF EXISTS ledger_entry_immutable ON wagers_ledgerentry;
DROP FUNCTION IF EXISTS refuse_history_change();
DROP TRIGGER IF EXISTS ledger_entry_balanced ON wagers_ledgerentry;
DROP FUNCTION IF EXISTS ledger_transaction_balanced();
"""


def _run(schema_editor, sql: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    # A raw cursor without parameters, so the '%' of RAISE formats is not a placeholder.
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(sql)


def install(apps, schema_editor):
    _run(schema_editor, GUARDS)


def uninstall(apps, schema_editor):
    _run(schema_editor, DROP_GUARDS)


class Migration(migrations.Migration):
    dependencies = [("wagers", "0001_initial"), ("tables", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
