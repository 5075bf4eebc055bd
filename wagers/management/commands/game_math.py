"""``manage.py game_math --options FILE``: each wager's exact figures (docs/rules.md §13)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from cardroom.errors import RuleError
from wagers.rules.calculator import parse_options
from wagers.rules.gamemath import game_math, game_math_json


class Command(BaseCommand):
    help = (
        "Print the house edge, standard deviation and hit frequency of a table's wagers as "
        "JSON. --options reads the settlement calculator's `options` object (pay tables by "
        "name or in full; '-' reads standard input); without it, the default options."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument(
            "--options", metavar="FILE.json", help="the options object as JSON, or - for stdin"
        )

    def handle(self, *args, options: str | None = None, **kwargs):
        data = {} if options is None else self._read(options)
        try:
            figures = game_math(parse_options(data))
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(game_math_json(figures), indent=2))

    @staticmethod
    def _read(path: str) -> object:
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        try:
            return json.loads(text)
        except ValueError as error:
            raise CommandError(f"not valid JSON: {error}") from None
