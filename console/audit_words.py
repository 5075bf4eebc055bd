"""The audit trail in the floor's words: what was asked (a form's values, an API body) as
"seat 5 · ante $400.00 · player Nadia Novak (#PL-12)", never ``round_id``, a count of cents,
a database id or a Python value. Read-only: the stored row keeps what was recorded; the page
and the export show it through ``detail_words``, ``message_words`` and ``path_words``, with
one ``Names`` per page or export (each thing looked up once).

- Amounts: a key ending ``_cents``, or one the forms and the API take in cents (``amount``,
  ``ante``, ``bank``...), shown in dollars.
- References: a player, a table, an offer, a waitlist, a fee line, a schedule, by id in the
  recorded value, shown by name and number ("the offer to seat 3, Nadia Novak").
- Dates and instants as dates (``2026-05-01``, ``2026-05-01 21:04``), also when recorded as
  a Python literal (``datetime.date(2026, 5, 1)``, ``Decimal('12.50')``).
"""

from __future__ import annotations

import ast
import datetime
import json
import re
from decimal import Decimal

from django.urls import Resolver404, resolve

from cardroom.money import dollar_range, dollars

# Shown in the table / hand column already.
HIDDEN = frozenset({"round_id", "table_id"})
CENTS = "_cents"
# Keys the console's forms and the API's bodies take in cents without saying so.
MONEY = frozenset(
    {"amount", "ante", "blind", "trips", "bad_beat", "play", "bank", "class_minimum",
     "class_maximum", "minimum", "maximum", "chip", "chip_unit", "wager_from", "wager_to",
     "fee", "cap", "low", "high", "player_wager", "banker", "tie", "dragon_7", "panda_8"}
)  # fmt: skip
LABELS = {
    "player_dealer_basis": "player-dealer basis",
    "first_offer_seat": "offers start at seat",
    "tppp": "TPPP",
    "id_type": "ID type",
    "id_number": "ID number",
    "player_id": "player",
    "offer_id": "offer",
    "fee_line_id": "fee",
    "schedule_id": "schedule",
    "version_id": "version",
    "waitlist_id": "waitlist",
    "exclusion_id": "list entry",
    "ctr_id": "CTR",
    "review_id": "review",
    "to_table": "to table",
    "backline_player": "backline player",
    "currency_players": "paid in cash",
    "currency_seats": "paid in cash at seats",
    "then": "then",
}


