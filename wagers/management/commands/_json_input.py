"""What the calculator's commands read: a JSON document from a file, or ``-`` for standard
input, with the same errors for both commands."""

from __future__ import annotations

import json
import sys

from django.core.management.base import CommandError


def read_json(path: str) -> object:
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
    except ValueError as error:  # JSONDecodeError, or an integer too long to convert
        raise CommandError(f"not valid JSON: {error}") from None
