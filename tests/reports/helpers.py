"""Generate a report in-process and read its CSV back by section."""

from __future__ import annotations

import csv
import io

from reports import services
from reports.parameters import normalise
from reports.registry import REGISTRY


def generate_bytes(report_type: str, **parameters) -> tuple[bytes, services.Generated]:
    kind = REGISTRY[report_type]
    from datetime import date

    normalised = normalise(
        report_type, parameters, formats=kind.formats, today=date(2100, 1, 1), filters=kind.filters
    )
    out = io.BytesIO()
    generated = services.generate(report_type, normalised, out)
    return out.getvalue(), generated


def read_csv(data: bytes) -> tuple[dict[str, str], dict[str, list[dict[str, str]]]]:
    """(header, {section title: [row as a dict]}) of a report CSV."""
    rows = list(csv.reader(io.StringIO(data.decode())))
    header = {}
    index = 0
    while rows[index]:
        header[rows[index][0]] = rows[index][1]
        index += 1
    sections: dict[str, list[dict[str, str]]] = {}
    index += 1
    while index < len(rows):
        title = rows[index][0].strip("[]")
        columns = rows[index + 1]
        index += 2
        body = []
        while rows[index]:
            body.append(dict(zip(columns, rows[index], strict=True)))
            index += 1
        sections[title] = body
        index += 1
    return header, sections
