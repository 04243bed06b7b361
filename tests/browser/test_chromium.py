"""The Chromium the browser tests drive: Debian's headless shell, with Playwright's own switches
kept, and the address bar's popup (a web page the whole headless browser loads in a renderer of
its own for every window) off."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import CHROMIUM, DISABLED_FEATURES, playwright_disabled_features

pytestmark = pytest.mark.browser


def test_chromium_runs_with_playwrights_features_off_and_ours(browser: Browser) -> None:
    session = browser.new_browser_cdp_session()
    processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    [pid] = [process["id"] for process in processes if process["type"] == "browser"]
    with open(f"/proc/{pid}/cmdline") as handle:
        switches = handle.read().split("\0")
    with open(CHROMIUM, "rb") as launcher:  # Debian's script that runs the shell itself
        assert b"chromium-headless-shell" in launcher.read()
    assert switches[0].endswith("chromium-headless-shell"), switches[0]
    # Chromium keeps the last --disable-features: it holds Playwright's and ours.
    last = [s for s in switches if s.startswith("--disable-features=")][-1]
    off = set(last.removeprefix("--disable-features=").split(","))
    theirs = set(playwright_disabled_features())
    assert "HttpsUpgrades" in theirs
    assert theirs <= off, sorted(theirs - off)
    assert set(DISABLED_FEATURES) <= off
    # No window of this browser has loaded the address bar's popup.
    context = browser.new_context()
    context.new_page().goto("about:blank")
    targets = session.send("Target.getTargets")["targetInfos"]
    assert [t["url"] for t in targets if "omnibox" in t["url"]] == []
    context.close()
