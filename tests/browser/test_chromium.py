"""The Chromium the browser tests drive: Playwright's own switches kept, and the address bar's
popup (a web page headless Chromium loads in a renderer of its own for every window) off."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import DISABLED_FEATURES, playwright_disabled_features

pytestmark = pytest.mark.browser


def test_chromium_runs_with_playwrights_features_off_and_ours(browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto("chrome://version/?show-variations-cmd")
    variations = page.locator("#variations-cmd").inner_text()
    found = re.search(r'--disable-features="([^"]*)"', variations)
    assert found is not None, variations
    off = set(found.group(1).split(","))
    # Playwright's (less Edge's own, which Chromium does not know) and ours, all in effect.
    theirs = {name for name in playwright_disabled_features() if not name.startswith("ms")}
    assert "HttpsUpgrades" in theirs
    assert theirs <= off, sorted(theirs - off)
    assert set(DISABLED_FEATURES) <= off
    # No window of this browser has loaded the address bar's popup.
    targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
    assert [t["url"] for t in targets if "omnibox" in t["url"]] == []
    context.close()
