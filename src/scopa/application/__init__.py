"""The application layer: the use cases that the pages, the API and the CLI share.

It takes and returns core records, scores through the core, and keeps facts in a store
through the :class:`~scopa.store.protocol.Store` protocol. Only the edges speak HTTP, HTML,
JSON bodies or Typer.
"""

from __future__ import annotations

from scopa.application.matches import MatchService, Merged
from scopa.application.records import MatchSummary, ScoredMatch
from scopa.store.records import title_of

__all__ = ["MatchService", "MatchSummary", "Merged", "ScoredMatch", "title_of"]
