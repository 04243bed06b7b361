"""The tests' wait for a check in the page (tests/browser/conftest.py ``wait_until``): an
``async`` check is waited for until it resolves to something true, not taken as passed because
it returned a promise (as Playwright's own ``wait_for_function`` takes it); its argument is
passed; a check that never passes fails with the reason given and the error it threw."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import wait_until

pytestmark = pytest.mark.browser

LATER = "() => { window.ready = false; setTimeout(() => { window.ready = true; }, 300); }"


def test_an_async_check_is_waited_for_until_it_is_true(page: Page) -> None:
    page.set_content("<p>waiting</p>")
    page.evaluate(LATER)
    wait_until(page, "async () => { await null; return window.ready; }", "never ready", 10)
    assert page.evaluate("() => window.ready") is True


def test_the_check_gets_its_argument(page: Page) -> None:
    page.set_content("<p>waiting</p>")
    page.evaluate(LATER)
    wait_until(page, "async (n) => window.ready && n === 3", "never 3", 10, arg=3)
    assert page.evaluate("() => window.ready") is True


def test_a_check_that_never_passes_says_why(page: Page) -> None:
    page.set_content("<p>waiting</p>")
    with pytest.raises(AssertionError, match=r"^not kept \(the check failed: Error: no outbox\)$"):
        wait_until(page, "async () => { throw new Error('no outbox'); }", "not kept", 0.5)
    with pytest.raises(AssertionError, match=r"^still false$"):
        wait_until(page, "async () => false", "still false", 0.5)
    # A check that has not settled when the wait runs out (as on a loaded machine, where the
    # first poll may not settle in time): its error is still found.
    late = "async () => { await new Promise((r) => setTimeout(r, 800)); throw new Error('late'); }"
    with pytest.raises(AssertionError, match=r"^too soon \(the check failed: Error: late\)$"):
        wait_until(page, late, "too soon", 0.2)
