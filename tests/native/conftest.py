"""The native kernel's tests need it built (scripts/build-native.py or pip install)."""

from __future__ import annotations

import pytest

from scopa import native


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if native.AVAILABLE:
        return
    skip = pytest.mark.skip(reason=native.REASON)
    for item in items:
        if "tests/native/" in str(item.fspath):
            item.add_marker(skip)
