"""The JSON API under ``/api`` (docs/formats.md, "HTTP API"): the routes, their typed shapes,
the live event stream, the documentation page and ``Idempotency-Key``."""
