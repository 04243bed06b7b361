"""A context a test makes itself (``browser.new_context``) follows the fixtures' rule: no
service worker, unless the test is one of the phone with no signal (``OFFLINE``)."""

from __future__ import annotations

from typing import Literal

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import OFFLINE

pytestmark = pytest.mark.browser

# Registers the page's service worker and waits for the registration: the worker's scopes.
REGISTER = """async () => {
  try {
    await navigator.serviceWorker.register("/sw.js");
  } catch (error) {
    return [String(error)];
  }
  return (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope);
}"""


def registered(
    browser: Browser, server: str, service_workers: Literal["allow", "block"] | None = None
) -> list[str]:
    """The scopes of the service workers a page of a new context registers."""
    context = (
        browser.new_context()
        if service_workers is None
        else browser.new_context(service_workers=service_workers)
    )
    try:
        page = context.new_page()
        page.goto(server + "/")
        scopes: list[str] = page.evaluate(REGISTER)
        return scopes
    finally:
        context.close()


def test_a_context_a_test_makes_has_no_service_worker(browser: Browser, server: str) -> None:
    assert registered(browser, server) == []


def test_the_test_may_still_ask_for_one(browser: Browser, server: str) -> None:
    assert registered(browser, server, service_workers="allow") == [server + "/"]


@OFFLINE
def test_a_test_of_the_phone_with_no_signal_gets_one(browser: Browser, server: str) -> None:
    assert registered(browser, server) == [server + "/"]
