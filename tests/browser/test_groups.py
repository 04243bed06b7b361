"""Hosted mode in Chromium: a phone joins a group by its link, then a second group, and
switches between them on the home page; the join page and the switcher pass axe-core and
have 44 px targets. Screenshots (390 px and 1280 px) go to test-artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from tests.browser.conftest import OFFLINE, serving
from tests.browser.netcut import back_online, context_with_signal, go_offline
from tests.browser.test_sheet import PHONE
from tests.browser.test_table import SMALL_TARGETS, axe

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, MatchStore]]:
    """A hosted server on a temporary SQLite file, served by uvicorn in a thread."""
    path = tmp_path_factory.mktemp("hosted") / "hosted.db"
    store = MatchStore.open(f"sqlite:///{path}")
    with serving(create_app(store, WebSettings(hosted=True))) as url:
        yield url, store
    store.close()


def test_join_two_groups_and_switch(
    hosted: tuple[str, MatchStore], browser: Browser, artifacts: Path
) -> None:
    base, store = hosted
    _, rossi_code = store.groups.create_group("Rossi")
    _, bianchi_code = store.groups.create_group("Bianchi")
    context = browser.new_context(viewport=PHONE, has_touch=True, bypass_csp=True)
    page = context.new_page()

    page.goto(f"{base}/matches/new")  # no token yet: the way to the join page
    expect(page).to_have_url(f"{base}/join?next=%2Fmatches%2Fnew")
    page.goto(f"{base}/join?code={rossi_code}")
    expect(page.locator("#code")).to_have_value(rossi_code)
    page.screenshot(path=str(artifacts / "join-390.png"), full_page=True)
    assert axe(page) == []
    assert page.evaluate(SMALL_TARGETS) == []
    page.get_by_role("button", name="Join").click()
    expect(page.locator(".group-name")).to_contain_text("Rossi")
    cookies = {c["name"]: c for c in context.cookies()}
    assert cookies["scopa_groups"]["httpOnly"]

    page.request.post(f"{base}/api/matches", data={"players": ["Rosa", "Remo"]})
    page.reload()
    expect(page.locator(".matches")).to_contain_text("Rosa")

    page.goto(f"{base}/join")
    page.locator("#code").fill(bianchi_code.lower())
    page.get_by_role("button", name="Join").click()
    switcher = page.locator("#group-switch")
    expect(switcher).to_have_value(str(2))
    expect(page.locator("main")).not_to_contain_text("Rosa")
    assert axe(page) == []
    assert page.evaluate(SMALL_TARGETS) == []
    page.screenshot(path=str(artifacts / "groups-switch-390.png"), full_page=True)

    switcher.select_option(label="Rossi")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator(".matches")).to_contain_text("Rosa")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(artifacts / "groups-switch-1280.png"), full_page=True)
    context.close()


def test_a_wrong_code_says_so(hosted: tuple[str, MatchStore], browser: Browser) -> None:
    base, _ = hosted
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base}/join")
    page.locator("#code").fill("ZZZZ-ZZZZ-ZZZZ")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("not a group's code")
    assert context.cookies() == []
    context.close()


@OFFLINE
def test_offline_the_home_page_is_the_group_in_use(
    hosted: tuple[str, MatchStore], browser: Browser
) -> None:
    """The service worker keeps each group's home page apart: offline after a switch, the
    home page is the group now in use, never the one before (nor, unseen, another's)."""
    base, store = hosted
    _, verdi_code = store.groups.create_group("Verdi")
    _, neri_code = store.groups.create_group("Neri")
    context = context_with_signal(browser.new_context, viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{base}/join?code={verdi_code}")
    page.get_by_role("button", name="Join").click()
    page.request.post(f"{base}/api/matches", data={"players": ["Vera", "Vito"]})
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    page.reload()  # Verdi's home page, kept by the worker
    expect(page.locator(".matches")).to_contain_text("Vera")
    page.goto(f"{base}/join")
    page.locator("#code").fill(neri_code)
    page.get_by_role("button", name="Join").click()
    expect(page.locator("#group-switch")).to_contain_text("Neri")
    page.request.post(f"{base}/api/matches", data={"players": ["Nina", "Nino"]})
    page.reload()
    expect(page.locator(".matches")).to_contain_text("Nina")
    page.locator("#group-switch").select_option(label="Verdi")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator(".matches")).to_contain_text("Vera")
    page.goto(f"{base}/?player=Vera")  # Verdi's list of Vera's matches, kept
    expect(page.locator(".matches")).to_contain_text("Vera")
    go_offline(context)
    page.goto(f"{base}/")
    expect(page.locator(".matches")).to_contain_text("Vera")
    expect(page.locator("main")).not_to_contain_text("Nina")
    back_online(context)
    page.locator("#group-switch").select_option(label="Neri")
    page.get_by_role("button", name="Switch").click()
    expect(page.locator(".matches")).to_contain_text("Nina")
    go_offline(context)
    page.goto(f"{base}/?player=Vera")  # kept for Verdi only: nothing of Verdi's here
    expect(page.locator("body")).not_to_contain_text("Vito")
    context.close()
