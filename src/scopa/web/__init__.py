"""The web score sheet: the JSON API under ``/api`` and the pages (``scopa serve``)."""

from scopa.web.app import WebSettings, create_app

__all__ = ["WebSettings", "create_app"]
