"""Test-only hook loaded into a test worker with ``--include`` (never in production).

With ``REPORTS_TEST_HOLD_DIR`` set, the audit export pauses after its first row while the
file ``hold`` exists in that directory, after writing the pid of the process running it
to ``started-<n>``: a test can then kill exactly that process mid-run.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

from reports import registry
from reports.document import Document, Section

HOLD_DIR = os.environ.get("REPORTS_TEST_HOLD_DIR")
MAX_HOLD_SECONDS = 120


def _held(rows, directory: Path):
    for index, row in enumerate(rows):
        yield row
        if index == 0:
            runs = len(list(directory.glob("started-*")))
            (directory / f"started-{runs + 1}").write_text(str(os.getpid()))
            deadline = time.monotonic() + MAX_HOLD_SECONDS
            while (directory / "hold").exists() and time.monotonic() < deadline:
                time.sleep(0.05)


def _holding(build, directory: Path):
    def held_build(period, *, is_open) -> Document:
        document = build(period, is_open=is_open)

        def sections():
            for index, section in enumerate(document.sections):
                if index == 0:
                    # Rows through Python (not the server's COPY), so they can be held; the
                    # bytes are the same either way, which the checksum comparison proves.
                    held = _held(section.rows, directory)
                    section = Section(**{**section.__dict__, "rows": held, "copy": None})
                yield section

        return replace(document, sections=sections())

    return held_build


if HOLD_DIR:
    _audit = registry.REGISTRY["audit"]
    registry.REGISTRY["audit"] = replace(_audit, build=_holding(_audit.build, Path(HOLD_DIR)))
