"""The URL converter for ids (``<id:table_id>``): ASCII digits up to ``bounds.ID_MAX``, so a
path with an id beyond any row's (``/api/tables/99999999999999999999/``) is a plain 404."""

from __future__ import annotations

from cardroom import bounds


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > bounds.ID_MAX:
            raise ValueError(f"{value} is beyond the largest id")  # Django answers 404
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))
