"""A real uvicorn server on a free loopback port, and Debian's headless Chromium for
Playwright."""

from __future__ import annotations

import contextlib
import functools
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from scopa.store import MatchStore
from scopa.web import create_app
from tests.browser.netcut import context_with_signal
from tests.pg import free_port

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# An assertion on the page waits up to 15 s for it to hold, not Playwright's 5 s: the suite
# runs one pytest process more than the cores (scripts/run-tests.sh), beside Chromium and the
# servers, and a page can be slow to change without being wrong. A bound, not a sleep: an
# assertion that holds returns at once.
expect.set_options(timeout=15_000)


# Chromium's own features the tests turn off, besides Playwright's: the address bar's popup
# drawn as a web page, which headless Chromium (since about 140) loads in a renderer of its own
# for every window, and so for every context a test opens (some 0.8 s of CPU each, more than
# a page of the sheet: a fifth of the suite's Chromium time).
DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]


# Debian's headless shell (package chromium-headless-shell): Chromium's engine (the same Blink
# and V8, the same version as the package chromium) with no browser window behind each page,
# which is the browser Playwright itself runs headless. The sheet's pages cost two thirds of
# the full browser's CPU in it (test_sheet, test_views and test_groups: 28 CPU-s against 42,
# 2026-12-06). The benches (bench/) measure the full browser, as a phone runs one.
CHROMIUM = "/usr/bin/chromium-headless-shell"


@functools.cache
def playwright_disabled_features() -> list[str]:
    """The features Playwright turns off (its ``--disable-features``, which a second such
    switch would replace: Chromium keeps the last), read from its driver."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter", bundle.read_text(), re.DOTALL)
    if found is None:
        raise RuntimeError(f"Playwright's disabled features were not found in {bundle}")
    listed = re.sub(r"//[^\n]*", "", found.group(1))
    return re.findall(r'"([A-Za-z0-9]+)"', listed)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    disabled = [*playwright_disabled_features(), *DISABLED_FEATURES]
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-features=" + ",".join(disabled),
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A test's page has no service worker unless it asks for one (``OFFLINE``): installing
    it fetches Pyodide and renders the pages kept for offline (13.5 MB and 58 pages a fresh
    context), which only the tests of the phone with no signal need. A context a test makes
    itself (``browser.new_context``) follows the same rule (the ``browser`` fixture below)."""
    return {**browser_context_args, "service_workers": "block"}


# The mark of a test (or a module) of the phone with no signal: its pages install the
# service worker, as a phone's do.
OFFLINE = pytest.mark.browser_context_args(service_workers="allow")


def offline(request: pytest.FixtureRequest) -> bool:
    """Whether the test is one of the phone with no signal (``OFFLINE``)."""
    marker = next(request.node.iter_markers("browser_context_args"), None)
    return marker is not None and marker.kwargs == OFFLINE.kwargs


@pytest.fixture
def browser(
    browser: Browser, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Browser:
    """pytest-playwright's browser, whose ``new_context`` (a context a test makes itself, which
    ``browser_context_args`` does not reach) blocks the service worker as the fixture's contexts
    do, unless the test is one of the phone with no signal or says otherwise."""
    if not offline(request):
        made = browser.new_context

        def new_context(**kwargs: Any) -> BrowserContext:
            return made(**{"service_workers": "block", **kwargs})

        monkeypatch.setattr(browser, "new_context", new_context)
    return browser


@pytest.fixture
def new_context(
    new_context: Callable[..., BrowserContext], request: pytest.FixtureRequest
) -> Callable[..., BrowserContext]:
    """pytest-playwright's contexts; a test of the phone with no signal (``OFFLINE``) gets
    each through a :class:`~tests.browser.netcut.Signal` of its own, which ``go_offline``
    really cuts."""
    if not offline(request):
        return new_context
    return functools.partial(context_with_signal, new_context)


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free loopback port: its base URL."""
    port = free_port()
    # A page's open event stream is not waited for at the end: the test is over (uvicorn's
    # default waits for every connection, and the join below gave up after 10 s each module).
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not uv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        uv.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a temporary SQLite file, served by uvicorn in a thread."""
    path = tmp_path_factory.mktemp("browser") / "sheet.db"
    store = MatchStore.open(f"sqlite:///{path}")
    with serving(create_app(store)) as url:
        yield url
    store.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# The files a phone needs to score with no signal, kept by the service worker at install.
SCORER_KEPT = """async () => {
  if (!navigator.serviceWorker.controller) { return false; }
  const vendor = await caches.open("scopa-vendor-v1");
  const names = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"];
  const found = await Promise.all(names.map((n) => vendor.match("/static/vendor/pyodide/" + n)));
  return found.every(Boolean) && !!(await caches.match("/offline/core.zip"));
}"""


# Playwright's ``wait_for_function`` takes whatever the function returns at its word: a
# promise is an object, so an ``async`` check "passes" at once, before it has looked at
# anything (and a test then races the page). Here each poll starts the check once the last
# one has settled, and the wait ends when one of them resolved to something true. (The
# check's text goes into the poll's own: the pages forbid ``eval``.)
POLL_ASYNC = """(arg) => {
  const check = (__CHECK__);
  const id = String(check) + "\\u0000" + JSON.stringify(arg);
  let wait = window.__scopaWait;
  if (!wait || wait.id !== id) {
    wait = window.__scopaWait = { id, busy: false, done: false };
  }
  if (wait.done) { window.__scopaWait = null; return true; }
  if (!wait.busy) {
    wait.busy = true;
    Promise.resolve().then(() => check(arg))
      .then((value) => { wait.done = !!value; }, () => {})
      .finally(() => { wait.busy = false; });
  }
  return false;
}"""


# The check run once more after a wait ran out, for the error it throws (none: "").
CHECK_ONCE = """(arg) => {
  window.__scopaOnce = null;
  Promise.resolve().then(() => (__CHECK__)(arg))
    .then(() => { window.__scopaOnce = [""]; },
          (error) => { window.__scopaOnce = [String(error)]; });
}"""


def wait_until(page: Page, script: str, what: str, timeout: float = 60, arg: Any = None) -> None:
    """Waits until the function ``script`` (``async`` or not, given ``arg``) returns something
    true, polled in the page every 100 ms; a page that reloads meanwhile is waited out. Fails
    with ``what`` after ``timeout`` seconds, and with the error the check throws when run
    once more then (the polls' own may not have settled: on a loaded machine, none may have)."""
    poll = POLL_ASYNC.replace("__CHECK__", script, 1)
    try:
        page.wait_for_function(poll, arg=arg, timeout=timeout * 1000, polling=100)
    except PlaywrightTimeoutError:
        error = ""
        with contextlib.suppress(PlaywrightError):  # bounded: the page may be stuck loading
            page.evaluate(CHECK_ONCE.replace("__CHECK__", script, 1), arg)
            once = page.wait_for_function("() => window.__scopaOnce", timeout=5000)
            error = once.json_value()[0]
        raise AssertionError(what + (f" (the check failed: {error})" if error else "")) from None


def wait_scorer_kept(page: Page) -> None:
    """Waits until the service worker has kept what the device's scorer needs offline (a
    phone that loses its signal before that cannot score alone: a test that goes offline
    sooner tests a race, not the scorer)."""
    wait_until(page, SCORER_KEPT, "the scorer's files were not kept on the device")
