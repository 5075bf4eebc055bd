"""A table's options sheet as the rules read it (docs/rules.md §3.4, §12).

The floor keeps the sheet (``tables.options``: validated, logged, frozen into each round);
this is its plain-Python view, the one every rule that depends on an option is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .decisions import DEFAULT_PREFLOP_MULTIPLES
from .paytables import BAD_BEAT_PAYTABLES, BLIND, TRIPS_PAYTABLES, PayTable


@dataclass(frozen=True)
class GameOptions:
    """The options of a table, as far as resolving a hand needs them.

    Table limits apply to each Ante, Blind, Trips and Bad Beat wager; ``None`` means no
    limit. The Play is not held to the table maximum: it is fixed by the Ante and the
    street (docs/rules.md §4.3).
    """

    trips_paytable: PayTable = field(default_factory=lambda: TRIPS_PAYTABLES["UTH-01"])
    bad_beat_paytable: PayTable | None = field(
        default_factory=lambda: BAD_BEAT_PAYTABLES["option-1"]
    )
    chip_unit: int = 1
    allowed_preflop_multiples: tuple[int, ...] = DEFAULT_PREFLOP_MULTIPLES
    blind_paytable: PayTable = BLIND
    table_minimum: int | None = None
    table_maximum: int | None = None
    backline_allowed: bool = True


class OptionLabel(NamedTuple):
    """How the floor names an option: ``label`` heads it (the console's options sheet, its form
    and the change log: "Trips pay table"); ``phrase`` names it within a sentence (a refusal:
    "the Trips pay table must be ...")."""

    label: str
    phrase: str
