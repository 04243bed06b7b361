"""``/api/docs`` in Chromium: Swagger UI, served by the app itself under its content security
policy, renders the API's operations and the shapes of their bodies."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

pytestmark = pytest.mark.browser


def test_the_docs_page_renders_the_operations(page: Page, server: str, artifacts: Path) -> None:
    problems: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(message.text)

    page.on("console", note)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "response",
        lambda response: (
            problems.append(f"{response.status} {response.url}") if response.status >= 400 else None
        ),
    )
    outside: list[str] = []
    page.on(
        "request",
        lambda request: outside.append(request.url) if not request.url.startswith(server) else None,
    )
    page.goto(f"{server}/api/docs")
    operations = page.locator(".opblock")
    expect(operations.first).to_be_visible(timeout=15_000)
    assert operations.count() >= 14
    expect(
        page.locator(".opblock-summary-path", has_text="/api/matches/{match_id}/rules")
    ).to_be_visible()
    expect(page.locator(".opblock-summary", has_text="Record a deal")).to_be_visible()

    page.locator(".opblock-summary", has_text="Record a deal").click()
    body = page.locator(".opblock.is-open .body-param__example, .opblock.is-open .microlight")
    expect(body.first).to_contain_text("last_capture", timeout=10_000)
    models = page.locator("section.models")
    expect(models).to_contain_text("DealBody")
    expect(models).to_contain_text("StoredMatch")
    page.screenshot(path=str(artifacts / "api-docs.png"), full_page=False)
    assert outside == [], "everything comes from this server"
    assert problems == [], problems
