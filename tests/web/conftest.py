"""Browser fixtures: one system Chromium per session (Playwright, sync API), one live
``yacht-daily serve`` per module (one for all the tables' pages), and a fresh browser context
(one player) per test.

The pages run in Chromium's headless shell (Debian: ``chromium-headless-shell``) when it is
installed: the same Blink, V8 and layout as the browser, without the browser's own windows and
services, which is what Playwright runs headless tests in by default; it takes about half the
CPU of the full browser in headless mode (docs/performance.md). Without it, the full browser;
Chromium's own installability check (test_installable.py) always runs in the full browser.
Without /usr/bin/chromium the browser tests skip with a clear message, except under CI
(``CI=true``), where a missing browser is a failure.
"""

import datetime as dt
import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
WAIT_MS = 15_000  # a page's action, or what it is expected to show, on a loaded machine


@pytest.fixture(scope="session")
def browser():
    """The system Chromium (its headless shell when installed), shared by every browser test
    of the session."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: install the Debian package 'chromium'"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI needs the browser tests)")
        pytest.skip(message + " to run the browser tests")
    from playwright.sync_api import expect, sync_playwright

    # Playwright's expectations wait 5 s by default: an answer from a live server on a loaded
    # machine can take longer, and the tests then failed for nothing.
    expect.set_options(timeout=WAIT_MS)

    with sync_playwright() as playwright:
        engine = HEADLESS_SHELL if HEADLESS_SHELL.exists() else CHROMIUM
        chromium = playwright.chromium.launch(executable_path=str(engine), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


_shared: dict[str, object] = {}  # "server": this process's shared live server while it runs


@pytest.fixture(scope="module")
def shared_server(make_live_server):
    """One live server per test process for every module that neither moves its clock nor
    needs a server of its own: its boot (its master reading the strategy tables, two workers, the
    backlog's reveal) is paid once per process instead of once per module. It is stopped as
    soon as the process moves on from the browser tests (they come first: ``SLOW_FIRST`` in
    tests/conftest.py), not left idling to the end of the run; a later module starts it
    again."""
    from .table_page import start_table_server

    if "server" not in _shared:
        _shared["server"] = start_table_server(make_live_server)
    return _shared["server"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last browser test before other folders' (or the end), stop the shared server,
    once the test's own fixtures are torn down."""
    yield
    here = Path(__file__).parent
    if "server" in _shared and (nextitem is None or here not in nextitem.path.parents):
        _shared.pop("server").stop()


@pytest.fixture(scope="module")
def web_server(request, make_live_server):
    """The module's live server: the shared one, unless the module sets ``OWN_SERVER = True``
    (it moves the clock, or needs a day without anyone else's games) or ``DAY_FORMAT = "2"``
    (its dates start in v2, the day's log): then one of its own."""
    day_format = getattr(request.module, "DAY_FORMAT", None)
    if not day_format and not getattr(request.module, "OWN_SERVER", False):
        yield request.getfixturevalue("shared_server")
        return
    server = make_live_server(workers=2, **({"day_format": day_format} if day_format else {}))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def table_server(shared_server):
    """The live server of the tables' pages (tests/web/table_page.py): the shared one."""
    return shared_server


def server_time(server) -> dt.datetime:
    """The live server's current time (its clock file)."""
    return dt.datetime.fromisoformat(server.clock_file.read_text().replace("Z", "+00:00"))


@pytest.fixture
def new_context(browser, web_server):
    """Make browser contexts (players) whose local date is the server's: UTC, clock pinned."""
    contexts = []

    def make(locale: str = "en-GB", viewport: dict = DESKTOP, permissions=()):
        """A context: its language, its screen size, the permissions granted."""
        context = browser.new_context(
            base_url=web_server.url,
            locale=locale,
            timezone_id="UTC",
            viewport=viewport,
            permissions=list(permissions),
        )
        context.clock.set_fixed_time(server_time(web_server))
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context):
    """A page of a fresh player, in English, at desktop size, failing on any script error."""
    page = new_context().new_page()
    errors = watch_errors(page)
    yield page
    assert errors == [], errors


def watch_errors(page) -> list[str]:
    """Collect uncaught script errors and CSP refusals the page reports."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text)
        if message.type == "error" and "Content Security Policy" in message.text
        else None,
    )
    return errors
