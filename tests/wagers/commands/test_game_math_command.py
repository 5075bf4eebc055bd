"""``manage.py game_math`` (docs/rules.md §13): the figures as JSON, decimal strings of the
exact fractions to at least 8 significant digits; bad options exit non-zero naming the rule."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal

from tables.rules.options import GameOptions
from tests.helpers import BASE_DIR
from wagers.rules.gamemath import decimal, game_math


def run_command(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cardroom.settings"}
    return subprocess.run(
        [sys.executable, "manage.py", "game_math", *args],
        cwd=BASE_DIR,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_default_options_and_a_file(tmp_path):
    default = run_command()
    assert default.returncode == 0, default.stderr
    answer = json.loads(default.stdout)
    figures = game_math(GameOptions())
    assert Decimal(answer["trips"]["house_edge"]) == decimal(figures.trips.house_edge)
    assert Decimal(answer["base_game"]["element_of_risk"]) == decimal(
        figures.base_game.element_of_risk
    )
    for wager in answer.values():
        for text in wager.values():
            digits = text.lstrip("-0.").replace(".", "")
            assert len(digits) >= 8, text
    path = tmp_path / "options.json"
    path.write_text(json.dumps({"bad_beat_paytable": None}), encoding="utf-8")
    answer = json.loads(run_command("--options", str(path)).stdout)
    assert answer["bad_beat"] is None and answer["trips"] == json.loads(default.stdout)["trips"]


def test_bad_options_exit_non_zero_with_one_line_naming_the_rule():
    result = run_command("--options", "-", stdin='{"trips_paytable": "UTH-9"}')
    assert result.returncode != 0 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("CommandError: trips_paytable: unknown pay")
    assert "[rule: the pay tables, docs/rules.md §6.2]" in lines[0]
    for args, stdin, fragment in (
        (("--options", "-"), "{not json", "not valid JSON"),
        (("--options", "/nonexistent/options.json"), None, "cannot read"),
    ):
        result = run_command(*args, stdin=stdin)
        assert result.returncode != 0 and fragment in result.stderr
