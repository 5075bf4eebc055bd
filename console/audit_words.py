"""The audit trail in the floor's words: what was asked (a form's values, an API body) as
"seat 5 · ante $10.00", never ``round_id`` or a count of cents. Read-only: the stored row keeps
what was recorded; the page and the export show it through ``detail_words``."""

from __future__ import annotations

import ast
import json

from cardroom.money import dollars

# Shown in the table / hand column already.
HIDDEN = frozenset({"round_id", "table_id"})
CENTS = "_cents"
LABELS = {
    "player_dealer_basis": "player-dealer basis",
    "first_offer_seat": "offers start at seat",
    "tppp": "TPPP",
    "id_type": "ID type",
    "id_number": "ID number",
}


def _parsed(detail: str):
    """The recorded value: JSON (API bodies, the console's actions) or a Python literal (the
    console's older ``str(dict)`` details); None when it is neither."""
    text = detail.strip()
    if not text.startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def label(key: str) -> str:
    if key in LABELS:
        return LABELS[key]
    if key.endswith(CENTS):
        key = key[: -len(CENTS)]
    return key.replace("_", " ").strip() or "value"


def _value(key: str, value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "none"
    if key.endswith(CENTS) and isinstance(value, int):
        return dollars(value)
    if isinstance(value, dict):
        return "(" + _pairs(value, ", ") + ")"
    if isinstance(value, list | tuple):
        return "; ".join(_value(key, item) for item in value) or "none"
    return str(value)


def _pairs(values: dict, separator: str) -> str:
    shown = [
        f"{label(str(key))} {_value(str(key), value)}"
        for key, value in values.items()
        if str(key) not in HIDDEN
    ]
    return separator.join(shown)


def detail_words(detail: str) -> str:
    """``{"round_id": 7, "seat": 5, "ante_cents": 1000}`` -> ``seat 5 · ante $10.00``; a
    detail that is not a recorded object is shown as it was recorded."""
    value = _parsed(detail)
    if isinstance(value, dict):
        return _pairs(value, " · ")
    return detail
