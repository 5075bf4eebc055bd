"""PostgreSQL guards: nothing about a finished (settled or voided) round is ever edited.

0002 froze the round row, the ledger and the settlement lines; this freezes the
rest of the hand's record: its hands, their decisions, the bets and the bank.
Rows may change while the round is in play (a Play is added to a bet, the bank
gets its result at settlement, a hand its category at the showdown).
"""

from django.db import migrations

# (table, SQL giving the round's state from the OLD row)
GUARDED = {
    "tables_hand": "SELECT r.state FROM tables_round r WHERE r.id = OLD.round_id",
    "tables_handdecision": (
        "SELECT r.state FROM tables_round r JOIN tables_hand h ON h.round_id = r.id "
        "WHERE h.id = OLD.hand_id"
    ),
    "wagers_bet": (
        "SELECT r.state FROM tables_round r JOIN tables_hand h ON h.round_id = r.id "
        "WHERE h.id = OLD.hand_id"
    ),
    "wagers_playerdealerbank": "SELECT r.state FROM tables_round r WHERE r.id = OLD.round_id",
}


def _function(table: str, state_sql: str) -> str:
    return f"""
CREATE FUNCTION refuse_finished_{table}_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE round_state text;
BEGIN
    {state_sql} INTO round_state;
    IF round_state IN ('settled', 'voided') THEN
        RAISE EXCEPTION '{table} row % belongs to a % round: a finished hand is never edited',
            OLD.id, round_state USING ERRCODE = 'restrict_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER finished_{table}_immutable BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION refuse_finished_{table}_change();
"""


def _run(schema_editor, sql: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:  # no parameters: '%' is not a placeholder
        cursor.execute(sql)


def install(apps, schema_editor):
    _run(schema_editor, "".join(_function(t, sql) for t, sql in GUARDED.items()))


def uninstall(apps, schema_editor):
    _run(
        schema_editor,
        "".join(
            f"DROP TRIGGER IF EXISTS finished_{t}_immutable ON {t};"
            f"DROP FUNCTION IF EXISTS refuse_finished_{t}_change();"
            for t in GUARDED
        ),
    )


class Migration(migrations.Migration):
    dependencies = [("wagers", "0002_ledger_guards")]
    operations = [migrations.RunPython(install, uninstall)]
