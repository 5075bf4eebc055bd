"""Run Python snippets under fresh Django settings in a subprocess.

Settings are read once per process, so checking how they react to the environment needs a
new interpreter each time.
"""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
SETUP = "import django\ndjango.setup()\n"
# Reading one setting loads the settings module, with every refusal it raises; the apps are
# not loaded (a fifth of the cost of django.setup(): about 0.3 s of CPU, not 1.3 s).
SETTINGS = "from django.conf import settings\nsettings.INSTALLED_APPS\n"


def run_django(
    code: str,
    *,
    env: dict[str, str] | None = None,
    unset: tuple[str, ...] = (),
    setup: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` after ``django.setup()`` with the given environment changes; with
    ``setup=False`` (``read_settings``) after reading the settings module only."""
    child_env = {k: v for k, v in os.environ.items() if k not in unset}
    child_env.update(env or {})
    child_env["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
    return subprocess.run(
        [sys.executable, "-c", f"{SETUP if setup else SETTINGS}{code}"],
        cwd=BASE_DIR,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def read_settings(
    code: str, *, env: dict[str, str] | None = None, unset: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``run_django`` without the apps: for the settings' values and their refusals (all in
    cardroom/settings.py), which are read before any app is."""
    return run_django(code, env=env, unset=unset, setup=False)
