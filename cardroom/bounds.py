"""The edge of the system: what any input may be before it reaches a rule or a column.

Plain Python (no Django), one definition for the API's serializers, the console's forms, the
query filters, the URLs, the report parameters and the fee engine:

- the ranges of the database's integer columns, and from them the bounds of every amount
  and id a person may type (``CENTS_MAX``, ``ID_MAX``, ``COUNT_MAX``);
- strict integers (``strict_int``): a whole number written in the ASCII digits 0-9, with an
  optional sign, or a JSON integer; never a float (``249.9`` or ``249.0``), a boolean, or
  digits of other scripts (Arabic-Indic digits, a superscript two), which ``int()`` takes;
- JSON with a depth limit (``loads``), and text without NUL characters or lone surrogates
  (``text_problem``), which PostgreSQL cannot store;
- the instants and days whose arithmetic stays in range: a UTC offset PostgreSQL accepts
  and a date in range (``instant_problem``), the gaming days a window can be computed for
  (``day_problem``: ``GAMING_DAY_MIN`` to ``GAMING_DAY_MAX``).

Inside these bounds the rules decide (a negative bank, a seat 7): refusals at the edge only
stop input no rule could be asked about, so a column never overflows into a server error.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from typing import Any

# --- The columns ---------------------------------------------------------------------------

SMALLINT_MAX = 2**15 - 1  # PositiveSmallIntegerField: seats, hands, minutes, counts of players
INTEGER_MAX = 2**31 - 1  # PositiveIntegerField / IntegerField: limits, wagers, fee rates, fees
BIGINT_MAX = 2**63 - 1  # BigIntegerField, BigAutoField: every id, balances, ledger entries

# Every primary key is a BigAutoField (settings.DEFAULT_AUTO_FIELD).
ID_MAX = BIGINT_MAX
# Every amount of money typed, in cents ($21,474,836.47): it fits the narrowest cents column
# (a table's limits, a wager, a fee rate, a fee: 32-bit), and the 64-bit columns that add
# amounts up (a balance, the ledger, a bank, the drop) hold 2**32 of them without overflow.
CENTS_MAX = INTEGER_MAX
# A number of things (seats, hands, minutes, players, multiples) kept in a 16-bit column.
COUNT_MAX = SMALLINT_MAX

# --- Messages (the API's and the console's) ------------------------------------------------

NOT_AN_INTEGER = "a whole number is required, written with the digits 0-9"
NUL_CHARACTER = "Null characters are not allowed."
SURROGATE_CHARACTER = "Surrogate characters are not allowed: U+{code_point:X}."


def too_large(maximum: int) -> str:
    return f"at most {maximum}"


def too_small(minimum: int) -> str:
    return f"at least {minimum}"


class OutOfBounds(ValueError):
    """Input outside what the system can hold or parse; ``str()`` is the message shown."""


class NotAnInteger(OutOfBounds):
    """Not a whole number written in the ASCII digits."""


class OutOfRange(OutOfBounds):
    """A whole number beyond the bounds."""


# --- Strict integers -----------------------------------------------------------------------

_INTEGER = re.compile(r"[+-]?[0-9]+")
_MAX_DIGITS = 40  # more significant digits than any bound here: refused without int()


def strict_int(value: Any, *, minimum: int, maximum: int) -> int:
    """``value`` as an int in ``[minimum, maximum]``, or OutOfBounds saying why.

    Accepted: an int (not a bool), or a string of ASCII digits with an optional sign and
    surrounding spaces. Refused: floats (even ``249.0``), booleans, decimals, exponents,
    digits of other scripts, and anything outside the bounds.
    """
    if isinstance(value, bool):
        raise NotAnInteger(NOT_AN_INTEGER)
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip(" \t\r\n")
        if not _INTEGER.fullmatch(text):
            raise NotAnInteger(NOT_AN_INTEGER)
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) > _MAX_DIGITS:
            raise OutOfRange(too_small(minimum) if text.startswith("-") else too_large(maximum))
        number = int(text)
    else:
        raise NotAnInteger(NOT_AN_INTEGER)
    if number > maximum:
        raise OutOfRange(too_large(maximum))
    if number < minimum:
        raise OutOfRange(too_small(minimum))
    return number


# An exact decimal written in ASCII (odds such as "1.5"): no exponent, no other script.
ASCII_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")

# --- Text ------------------------------------------------------------------------------------


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored (a NUL character, a lone surrogate), or None."""
    if "\x00" in text:
        return NUL_CHARACTER
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return SURROGATE_CHARACTER.format(code_point=ord(text[error.start]))
    return None


