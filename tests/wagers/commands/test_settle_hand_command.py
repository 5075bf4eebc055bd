"""``manage.py settle_hand``: the calculator as a command (docs/rules.md §11).

Each case runs the real command in a subprocess, so the exit status and the exact
standard output and error are what an operator sees.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from cardroom.errors import Rule
from tests.builders.rules import appendix_request
from tests.helpers import BASE_DIR


def run_command(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cardroom.settings"}
    return subprocess.run(
        [sys.executable, "manage.py", "settle_hand", *args],
        cwd=BASE_DIR,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _check_appendix_answer(answer):
    assert answer["dealer"]["category"] == "high_card"
    assert answer["dealer"]["qualifies"] is False
    assert [(s["seat"], s["category"], s["result"]) for s in answer["seats"]] == [
        (1, "one_pair", "win")
    ]
    assert [(line["wager"], line["paid"], line["unpaid_uncovered"])
            for line in answer["settlement"]] == [
        ("ante", 0, 0), ("play", 10_000, 0), ("blind", 0, 0), ("trips", 0, 0),
        ("ante", 0, 0), ("play", 0, 2000), ("blind", 0, 0),
    ]  # fmt: skip
    assert answer["player_dealer_net"] == -10_000


def test_a_valid_file_prints_json_and_exits_0(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(appendix_request()), encoding="utf-8")
    result = run_command(str(path))
    assert result.returncode == 0, result.stderr
    _check_appendix_answer(json.loads(result.stdout))
    assert result.stderr == ""


def test_dash_reads_standard_input():
    result = run_command("-", stdin=json.dumps(appendix_request()))
    assert result.returncode == 0, result.stderr
    _check_appendix_answer(json.loads(result.stdout))


def _bad(change):
    request = appendix_request()
    change(request)
    return json.dumps(request)


BAD = [
    ("ante-not-blind", _bad(lambda r: r["seats"][0].update(blind=2000)), "seats[0].blind",
     Rule.ANTE_BLIND),
    ("3x-on-a-4x-only-table", _bad(lambda r: (r["options"].update(allowed_preflop_multiples=[4]),
     r["seats"][0].update(play=7500))), "seats[0].play",
     Rule.DECISIONS),
    ("bank-0", _bad(lambda r: r["player_dealer"].update(bank=0)), "player_dealer.bank",
     Rule.BANK),
    ("unknown-card", _bad(lambda r: r["board"].__setitem__(2, "Zz")), "board[2]", Rule.CARD),
    ("missing-board", _bad(lambda r: r.pop("board")), "board", Rule.CALCULATOR_FORMAT),
    ("infinite-odds", _bad(lambda r: r["options"].update(trips_paytable={
        "royal_flush": "Infinity", "straight_flush": 40, "four_of_a_kind": 20, "full_house": 7,
        "flush": 6, "straight": 5, "three_of_a_kind": 3})),
     "options.trips_paytable.royal_flush", Rule.PAYTABLES),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "field", "rule"), [case[1:] for case in BAD], ids=[case[0] for case in BAD]
)
@pytest.mark.parametrize("source", ["stdin", "file"])
def test_bad_input_exits_non_zero_with_one_line_naming_rule_and_field(
    text, field, rule, source, tmp_path
):
    if source == "stdin":
        result = run_command("-", stdin=text)
    else:
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8")
        result = run_command(str(path))
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"{field}:" in lines[0]
    assert f"[{rule.citation}]" in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "stdin", "fragment"),
    [
        (("-",), "{not json", "not valid JSON"),
        (("/nonexistent/hand.json",), None, "cannot read"),
        (("-",), '{"player_dealer": {"bank": ' + "9" * 5000 + "}}", ""),
    ],
    ids=["invalid-json", "missing-file", "integer-too-long-for-json"],
)
def test_unreadable_input_exits_non_zero_with_one_line(args, stdin, fragment):
    result = run_command(*args, stdin=stdin)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]
    assert "Traceback" not in result.stderr


def test_call_command_writes_the_answer():
    import django
    from django.conf import settings

    if not settings.configured:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    django.setup()
    from django.core.management import CommandError, call_command

    stdout = io.StringIO()
    stdin = io.StringIO(json.dumps(appendix_request()))
    saved, sys.stdin = sys.stdin, stdin
    try:
        call_command("settle_hand", "-", stdout=stdout)
    finally:
        sys.stdin = saved
    _check_appendix_answer(json.loads(stdout.getvalue()))

    bad = appendix_request()
    bad["seats"][0]["seat"] = 9
    sys.stdin = io.StringIO(json.dumps(bad))
    try:
        with pytest.raises(CommandError, match=r"seats\[0\]\.seat: seat 9 does not exist"):
            call_command("settle_hand", "-")
    finally:
        sys.stdin = saved
