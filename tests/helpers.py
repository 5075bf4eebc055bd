"""Run Python snippets under fresh Django settings in a subprocess.

Settings are read once per process, so checking how they react to the environment needs a
new interpreter each time.
"""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def run_django(
    code: str, *, env: dict[str, str] | None = None, unset: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` after ``django.setup()`` with the given environment changes."""
    child_env = {k: v for k, v in os.environ.items() if k not in unset}
    child_env.update(env or {})
    child_env["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
    return subprocess.run(
        [sys.executable, "-c", f"import django\ndjango.setup()\n{code}"],
        cwd=BASE_DIR,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
