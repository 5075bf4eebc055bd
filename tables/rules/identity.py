"""How a player is named where others can see it (docs/rules.md §3.3), in plain Python.

- ``masked``: an identification number is shown with all but its last four characters
  hidden. The player's record keeps the whole number (for a filing the compliance office
  makes from it); screens, lists, exports, reports and the audit trail show it masked.
- ``board_name``: the table board on the floor names a player by first name and the
  initial of the last ("Maria G."); a single name shows as it is, cut to twelve
  characters. Nothing else about the player is on the board.
- ``require_identification``: what a player's identification must be to be recorded
  (``floor.identification``): a type and a number together, an issuer only with them, a
  date of birth not in the future and of a player at least 21 on the day registered.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

from cardroom.errors import Rule, RuleError

MASK = "•"
SHOWN = 4
BOARD_NAME_LENGTH = 12


def masked(number: str) -> str:
    """``"D1234567"`` -> ``"••••4567"``; a number of four characters or fewer is all
    hidden; an empty number stays empty."""
    number = (number or "").strip()
    if not number:
        return ""
    if len(number) <= SHOWN:
        return MASK * len(number)
    return MASK * (len(number) - SHOWN) + number[-SHOWN:]


def board_name(name: str) -> str:
    """The first name and the last name's initial: ``"Maria  Garcia"`` -> ``"Maria G."``."""
    words = (name or "").split()
    if not words:
        return "?"
    first = words[0][:BOARD_NAME_LENGTH]
    if len(words) == 1:
        return first
    return f"{first} {words[-1][0].upper()}."


# California Business and Professions Code section 19941: no one under 21 plays in a
# gambling establishment.
MINIMUM_AGE = 21


def age_on(born: date, day: date) -> int:
    """Whole years from ``born`` to ``day``; a 29 February birthday comes round on 1 March
    in other years."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def require_identification(
    *,
    id_type: str,
    id_number: str,
    id_issued_by: str,
    date_of_birth: date | None,
    types: Collection[str],
    today: date,
    registered_on: date,
) -> None:
    """A RuleError (``floor.identification``) naming the first field that cannot be recorded.

    The fields are blank when not recorded (``date_of_birth`` None); ``types`` are the kinds
    of identification known, ``today`` the cardroom's date and ``registered_on`` the day the
    player was (or is being) registered.
    """

    def refuse(message: str, field: str) -> RuleError:
        return RuleError(message, rule=Rule.IDENTIFICATION, field=field)

    if id_type and id_type not in types:
        raise refuse(f"{id_type!r} is not a kind of identification recorded", "id_type")
    if id_number and not id_type:
        raise refuse("an ID number is recorded with its type", "id_type")
    if id_type and not id_number:
        raise refuse("an ID type is recorded with its number", "id_number")
    if id_issued_by and not id_number:
        raise refuse("an issuer is recorded with the ID type and number it issued", "id_issued_by")
    if date_of_birth is None:
        return
    if date_of_birth > today:
        raise refuse(f"{date_of_birth} is in the future", "date_of_birth")
    age = age_on(date_of_birth, registered_on)
    if age < MINIMUM_AGE:
        raise refuse(
            f"the player was {age} on {registered_on}, the day registered; the minimum age "
            f"is {MINIMUM_AGE}",
            "date_of_birth",
        )