class Names:
    """Names of the things an audit row refers to by id, each looked up once."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, int], str] = {}

    def _lookup(self, kind: str, pk: int) -> str:
        from fees.models import FeeLine, FeeSchedule, FeeScheduleVersion
        from tables.models import ButtonOffer, Exclusion, Player, Table, Waitlist
        from wagers.models import ComplianceReview, CurrencyTransactionReport

        if kind == "player":
            p = Player.objects.filter(pk=pk).values_list("name", "player_number").first()
            return f"{p[0]} (#{p[1]})" if p else "a player no longer on record"
        if kind == "round":
            from tables.models import Round

            r = Round.objects.filter(pk=pk).values_list("table__name", "number").first()
            return f"{r[0]} hand {r[1]}" if r else "a hand no longer on record"
        if kind == "table":
            name = Table.objects.filter(pk=pk).values_list("name", flat=True).first()
            return name or "a table no longer on record"
        if kind == "offer":
            o = ButtonOffer.objects.filter(pk=pk).values_list("seat", "player__name").first()
            return f"the offer to seat {o[0]}, {o[1]}" if o else "an offer no longer on record"
        if kind == "waitlist":
            w = Waitlist.objects.filter(pk=pk).values_list("minimum_cents", "maximum_cents")
            w = w.first()
            return f"the {dollar_range(w[0], w[1])} waitlist" if w else "a waitlist"
        if kind == "fee_line":
            f = FeeLine.objects.filter(pk=pk).values_list(
                "seat", "square", "round__number", "round__table__name"
            )
            f = f.first()
            if not f:
                return "a fee no longer on record"
            return f"the {f[1].replace('_', ' ')} fee of seat {f[0]}, {f[3]} hand {f[2]}"
        if kind == "schedule":
            name = FeeSchedule.objects.filter(pk=pk).values_list("name", flat=True).first()
            return f"“{name}”" if name else "a schedule"
        if kind == "version":
            v = FeeScheduleVersion.objects.filter(pk=pk).values_list("schedule__name", "number")
            v = v.first()
            return f"“{v[0]}” version {v[1]}" if v else "a version"
        if kind == "exclusion":
            e = Exclusion.objects.filter(pk=pk).select_related("player").first()
            return f"{e.player.name}, {e.words}" if e else "a list entry"
        if kind == "ctr":
            c = CurrencyTransactionReport.objects.filter(pk=pk).values_list(
                "player__name", "gaming_day"
            )
            c = c.first()
            return f"the CTR of {c[0]} for {c[1]}" if c else "a CTR"
        if kind == "review":
            r = ComplianceReview.objects.filter(pk=pk).values_list("player__name", "gaming_day")
            r = r.first()
            return f"the review of {r[0]} for {r[1]}" if r else "a review"
        return "a record"

    def of(self, kind: str, pk) -> str:
        if isinstance(pk, bool) or not isinstance(pk, int):
            try:
                pk = int(str(pk))
            except ValueError:
                return str(pk)
        if not 0 < pk < 2**63:
            return "none"
        key = (kind, pk)
        if key not in self._seen:
            self._seen[key] = self._lookup(kind, pk)
        return self._seen[key]


REFERENCES = {
    "player": "player",
    "player_id": "player",
    "backline_player": "player",
    "currency_players": "player",
    "offer_id": "offer",
    "to_table": "table",
    "table": "table",
    "to_table_id": "table",
    "waitlist": "waitlist",
    "waitlist_id": "waitlist",
    "fee_line_id": "fee_line",
    "schedule_id": "schedule",
    "schedule": "schedule",
    "version_id": "version",
    "exclusion_id": "exclusion",
    "ctr_id": "ctr",
    "review_id": "review",
}
# Path parameters (``<id:...>``) and what they name.
PATH_KINDS = {
    "table_id": "table",
    "player_id": "player",
    "offer_id": "offer",
    "waitlist_id": "waitlist",
    "schedule_id": "schedule",
    "version_id": "version",
    "exclusion_id": "exclusion",
    "ctr_id": "ctr",
    "review_id": "review",
}

_PY_CALLS = {
    "datetime.date": datetime.date,
    "date": datetime.date,
    "datetime.datetime": datetime.datetime,
    "datetime": datetime.datetime,
    "datetime.time": datetime.time,
    "time": datetime.time,
    "Decimal": Decimal,
    "decimal.Decimal": Decimal,
}


def _literal(node):
    """A Python literal as ``repr`` writes it, dates and Decimals included; nothing runs."""
    if isinstance(node, ast.Expression):
        return _literal(node.body)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_literal(node.operand)
    if isinstance(node, ast.Dict):
        return {_literal(k): _literal(v) for k, v in zip(node.keys, node.values, strict=True)}
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [_literal(item) for item in node.elts]
    if isinstance(node, ast.Call) and not node.keywords:
        name = ast.unparse(node.func)
        if name in _PY_CALLS and len(node.args) <= 7:
            args = [_literal(arg) for arg in node.args]
            if name.endswith("Decimal"):
                return Decimal(str(args[0]))
            if all(isinstance(arg, int) for arg in args):
                return _PY_CALLS[name](*args)
    if isinstance(node, ast.Attribute) and ast.unparse(node) == "datetime.timezone.utc":
        return None
    raise ValueError("not a literal")


def _parsed(detail: str):
    """The recorded value: JSON (API bodies, the console's actions) or a Python literal (the
    console's ``str(dict)`` details); None when it is neither."""
    text = detail.strip()
    if not text.startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    if len(text) > 20_000:
        return None
    try:
        return _literal(ast.parse(text, mode="eval"))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError, OverflowError):
        return None


def label(key: str) -> str:
    if key in LABELS:
        return LABELS[key]
    if key.endswith(CENTS):
        key = key[: -len(CENTS)]
    return key.replace("_", " ").strip() or "value"


