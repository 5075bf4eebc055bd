"""The player's decisions, each once and each final (docs/rules.md §5).

1. Pre-flop: check, or Play an allowed multiple of the Ante (3x or 4x by default).
2. On the flop, if no Play yet: check, or Play 2x the Ante.
3. On the river (turn and river shown), if no Play yet: Play 1x the Ante, or fold.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

from cardroom.errors import Rule, RuleError

DEFAULT_PREFLOP_MULTIPLES = (3, 4)
# The approved game documents (`000`, `001`, `004`) allow 3x or 4x; `003` only 4x.
PERMITTED_PREFLOP_MULTIPLES = frozenset({3, 4})
FLOP_MULTIPLE = 2
RIVER_MULTIPLE = 1


class Street(Enum):
    PREFLOP = "preflop"
    FLOP = "flop"
    RIVER = "river"


STREET_ORDER = (Street.PREFLOP, Street.FLOP, Street.RIVER)


class Action(Enum):
    CHECK = "check"
    PLAY = "play"
    FOLD = "fold"


@dataclass(frozen=True, slots=True)
class Decision:
    street: Street
    action: Action
    multiple: int = 0  # the Play as a multiple of the Ante; 0 for check and fold


@dataclass(frozen=True)
class DecisionRecord:
    """The decisions one hand has made so far, in street order."""

    decisions: tuple[Decision, ...] = ()

    @property
    def play_multiple(self) -> int:
        for decision in self.decisions:
            if decision.action is Action.PLAY:
                return decision.multiple
        return 0

    @property
    def folded(self) -> bool:
        return any(decision.action is Action.FOLD for decision in self.decisions)

    @property
    def complete(self) -> bool:
        """True once the hand has a Play or has folded: nothing is left to decide."""
        return self.play_multiple > 0 or self.folded

    @property
    def next_street(self) -> Street | None:
        if self.complete:
            return None
        return STREET_ORDER[len(self.decisions)]

    def then(
        self, decision: Decision, allowed_preflop_multiples: Collection[int]
    ) -> DecisionRecord:
        """This record with ``decision`` added, or a RuleError naming the broken rule."""
        validate_decision(self, decision, allowed_preflop_multiples)
        return DecisionRecord((*self.decisions, decision))


def legal_decisions(
    record: DecisionRecord, street: Street, allowed_preflop_multiples: Collection[int]
) -> tuple[Decision, ...]:
    """What the hand may do now on ``street`` (empty if it has nothing to decide)."""
    if record.next_street is not street:
        return ()
    if street is Street.PREFLOP:
        plays = tuple(Decision(street, Action.PLAY, m) for m in sorted(allowed_preflop_multiples))
        return (Decision(street, Action.CHECK), *plays)
    if street is Street.FLOP:
        return (Decision(street, Action.CHECK), Decision(street, Action.PLAY, FLOP_MULTIPLE))
    return (Decision(street, Action.PLAY, RIVER_MULTIPLE), Decision(street, Action.FOLD))


def validate_decision(
    record: DecisionRecord, decision: Decision, allowed_preflop_multiples: Collection[int]
) -> None:
    street = decision.street
    if record.play_multiple:
        raise RuleError(
            f"the hand already made its Play ({record.play_multiple}x the Ante); a Play is final",
            rule=Rule.DECISIONS,
            field="action",
        )
    if record.folded:
        raise RuleError("the hand has folded; a fold is final", rule=Rule.DECISIONS, field="action")
    expected = record.next_street
    if street is not expected:
        done = {d.street for d in record.decisions}
        message = (
            f"the {street.value} decision was already made; each decision is made once"
            if street in done
            else f"the {expected.value} decision comes before the {street.value} decision"
        )
        raise RuleError(message, rule=Rule.DECISIONS, field="street")
    if decision.action is Action.PLAY:
        _validate_play(street, decision.multiple, allowed_preflop_multiples)
    elif decision.multiple:
        raise RuleError(
            f"a {decision.action.value} has no Play multiple", rule=Rule.DECISIONS, field="multiple"
        )
    if street is Street.RIVER and decision.action is Action.CHECK:
        raise RuleError(
            "on the river a hand must Play 1x the Ante or fold; it cannot check",
            rule=Rule.DECISIONS,
            field="action",
        )
    if street is not Street.RIVER and decision.action is Action.FOLD:
        raise RuleError(
            f"a hand may fold only on the river, not {street.value}",
            rule=Rule.DECISIONS,
            field="action",
        )


def _validate_play(
    street: Street, multiple: int, allowed_preflop_multiples: Collection[int]
) -> None:
    if street is Street.PREFLOP and multiple not in allowed_preflop_multiples:
        allowed = " or ".join(f"{m}x" for m in sorted(allowed_preflop_multiples))
        raise RuleError(
            f"Play pre-flop must be {allowed} the Ante, not {multiple}x",
            rule=Rule.DECISIONS,
            field="multiple",
        )
    if street is Street.FLOP and multiple != FLOP_MULTIPLE:
        raise RuleError(
            f"Play on the flop must be 2x the Ante, not {multiple}x",
            rule=Rule.DECISIONS,
            field="multiple",
        )
    if street is Street.RIVER and multiple != RIVER_MULTIPLE:
        raise RuleError(
            f"Play on the river must be 1x the Ante, not {multiple}x",
            rule=Rule.DECISIONS,
            field="multiple",
        )


def allowed_play_multiples(allowed_preflop_multiples: Collection[int]) -> frozenset[int]:
    """Every multiple a Play can have at some street."""
    return frozenset(allowed_preflop_multiples) | {FLOP_MULTIPLE, RIVER_MULTIPLE}


def validate_preflop_multiples(multiples: Collection[int]) -> tuple[int, ...]:
    """The options-sheet setting: a non-empty subset of the approved 3x and 4x."""
    if not isinstance(multiples, list | tuple | set | frozenset) or not multiples:
        raise RuleError(
            "at least one pre-flop Play multiple (3 or 4) is needed", rule=Rule.PREFLOP_MULTIPLES
        )
    for multiple in multiples:
        if type(multiple) is not int or multiple not in PERMITTED_PREFLOP_MULTIPLES:
            raise RuleError(
                f"a pre-flop Play multiple must be 3 or 4, not {multiple!r}",
                rule=Rule.PREFLOP_MULTIPLES,
            )
    return tuple(sorted(set(multiples)))
