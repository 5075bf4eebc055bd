"""Plain SQL: the kernel's part of every app's SQL home (docs/architecture.md, "Plain SQL").

The ORM writes every statement but a few on the hot path, where one statement does the
work of several (a round's lock and its reads, the button's reads and writes, the ledger's
postings, a round's move). Those are written by hand, each in its app's SQL home
(``tables/sql.py``, ``wagers/sql.py``, ``fees/sql.py``, ``rounds/sql.py``), and nowhere
else; each is registered here (``statement``, ``reads``) with the test that proves it
reads or writes exactly what the ORM does, and tests/cardroom/test_architecture.py checks
that the test exists and names it, and that no other module sends SQL of its own.

Here: the identifiers from the models' metadata (``table``, ``Alias``, ``literals``), for
these statements and for the verifier's and the reports' read-only SQL (the architecture
test refuses an app's table named in SQL text anywhere else), the rows as JSON
in a statement (``json_row``) and the one loader of such rows into the instances the ORM
would have loaded (``load``, ``row_loader``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import cache, partial
from typing import Any, TypeVar

from django.db import connection
from django.db.models import DateTimeField, DecimalField, Model

# --- The registry: every hand-written statement and the test that proves it ---------------

STATEMENTS: dict[str, str] = {}  # the statement's name: the test module that proves it

F = TypeVar("F", bound=Callable)
M = TypeVar("M", bound=Mapping)


def statement(*, proved_by: str) -> Callable[[F], F]:
    """Register the function that sends a hand-written statement (named by its module and
    name, e.g. ``tables.sql.answer_offer``) with the test module proving it equal to the ORM."""

    def register(function: F) -> F:
        STATEMENTS[f"{function.__module__}.{function.__name__}"] = proved_by
        return function

    return register


def reads(name: str, parts: M, *, proved_by: str) -> M:
    """Register parts of a statement written elsewhere (the round lock's reads, each with
    its ORM twin) under ``name`` with the test module proving them equal to the ORM."""
    STATEMENTS[name] = proved_by
    return parts


# --- Identifiers and literals from the models ---------------------------------------------


def table(model: type[Model]) -> str:
    """``model``'s table, quoted."""
    return connection.ops.quote_name(model._meta.db_table)


class Alias:
    """``model``'s table under the alias ``name`` in a statement, every identifier from the
    models' metadata: ``str(alias)`` names the table for a ``FROM`` or a ``JOIN``
    (``"wagers_bet" AS "b"``), each attribute a column of a field (by its name or attname)
    as the statement names it (``b.account_id``: ``"b"."account_id"``). A field the model
    lacks fails when the statement is built, not when it runs."""

    def __init__(self, model: type[Model], name: str) -> None:
        self._model, self._name = model, connection.ops.quote_name(name)

    def __str__(self) -> str:
        return f"{table(self._model)} AS {self._name}"

    def __getattr__(self, field: str) -> str:
        if field.startswith("_"):
            raise AttributeError(field)
        column = self._model._meta.get_field(field).column
        return f"{self._name}.{connection.ops.quote_name(column)}"


def literals(values: Iterable[Any]) -> str:
    """Enum values (text the code defines, never input) as a list of SQL literals, for an
    ``IN (…)``."""
    return ", ".join("'{}'".format(str(getattr(v, "value", v)).replace("'", "''")) for v in values)


# --- Rows as JSON, and their one loader ----------------------------------------------------


def json_row(model: type[Model], alias: str) -> str:
    """SQL (PostgreSQL): the row ``alias`` of ``model`` as a JSON array of its columns, in
    the order of its concrete fields (a decimal as text, so no digit is lost). A row may
    also come as ``to_json`` gives it (an object by column) when the model has no decimal."""
    columns = (
        f'"{alias}"."{field.column}"' + ("::text" if isinstance(field, DecimalField) else "")
        for field in model._meta.concrete_fields
    )
    return f"json_build_array({', '.join(columns)})"


def _timestamp(value: str) -> datetime:
    return datetime.fromisoformat(value).astimezone(connection.timezone)


@cache
def _columns(model: type[Model]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Each concrete column of ``model`` and how its JSON value becomes the field's value: a
    timestamp in the connection's time zone (as the ORM reads it), anything else as the
    field's ``to_python`` makes it (JSON columns come parsed, as the ORM gives them)."""
    return tuple(
        (field.column, _timestamp if isinstance(field, DateTimeField) else field.to_python)
        for field in model._meta.concrete_fields
    )


def load(model: type[Model], row: list | dict) -> Model:
    """The instance the ORM would have read for ``row``: a ``json_row`` array or a
    ``to_json`` object."""
    columns = _columns(model)
    values = [row[name] for name, _ in columns] if isinstance(row, dict) else row
    return model.from_db(
        connection.alias,
        None,
        [
            None if value is None else convert(value)
            for (_, convert), value in zip(columns, values, strict=True)
        ],
    )


def row_loader(model: type[Model]) -> Callable[[list | dict], Model]:
    """``load`` for ``model``'s rows."""
    return partial(load, model)
