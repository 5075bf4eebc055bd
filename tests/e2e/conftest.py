"""A real browser for the console: Playwright driving Debian's chromium (never a download).

The browser runs against pytest-django's ``live_server`` (a real HTTP server in a thread,
on the test database). ``scripts/ensure_chromium.sh`` installs /usr/bin/chromium when
missing; ``CHROMIUM_PATH`` points elsewhere if needed.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# How long an ``expect`` waits for the page to show what it should (Playwright's own default
# is 5 s), as long as every other wait of a page here (``set_default_timeout`` below): under
# ``make test`` two workers share 2 cores with the live server, and the API's documentation
# page renders only once the schema is generated, which took over 5 s on a busy machine.
# A bound on waiting, not a timed assertion: a page that shows it sooner passes sooner.
PAGE_TIMEOUT_MS = 20_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/ensure_chromium.sh (make test does)")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=PAGE_TIMEOUT_MS)

    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code, so Django's async-safety guard is told to let them be,
    # for these browser tests only.
    saved = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            # --no-sandbox: CI and these machines run as root, where chromium's sandbox refuses.
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            yield browser
            browser.close()
    finally:
        if saved is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = saved


@pytest.fixture
def new_page(browser):
    """Pages in fresh browser contexts (own cookies), closed after the test. Anything the
    Content-Security-Policy refused on any of them (chromium says so on the console) fails
    the test: every page must work under the policy (cardroom/settings.py)."""
    contexts = []
    refused: list[str] = []

    def make(viewport=TABLET, **options):
        """A page in a fresh context; ``options`` go to the context (e.g. ``timezone_id``)."""
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(PAGE_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                refused.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert refused == [], "refused by the Content-Security-Policy"


@pytest.fixture
def shoot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str, *, full_page: bool = True) -> Path:
        """The whole page, or with ``full_page=False`` the screen as it is scrolled now."""
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save


def sign_in(page, base_url: str, username: str, password: str = "pw") -> None:
    page.goto(f"{base_url}/console/sign-in/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button:has-text('Sign in')")
    page.wait_for_url(f"{base_url}/console/")


def fits_width(page) -> bool:
    """Nothing overflows sideways: the page is usable without horizontal scrolling."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@contextmanager
def swapped(page):
    """Wait for the action the block takes on the dealer's table view: htmx swaps the table
    area in place (no navigation), or, without htmx, the page the form's redirect leads to."""
    page.evaluate("document.querySelector('#table-area').dataset.stale = '1'")
    yield
    page.wait_for_function(
        "() => { const area = document.querySelector('#table-area');"
        " return area && !area.dataset.stale"
        " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'); }"
    )
