"""Database guards for history (docs/rules.md §10.1): the SQL every app's migrations install.

History is never edited: a correction is a new, linked row. The services never update or
delete history; on PostgreSQL these triggers make the database refuse it too, whoever
asks. SQLite (the development default) has no such triggers: Python checks the same.

- ``immutable(table)``: every UPDATE and DELETE of ``table`` is refused.
- ``frozen_with_round(...)``: rows of a hand may change while the hand is in play (a Play
  is added, a category set at the showdown), never once the round is settled or voided.
- ``ended_once(table, ended, *closing)``: a record that is open until it ends (a must-move
  link, a table change): never deleted; one UPDATE ends it, setting ``ended`` (and the other
  ``closing`` columns) from empty; every other column frozen, and nothing changes after.

Plain Python (no Django): each app's migration passes the SQL to ``run_on_postgresql``.
"""

from __future__ import annotations

from cardroom.errors import FINISHED_ROUND_STATES

FINISHED = ", ".join(f"'{state.value}'" for state in FINISHED_ROUND_STATES)

REFUSE_HISTORY_CHANGE = """
CREATE OR REPLACE FUNCTION refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% rows are history and cannot be changed: post a correction instead',
        TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
"""
DROP_REFUSE_HISTORY_CHANGE = "DROP FUNCTION IF EXISTS refuse_history_change();"


def immutable(table: str, *, trigger: str | None = None) -> str:
    """Refuse every UPDATE and DELETE of ``table`` (``REFUSE_HISTORY_CHANGE`` must exist);
    the trigger is ``<table>_immutable`` unless named."""
    trigger = trigger or f"{table}_immutable"
    return (
        f"DROP TRIGGER IF EXISTS {trigger} ON {table};"
        f"CREATE TRIGGER {trigger} BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION refuse_history_change();"
    )


def drop_immutable(table: str, *, trigger: str | None = None) -> str:
    return f"DROP TRIGGER IF EXISTS {trigger or f'{table}_immutable'} ON {table};"


REFUSE_CHANGE_BUT_ENDING = """
CREATE OR REPLACE FUNCTION refuse_change_but_ending() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ended text := TG_ARGV[0];
    old_row jsonb := to_jsonb(OLD);
    new_row jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION '% rows are history and cannot be changed: row % is never deleted',
            TG_TABLE_NAME, OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
    new_row := to_jsonb(NEW);
    IF old_row ->> ended IS NOT NULL THEN
        RAISE EXCEPTION '% row % ended at %: history cannot be changed',
            TG_TABLE_NAME, OLD.id, old_row ->> ended USING ERRCODE = 'restrict_violation';
    END IF;
    IF new_row ->> ended IS NULL THEN
        RAISE EXCEPTION '% row % cannot be changed but to end it (% set once)',
            TG_TABLE_NAME, OLD.id, ended USING ERRCODE = 'restrict_violation';
    END IF;
    IF (old_row - TG_ARGV) IS DISTINCT FROM (new_row - TG_ARGV) THEN
        RAISE EXCEPTION '% row % cannot be changed: ending it sets only %',
            TG_TABLE_NAME, OLD.id, array_to_string(TG_ARGV, ', ')
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END $$;
"""
DROP_REFUSE_CHANGE_BUT_ENDING = "DROP FUNCTION IF EXISTS refuse_change_but_ending();"


def ended_once(table: str, ended: str, *closing: str) -> str:
    """Refuse DELETE of ``table`` and every UPDATE but the one that ends an open row: it sets
    the column ``ended`` (empty until then) and may set the ``closing`` columns; the other
    columns never change (``REFUSE_CHANGE_BUT_ENDING`` must exist). Columns by their database
    names (``ended_by_id``). The trigger is ``<table>_ended_once``."""
    arguments = ", ".join(f"'{column}'" for column in (ended, *closing))
    return (
        f"DROP TRIGGER IF EXISTS {table}_ended_once ON {table};"
        f"CREATE TRIGGER {table}_ended_once BEFORE UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION refuse_change_but_ending({arguments});"
    )


def drop_ended_once(table: str) -> str:
    return f"DROP TRIGGER IF EXISTS {table}_ended_once ON {table};"


def frozen_with_round(table: str, round_state_sql: str, *, name: str | None = None) -> str:
    """Refuse UPDATE and DELETE of ``table``'s rows once their round is finished.

    ``round_state_sql`` is a SELECT giving the round's state from the ``OLD`` row
    (``SELECT OLD.state`` on the round itself, a join on the rows that belong to it).
    ``name`` is the guard's name (function ``refuse_<name>_change``, trigger
    ``<name>_immutable``); by default ``finished_<table>``.
    """
    name = name or f"finished_{table}"
    return f"""
CREATE OR REPLACE FUNCTION refuse_{name}_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE round_state text;
BEGIN
    {round_state_sql} INTO round_state;
    IF round_state IN ({FINISHED}) THEN
        RAISE EXCEPTION '{table} row % belongs to a % round: a finished hand is never edited',
            OLD.id, round_state USING ERRCODE = 'restrict_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS {name}_immutable ON {table};
CREATE TRIGGER {name}_immutable BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION refuse_{name}_change();
"""


def drop_frozen_with_round(table: str, *, name: str | None = None) -> str:
    name = name or f"finished_{table}"
    return (
        f"DROP TRIGGER IF EXISTS {name}_immutable ON {table};"
        f"DROP FUNCTION IF EXISTS refuse_{name}_change();"
    )


def run_on_postgresql(schema_editor, *statements: str) -> None:
    """Run the guards' SQL on PostgreSQL; nothing elsewhere.

    A raw cursor without parameters, so the '%' of a RAISE format is not a placeholder.
    """
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
