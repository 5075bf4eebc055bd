"""Typed refusals: one enum of rules (identifier and section), one of states, and how a
refusal reads on the command line and in the console."""

from __future__ import annotations

import pytest

from cardroom.errors import (
    ACTIVE_ROUND_STATES,
    FINISHED_ROUND_STATES,
    ROUND_STATES,
    Refused,
    Rule,
    RuleError,
    State,
    StateError,
    describe,
)


def test_a_rule_is_its_identifier_with_a_section_and_an_anchor():
    assert Rule.CONSECUTIVE_HANDS == "rotation.consecutive_hands"
    assert Rule("rotation.consecutive_hands") is Rule.CONSECUTIVE_HANDS
    assert Rule.CONSECUTIVE_HANDS.section == "8.2"
    assert Rule.CONSECUTIVE_HANDS.anchor == "s8-2"
    assert Rule.CALCULATOR_FORMAT.anchor == "s11"
    assert Rule.CONSECUTIVE_HANDS.citation == "rule: at most two hands in a row, docs/rules.md §8.2"


def test_an_unknown_rule_or_state_is_not_accepted():
    with pytest.raises(ValueError):
        RuleError("no such rule", rule="RULE §6")
    with pytest.raises(ValueError):
        StateError("no such state", state="closed")


def test_a_rule_error_on_the_command_line_names_the_field_the_rule_and_its_section():
    error = RuleError("seat 7 does not exist", rule=Rule.SEATS, field="seat")
    assert (
        str(error)
        == "seat: seat 7 does not exist [rule: the seats, numbered from 1, docs/rules.md §3.1]"
    )
    assert (
        describe(error)
        == "seat 7 does not exist (rule: the seats, numbered from 1, docs/rules.md §3.1)"
    )


@pytest.mark.parametrize(
    ("inner", "outer", "joined"),
    [(None, "seats[0]", "seats[0]"), ("hole", "seats[0]", "seats[0].hole"),
     ("[1]", "seats[0].hole", "seats[0].hole[1]")],
)  # fmt: skip
def test_with_field_prefixes_the_path(inner, outer, joined):
    error = RuleError("bad", rule=Rule.CARD, field=inner).with_field(outer)
    assert (error.field, error.rule, error.message) == (joined, Rule.CARD, "bad")


def test_a_state_error_names_its_state_and_the_rule_when_there_is_one():
    error = StateError("no game is open", state=State.NO_GAME, rule=Rule.GAME)
    assert error.state is State.NO_GAME and error.state == "no_game"
    assert (
        describe(error)
        == "no game is open (rule: a game is opened before play, docs/rules.md §3.5)"
    )
    plain = StateError("report 3 is queued", state="queued")
    assert plain.state is State.REPORT_QUEUED and plain.rule is None
    assert describe(plain) == str(plain) == "report 3 is queued"


def test_refused_carries_the_recorded_refusal():
    error = StateError("nobody accepted", state=State.NO_PLAYER_DEALER)
    assert Refused(error).error is error


def test_the_round_states_in_their_order():
    assert [state.value for state in ROUND_STATES] == [
        "wagering", "no_more_bets", "preflop", "flop", "river", "showdown", "settled", "voided",
    ]  # fmt: skip
    assert set(ACTIVE_ROUND_STATES) | set(FINISHED_ROUND_STATES) == set(ROUND_STATES)
    assert FINISHED_ROUND_STATES == (State.SETTLED, State.VOIDED)
    assert State.PREFLOP.label == "Hole cards dealt: pre-flop decisions"