def _is_money(key: str) -> bool:
    return key.endswith(CENTS) or key in MONEY or re.fullmatch(r"rate\d+_\w+", key) is not None


def _cents_words(value) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return dollars(value)
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,18}", value.strip()):
        return dollars(int(value))
    return None


def _value(key: str, value, names: Names) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "none"
    if isinstance(value, datetime.datetime):
        return f"{value:%Y-%m-%d %H:%M}"
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, dict):
        return "(" + _pairs(value, ", ", names) + ")"
    if isinstance(value, list | tuple):
        return "; ".join(_value(key, item, names) for item in value) or "none"
    if key in REFERENCES and isinstance(value, int):  # an id (a player number is text)
        return names.of(REFERENCES[key], value)
    if _is_money(key) and (words := _cents_words(value)) is not None:
        return words
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, float):
        return format(Decimal(str(value)), "f")
    return str(value)


def _pairs(values: dict, separator: str, names: Names) -> str:
    shown = [
        f"{label(str(key))} {_value(str(key), value, names)}"
        for key, value in values.items()
        if str(key) not in HIDDEN
    ]
    return separator.join(shown)


def detail_words(detail: str, names: Names | None = None) -> str:
    """``{"round_id": 7, "seat": 5, "ante_cents": 1000}`` -> ``seat 5 · ante $10.00``; a
    detail that is not a recorded object is shown as it was recorded."""
    value = _parsed(detail)
    names = names or Names()
    if isinstance(value, dict):
        return _pairs(value, " · ", names)
    if isinstance(value, list):
        return _value("", value, names)
    return detail


def message_words(message: str, names: Names | None = None) -> str:
    """A refusal's message: a form's errors recorded as JSON (``{"amount": [{"message":
    ...}]}``) as "amount: ..."; any other message as it was shown."""
    value = _parsed(message) if message.strip().startswith("{") else None
    if not isinstance(value, dict):
        return message
    parts = []
    for key, errors in value.items():
        texts = [e.get("message", "") if isinstance(e, dict) else str(e) for e in errors or []]
        where = "" if key == "__all__" else f"{label(str(key))}: "
        parts.append(where + " ".join(t for t in texts if t))
    return "; ".join(parts)


def path_words(path: str, names: Names | None = None) -> str:
    """The path asked for, each id in it replaced by what it names:
    ``/api/tables/4/chips/buy-in/`` -> ``/api/tables/[Main 4]/chips/buy-in/``."""
    try:
        match = resolve(path)
    except (Resolver404, ValueError):
        return re.sub(r"/\d+(?=/)", "/[a record]", path)
    names = names or Names()
    shown, at = path, 0
    for key, value in match.kwargs.items():  # in the order of the path
        segment = f"/{value}/"
        found = shown.find(segment, at)
        if found < 0:
            continue
        if key == "seat":
            text = f"seat {value}"
        else:
            text = names.of(PATH_KINDS.get(key, "round" if key == "round_id" else ""), value)
        replaced = f"/[{text}]/"
        shown = shown[:found] + replaced + shown[found + len(segment) :]
        at = found + len(replaced) - 1
    return shown


def where_words(action, names: Names) -> str:
    """The table and hand column: "UTH-3, hand 41" (as recorded; looked up when it was not)."""
    table = action.table_name or (names.of("table", action.table_id) if action.table_id else "")
    hand = action.hand if action.round_number is not None else ""
    if not hand and action.round_id is not None:
        hand = names.of("round", action.round_id)
    return ", ".join(part for part in (table, hand) if part)


def hand_words(action, names: Names) -> str:
    if action.round_number is not None:
        return action.hand
    return names.of("round", action.round_id) if action.round_id is not None else ""


def table_words(action, names: Names) -> str:
    return action.table_name or (names.of("table", action.table_id) if action.table_id else "")


class RowWords:
    """One trail row as the page and the export show it."""

    def __init__(self, action, names: Names) -> None:
        self.detail = detail_words(action.detail, names)
        self.message = message_words(action.message, names)
        self.path = path_words(action.path, names)
        self.where = where_words(action, names)
        self.table = table_words(action, names)
        self.hand = hand_words(action, names)