def storable(text: str) -> str:
    """``text`` with what PostgreSQL refuses escaped: NUL as ``\\x00``, a lone surrogate as
    ``\\udc80`` and the like (for records that must be written whatever was sent: the
    audit trail)."""
    if text_problem(text) is None:
        return text
    text = text.replace("\x00", "\\x00")
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


# --- JSON --------------------------------------------------------------------------------------

JSON_MAX_DEPTH = 32  # arrays and objects inside each other; the deepest body the API takes is 5
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def too_deep(text: str, limit: int = JSON_MAX_DEPTH) -> bool:
    """Whether the JSON ``text`` nests arrays and objects deeper than ``limit``, found
    without parsing it (a parser recurses, and a deep enough body exhausts the stack)."""
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return True
        elif token in "]}":
            depth -= 1
    return False


def loads(text: str | bytes, limit: int = JSON_MAX_DEPTH) -> Any:
    """``json.loads`` refusing (ValueError) bodies nested deeper than ``limit`` and the
    constants JSON does not have (``NaN``, ``Infinity``)."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8")
    if too_deep(text, limit):
        raise ValueError(f"JSON nested deeper than {limit} levels")
    return json.loads(text, parse_constant=_no_constant)


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


# The JSON parser's complaints in the floor's words (json.JSONDecodeError.msg, by its start).
_JSON_WORDS = (
    ("Expecting value", "a value was expected"),
    ("Expecting ',' delimiter", "a comma was expected"),
    ("Expecting ':' delimiter", "a colon was expected"),
    ("Expecting property name", "a name in double quotes was expected"),
    ("Extra data", "there is more after the end"),
    ("Unterminated string", "a text in quotes is not closed"),
    ("Invalid control character", "a line break or tab inside quotes"),
    ("Invalid \\u", "a \\u escape that is not four hexadecimal digits"),
    ("Invalid \\escape", "a backslash that starts no escape JSON has"),
)


def json_problem_words(error: ValueError) -> str:
    """Why ``loads`` refused a text, for people: "a comma was expected (line 3, character 5)"
    rather than the parser's "Expecting ',' delimiter: line 3 column 5 (char 41)"."""
    if isinstance(error, json.JSONDecodeError):
        if not error.doc.strip():
            return "nothing was typed"
        words = next(
            (said for start, said in _JSON_WORDS if error.msg.startswith(start)),
            "it is not written as JSON",
        )
        return f"{words} (line {error.lineno}, character {error.colno})"
    return str(error)  # ours: nested too deep, NaN or Infinity, already in words


def json_problem(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first string (or key) in parsed JSON that cannot be stored, as (path, message)."""
    stack = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            if problem := text_problem(item):
                return storable(where), problem
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                child_path = f"{where}.{key}" if where else str(key)
                if problem := text_problem(str(key)):
                    return storable(child_path), problem
                stack.append((child_path, child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return None


# --- Instants and days ------------------------------------------------------------------------

MAX_UTC_OFFSET = timedelta(hours=15, minutes=59)  # PostgreSQL's limit for a time zone offset
OFFSET_OUT_OF_RANGE = "the UTC offset must be between -15:59 and +15:59"

# Gaming days a window, a shift or a report period can be computed for (a day's window ends
# the next morning; a report reaches 400 days back): a year of margin at either end.
GAMING_DAY_MIN = date(1900, 1, 1)
GAMING_DAY_MAX = date(9998, 12, 31)
DATE_OUT_OF_RANGE = (
    f"date out of range: from {GAMING_DAY_MIN.isoformat()} to {GAMING_DAY_MAX.isoformat()}"
)


def instant_problem(moment: datetime) -> str | None:
    """Why an instant cannot be taken: a UTC offset PostgreSQL refuses, or a date out of
    range (in UTC, where it is stored); None if it can."""
    offset = moment.utcoffset()
    if offset is not None and abs(offset) > MAX_UTC_OFFSET:
        return OFFSET_OUT_OF_RANGE
    try:
        day = (moment - offset).date() if offset is not None else moment.date()
    except OverflowError:
        return DATE_OUT_OF_RANGE
    return day_problem(day)


def day_problem(day: date) -> str | None:
    """Why a gaming day is out of range, or None."""
    if not GAMING_DAY_MIN <= day <= GAMING_DAY_MAX:
        return DATE_OUT_OF_RANGE
    return None
