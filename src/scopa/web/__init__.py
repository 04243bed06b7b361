"""The web score sheet: the JSON API under ``/api`` and the pages (``scopa serve``).

The app is imported on first use, so that ``scopa score`` does not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scopa.web.app import WebSettings, create_app
else:

    def __getattr__(name: str) -> Any:
        if name in ("WebSettings", "create_app"):
            from scopa.web import app

            return getattr(app, name)
        raise AttributeError(f"module 'scopa.web' has no attribute {name!r}")


__all__ = ["WebSettings", "create_app"]
