"""The player's decisions, each once, each final (docs/rules.md §5)."""

from __future__ import annotations

from itertools import product

import pytest

from cardroom.errors import Rule, RuleError
from tables.rules.decisions import (
    Action,
    Decision,
    DecisionRecord,
    Street,
    allowed_play_multiples,
    legal_decisions,
    validate_preflop_multiples,
)

P, F, R = Street.PREFLOP, Street.FLOP, Street.RIVER
CHECK, PLAY, FOLD = Action.CHECK, Action.PLAY, Action.FOLD


def d(street: Street, action: Action, multiple: int = 0) -> Decision:
    return Decision(street, action, multiple)


def run(decisions, allowed=(3, 4)) -> DecisionRecord:
    record = DecisionRecord()
    for decision in decisions:
        record = record.then(decision, allowed)
    return record


# --- every legal sequence -----------------------------------------------------------------

# (id, allowed pre-flop multiples, decisions, final Play multiple, folded)
LEGAL = [
    ("preflop-4x", (3, 4), [d(P, PLAY, 4)], 4, False),
    ("preflop-3x", (3, 4), [d(P, PLAY, 3)], 3, False),
    ("preflop-4x-on-4x-only", (4,), [d(P, PLAY, 4)], 4, False),
    ("preflop-3x-on-3x-only", (3,), [d(P, PLAY, 3)], 3, False),
    ("check-flop-2x", (3, 4), [d(P, CHECK), d(F, PLAY, 2)], 2, False),
    ("check-flop-2x-on-4x-only", (4,), [d(P, CHECK), d(F, PLAY, 2)], 2, False),
    ("check-check-river-1x", (3, 4), [d(P, CHECK), d(F, CHECK), d(R, PLAY, 1)], 1, False),
    ("check-check-fold", (3, 4), [d(P, CHECK), d(F, CHECK), d(R, FOLD)], 0, True),
    ("check-check-fold-on-4x-only", (4,), [d(P, CHECK), d(F, CHECK), d(R, FOLD)], 0, True),
]


@pytest.mark.parametrize(
    ("allowed", "decisions", "multiple", "folded"),
    [case[1:] for case in LEGAL],
    ids=[case[0] for case in LEGAL],
)
def test_legal_sequences(allowed, decisions, multiple, folded):
    record = run(decisions, allowed)
    assert record.decisions == tuple(decisions)
    assert record.play_multiple == multiple
    assert record.folded is folded
    assert record.complete
    assert record.next_street is None


def test_partial_records_know_the_next_street():
    record = DecisionRecord()
    assert record.next_street is P and not record.complete
    record = record.then(d(P, CHECK), (3, 4))
    assert record.next_street is F and not record.complete
    record = record.then(d(F, CHECK), (3, 4))
    assert record.next_street is R and not record.complete
    assert record.play_multiple == 0 and not record.folded


# --- every illegal one, with the rule it breaks ------------------------------------------

