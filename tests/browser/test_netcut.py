"""The phone's signal the offline tests cut (tests/browser/netcut.py): a context made with it
reaches the server only through it, nothing once it is cut (the emulation left on), all again
once it is back; the test's own requests are never cut; and nothing but loopback is
forwarded."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser

from tests.browser.netcut import SIGNALS, context_with_signal, signal_of

pytestmark = pytest.mark.browser

FETCH = "url => fetch(url, {cache: 'no-store'}).then(r => r.status, () => 'failed')"


def test_a_cut_signal_reaches_nothing_and_the_test_still_does(
    server: str, browser: Browser
) -> None:
    context = context_with_signal(browser.new_context, service_workers="block")
    try:
        page = context.new_page()
        assert page.goto(f"{server}/api/matches") is not None
        signal = signal_of(context)
        signal.drop()  # no emulation: only the proxy stands between the page and the server
        assert page.evaluate(FETCH, f"{server}/api/matches") == "failed"
        assert httpx.get(f"{server}/api/matches").status_code == 200
        signal.restore()
        assert page.evaluate(FETCH, f"{server}/api/matches") == 200
        answer = page.request.post(f"{server}/api/matches", data={"players": ["Ada", "Bea"]})
        assert answer.status == 201, answer.text()  # a body goes through too
        # Anywhere else, the proxy's own 403 (no name looked up, nothing sent): the headless
        # shell shows it as the page's answer (the whole browser fails the navigation with
        # ERR_HTTP_RESPONSE_CODE_FAILURE instead).
        refused = page.goto("http://scopa.invalid/")
        assert refused is not None
        assert refused.status == 403
        assert refused.body() == b""
    finally:
        context.close()
    assert SIGNALS[context].server is None  # closed with its context
