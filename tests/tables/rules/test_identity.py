"""How a player is named where others can see it, and what identification may be recorded
(docs/rules.md §3.3), row by row."""

from __future__ import annotations

from datetime import date

import pytest

from cardroom.errors import Rule, RuleError
from tables.rules.identity import age_on, board_name, masked, require_identification


@pytest.mark.parametrize(
    ("number", "shown"),
    [
        ("D1234567", "••••4567"),
        ("X12345678", "•••••5678"),
        ("12345", "•2345"),
        ("1234", "••••"),  # four characters or fewer: all hidden
        ("123", "•••"),
        ("7", "•"),
        ("", ""),  # nothing recorded: nothing shown
        ("   ", ""),
        (" D1234567 ", "••••4567"),  # the spaces around it are not part of it
        ("A" * 64, "•" * 60 + "AAAA"),  # the longest a column holds
    ],
)
def test_masked(number, shown):
    assert masked(number) == shown


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Maria Garcia", "Maria G."),
        ("Maria  Garcia", "Maria G."),
        ("  Maria Garcia  ", "Maria G."),
        ("Maria de la Cruz", "Maria C."),  # the last word's initial
        ("Ada lovelace", "Ada L."),  # the initial in capitals
        ("Zoë Ångström", "Zoë Å."),
        ("Cher", "Cher"),  # a single name as it is
        ("Christopheros Lee", "Christophero L."),  # the first name cut to twelve characters
        ("Bartholomewson", "Bartholomews"),
        ("", "?"),
        ("   ", "?"),
    ],
)
def test_board_name(name, shown):
    assert board_name(name) == shown


@pytest.mark.parametrize(
    ("born", "on", "age"),
    [
        (date(2005, 11, 20), date(2026, 11, 20), 21),  # the birthday itself
        (date(2005, 11, 21), date(2026, 11, 20), 20),  # the day before it
        (date(2005, 12, 31), date(2026, 1, 1), 20),
        (date(2004, 2, 29), date(2025, 2, 28), 20),  # 29 February comes round on 1 March
        (date(2004, 2, 29), date(2025, 3, 1), 21),
        (date(2004, 2, 29), date(2028, 2, 29), 24),
    ],
)
def test_age_on(born, on, age):
    assert age_on(born, on) == age


TODAY = date(2026, 11, 20)
TYPES = ("driver_license", "passport")
NONE = {"id_type": "", "id_number": "", "id_issued_by": "", "date_of_birth": None}
FULL = {
    "id_type": "driver_license",
    "id_number": "D1234567",
    "id_issued_by": "CA",
    "date_of_birth": date(1990, 5, 17),
}


@pytest.mark.parametrize(
    ("fields", "refused"),
    [
        ({}, None),  # nothing recorded
        (FULL, None),
        ({**FULL, "id_issued_by": "", "date_of_birth": None}, None),  # a type and its number
        ({"date_of_birth": date(1990, 5, 17)}, None),  # a date of birth alone
        ({"date_of_birth": date(2005, 11, 20)}, None),  # 21 today
        ({"id_type": "library_card", "id_number": "L1"}, "id_type"),
        ({"id_number": "D1234567"}, "id_type"),  # a number without its type
        ({"id_type": "passport"}, "id_number"),  # a type without its number
        ({"id_issued_by": "CA"}, "id_issued_by"),  # an issuer of nothing
        ({"date_of_birth": date(2026, 11, 21)}, "date_of_birth"),  # tomorrow
        ({"date_of_birth": date(2005, 11, 21)}, "date_of_birth"),  # 21 tomorrow
        ({"date_of_birth": date(2010, 1, 1)}, "date_of_birth"),
    ],
)
def test_require_identification(fields, refused):
    def check():
        require_identification(**{**NONE, **fields}, types=TYPES, today=TODAY, registered_on=TODAY)

    if refused is None:
        check()
        return
    with pytest.raises(RuleError) as caught:
        check()
    assert caught.value.rule is Rule.IDENTIFICATION
    assert caught.value.field == refused


def test_the_age_counts_on_the_day_registered_not_today():
    """A player registered a year ago at 20 was under age then, whatever their age now."""
    born = date(2005, 6, 1)
    last_year = date(2025, 11, 20)
    with pytest.raises(RuleError) as caught:
        require_identification(
            **{**NONE, "date_of_birth": born}, types=TYPES, today=TODAY, registered_on=last_year
        )
    assert caught.value.message == (
        "the player was 20 on 2025-11-20, the day registered; the minimum age is 21"
    )
    require_identification(
        **{**NONE, "date_of_birth": born}, types=TYPES, today=TODAY, registered_on=TODAY
    )
