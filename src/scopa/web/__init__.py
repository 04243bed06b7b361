"""The web score sheet (``scopa serve``), one folder per job:

- :mod:`scopa.web.api`: the JSON API under ``/api``;
- :mod:`scopa.web.pages`: the pages (HTML, each with its JSON twin);
- :mod:`scopa.web.phone`: what ships to the phone (the form reader, the device's scorer and
  game, the manifest, the service worker and the zip they run from);
- :mod:`scopa.web.access`: who may come in (the guard, the access code, hosted groups, joining);
- :mod:`scopa.web.serve`: running the server (the app factory, ``scopa serve``, the HTTP server,
  the workers);

and, shared by the routers, :mod:`scopa.web.deps` (their dependencies) and
:mod:`scopa.web.versions` (the version a change is based on).

The app is imported on first use, so that ``scopa score`` does not load the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scopa.web.serve.app import create_app
    from scopa.web.serve.settings import WebSettings
else:

    def __getattr__(name: str) -> Any:
        if name == "create_app":
            from scopa.web.serve.app import create_app

            return create_app
        if name == "WebSettings":
            from scopa.web.serve.settings import WebSettings

            return WebSettings
        raise AttributeError(f"module 'scopa.web' has no attribute {name!r}")


__all__ = ["WebSettings", "create_app"]