# (id, allowed, decisions made, the refused decision, field, message fragment)
ILLEGAL = [
    ("preflop-3x-on-4x-only", (4,), [], d(P, PLAY, 3), "multiple",
     "Play pre-flop must be 4x the Ante, not 3x"),
    ("preflop-4x-on-3x-only", (3,), [], d(P, PLAY, 4), "multiple",
     "Play pre-flop must be 3x the Ante, not 4x"),
    ("preflop-2x", (3, 4), [], d(P, PLAY, 2), "multiple",
     "Play pre-flop must be 3x or 4x the Ante, not 2x"),
    ("preflop-1x", (3, 4), [], d(P, PLAY, 1), "multiple",
     "Play pre-flop must be 3x or 4x the Ante, not 1x"),
    ("preflop-5x", (3, 4), [], d(P, PLAY, 5), "multiple",
     "Play pre-flop must be 3x or 4x the Ante, not 5x"),
    ("preflop-0x", (3, 4), [], d(P, PLAY, 0), "multiple",
     "Play pre-flop must be 3x or 4x the Ante, not 0x"),
    ("flop-3x", (3, 4), [d(P, CHECK)], d(F, PLAY, 3), "multiple",
     "Play on the flop must be 2x the Ante, not 3x"),
    ("flop-4x", (3, 4), [d(P, CHECK)], d(F, PLAY, 4), "multiple",
     "Play on the flop must be 2x the Ante, not 4x"),
    ("flop-1x", (3, 4), [d(P, CHECK)], d(F, PLAY, 1), "multiple",
     "Play on the flop must be 2x the Ante, not 1x"),
    ("river-2x", (3, 4), [d(P, CHECK), d(F, CHECK)], d(R, PLAY, 2), "multiple",
     "Play on the river must be 1x the Ante, not 2x"),
    ("river-4x", (3, 4), [d(P, CHECK), d(F, CHECK)], d(R, PLAY, 4), "multiple",
     "Play on the river must be 1x the Ante, not 4x"),
    ("river-check", (3, 4), [d(P, CHECK), d(F, CHECK)], d(R, CHECK), "action",
     "on the river a hand must Play 1x the Ante or fold; it cannot check"),
    ("fold-preflop", (3, 4), [], d(P, FOLD), "action",
     "a hand may fold only on the river, not preflop"),
    ("fold-flop", (3, 4), [d(P, CHECK)], d(F, FOLD), "action",
     "a hand may fold only on the river, not flop"),
    ("check-with-a-multiple", (3, 4), [], d(P, CHECK, 3), "multiple",
     "a check has no Play multiple"),
    ("fold-with-a-multiple", (3, 4), [d(P, CHECK), d(F, CHECK)], d(R, FOLD, 1), "multiple",
     "a fold has no Play multiple"),
    ("preflop-twice", (3, 4), [d(P, CHECK)], d(P, CHECK), "street",
     "the preflop decision was already made; each decision is made once"),
    ("flop-twice", (3, 4), [d(P, CHECK), d(F, CHECK)], d(F, PLAY, 2), "street",
     "the flop decision was already made; each decision is made once"),
    ("flop-before-preflop", (3, 4), [], d(F, CHECK), "street",
     "the preflop decision comes before the flop decision"),
    ("river-before-preflop", (3, 4), [], d(R, PLAY, 1), "street",
     "the preflop decision comes before the river decision"),
    ("river-before-flop", (3, 4), [d(P, CHECK)], d(R, PLAY, 1), "street",
     "the flop decision comes before the river decision"),
    ("after-preflop-play-flop", (3, 4), [d(P, PLAY, 4)], d(F, PLAY, 2), "action",
     "the hand already made its Play (4x the Ante); a Play is final"),
    ("after-preflop-play-check", (3, 4), [d(P, PLAY, 3)], d(F, CHECK), "action",
     "the hand already made its Play (3x the Ante); a Play is final"),
    ("after-preflop-play-river-fold", (3, 4), [d(P, PLAY, 4)], d(R, FOLD), "action",
     "a Play is final"),
    ("after-preflop-play-again", (3, 4), [d(P, PLAY, 3)], d(P, PLAY, 4), "action",
     "a Play is final"),
    ("after-flop-play-river", (3, 4), [d(P, CHECK), d(F, PLAY, 2)], d(R, PLAY, 1), "action",
     "the hand already made its Play (2x the Ante); a Play is final"),
    ("after-flop-play-fold", (3, 4), [d(P, CHECK), d(F, PLAY, 2)], d(R, FOLD), "action",
     "a Play is final"),
    ("after-river-play", (3, 4), [d(P, CHECK), d(F, CHECK), d(R, PLAY, 1)], d(R, PLAY, 1),
     "action", "the hand already made its Play (1x the Ante); a Play is final"),
    ("after-fold-play", (3, 4), [d(P, CHECK), d(F, CHECK), d(R, FOLD)], d(R, PLAY, 1), "action",
     "the hand has folded; a fold is final"),
    ("after-fold-fold", (3, 4), [d(P, CHECK), d(F, CHECK), d(R, FOLD)], d(R, FOLD), "action",
     "the hand has folded; a fold is final"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("allowed", "made", "refused", "field", "message"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_illegal_decisions_are_refused_naming_the_rule(allowed, made, refused, field, message):
    record = run(made, allowed)
    with pytest.raises(RuleError) as caught:
        record.then(refused, allowed)
    assert message in caught.value.message
    assert caught.value.rule == Rule.DECISIONS
    assert caught.value.field == field
    assert refused not in legal_decisions(record, refused.street, allowed)
    # The record is immutable: the refused decision left no trace.
    assert record.decisions == tuple(made)


def test_the_flop_message_names_the_rule_in_words():
    record = run([d(P, CHECK)])
    with pytest.raises(RuleError) as caught:
        record.then(d(F, PLAY, 4), (3, 4))
    assert "Play on the flop must be 2x the Ante" in str(caught.value)
    assert "[rule: one decision on each street, docs/rules.md §5.1]" in str(caught.value)


# --- legal_decisions, and exhaustively: accepted == the rulebook's sequences -------------


@pytest.mark.parametrize(
    ("allowed", "made", "street", "expected"),
    [
        ((3, 4), [], P, [d(P, CHECK), d(P, PLAY, 3), d(P, PLAY, 4)]),
        ((4,), [], P, [d(P, CHECK), d(P, PLAY, 4)]),
        ((3, 4), [d(P, CHECK)], F, [d(F, CHECK), d(F, PLAY, 2)]),
        ((3, 4), [d(P, CHECK), d(F, CHECK)], R, [d(R, PLAY, 1), d(R, FOLD)]),
        ((3, 4), [], F, []),
        ((3, 4), [], R, []),
        ((3, 4), [d(P, CHECK)], P, []),
        ((3, 4), [d(P, PLAY, 4)], F, []),
        ((3, 4), [d(P, CHECK), d(F, PLAY, 2)], R, []),
        ((3, 4), [d(P, CHECK), d(F, CHECK), d(R, FOLD)], R, []),
    ],
    ids=["preflop", "preflop-4x-only", "flop", "river", "flop-too-early", "river-too-early",
         "preflop-again", "after-preflop-play", "after-flop-play", "after-fold"],
)  # fmt: skip
def test_legal_decisions(allowed, made, street, expected):
    assert list(legal_decisions(run(made, allowed), street, allowed)) == expected


UNIVERSE = [
    Decision(street, action, multiple)
    for street in Street
    for action in Action
    for multiple in range(0, 6)
]


def _rulebook_accepts(sequence, allowed) -> bool:
    """The decision rules (docs/rules.md §5) as every complete or partial legal sequence."""
    complete = [[d(P, PLAY, m)] for m in allowed] + [
        [d(P, CHECK), d(F, PLAY, 2)],
        [d(P, CHECK), d(F, CHECK), d(R, PLAY, 1)],
        [d(P, CHECK), d(F, CHECK), d(R, FOLD)],
    ]
    return any(list(sequence) == full[: len(sequence)] for full in complete)


@pytest.mark.parametrize("allowed", [(3, 4), (4,), (3,)], ids=["3x-4x", "4x-only", "3x-only"])
def test_exhaustively_every_sequence_of_up_to_three_decisions(allowed):
    accepted = rejected = 0
    for length in (1, 2, 3):
        for sequence in product(UNIVERSE, repeat=length) if length < 3 else _three(allowed):
            try:
                run(sequence, allowed)
            except RuleError:
                ok = False
            else:
                ok = True
            assert ok is _rulebook_accepts(sequence, allowed), sequence
            accepted += ok
            rejected += not ok
    assert accepted and rejected


def _three(allowed):
    """Sequences of three whose first two are legal (the rest are refused at step two)."""
    for first, second in product(UNIVERSE, repeat=2):
        if _rulebook_accepts((first, second), allowed):
            for third in UNIVERSE:
                yield (first, second, third)


# --- the options-sheet setting -------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [([3, 4], (3, 4)), ([4, 3], (3, 4)), ([4], (4,)), ([3], (3,)), ([4, 4], (4,)), ((3,), (3,))],
    ids=["3-4", "4-3", "4", "3", "4-4", "tuple"],
)
def test_validate_preflop_multiples(given, expected):
    assert validate_preflop_multiples(given) == expected


@pytest.mark.parametrize(
    "given",
    [[], [2], [5], [3, 5], [1], ["4"], "34", [True], [4.0], [0]],
    ids=["empty", "2", "5", "3-5", "1", "str-4", "string", "bool", "float", "zero"],
)
def test_validate_preflop_multiples_refuses(given):
    with pytest.raises(RuleError) as caught:
        validate_preflop_multiples(given)
    assert caught.value.rule == Rule.PREFLOP_MULTIPLES


def test_allowed_play_multiples():
    assert allowed_play_multiples((3, 4)) == {1, 2, 3, 4}
    assert allowed_play_multiples((4,)) == {1, 2, 4}
