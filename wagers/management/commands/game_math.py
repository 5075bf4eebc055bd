"""``manage.py game_math --options FILE``: each wager's exact figures (docs/rules.md §13)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from cardroom.errors import RuleError
from games.registry import game_math

from ._json_input import read_json


class Command(BaseCommand):
    help = (
        "Print the house edge, standard deviation and hit frequency of a table's wagers as "
        "JSON. --options reads the settlement calculator's `options` object (pay tables by "
        "name or in full; '-' reads standard input); without it, the default options. The "
        "options' game chooses the game (docs/rules.md §13, §14.8): Ultimate Texas Hold'em "
        "when it names none; for EZ Baccarat each wager's house edge also as an exact "
        "fraction and as a percentage to 4 decimals."
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
            figures = game_math(data)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(figures, indent=2))
