"""``manage.py settle_hand FILE.json``: resolve one hand without touching the database."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from cardroom.errors import RuleError
from games.registry import settle_request

from ._json_input import read_json


class Command(BaseCommand):
    help = (
        "Resolve and settle one complete hand given as JSON (docs/rules.md §11, §14.7: the "
        "hand's options.game chooses the game, Ultimate Texas Hold'em when it names none; "
        "'-' reads standard input) and print the settlement as JSON."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="path to the hand's JSON, or - for standard input")

    def handle(self, *args, file: str, **options):
        data = read_json(file)
        try:
            result = settle_request(data)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(result, indent=2))
