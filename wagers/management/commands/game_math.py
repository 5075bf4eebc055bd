"""``manage.py game_math --options FILE``: each wager's exact figures (docs/rules.md §13)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from cardroom.errors import RuleError
from wagers.rules.calculator import parse_options
from wagers.rules.gamemath import game_math, game_math_json

from ._json_input import read_json


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
        data = {} if options is None else read_json(options)
        try:
            figures = game_math(parse_options(data))
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(game_math_json(figures), indent=2))
