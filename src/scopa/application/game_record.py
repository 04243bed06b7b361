"""Storing a game against the computer as a regular match, through the use cases the sheet
uses (:class:`~scopa.application.matches.MatchService`)."""

from __future__ import annotations

from scopa.application.matches import MatchService
from scopa.deal import Deal
from scopa.engine.game import Game


class GameRecorder:
    """Called with each finished deal: the match is created when its first deal ends (with
    that deal), then each deal is recorded after the last one."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        self.match_id: int | None = None

    def __call__(self, game: Game, deal: Deal) -> None:
        if self.match_id is None:
            self.match_id = self.service.create(match=game.match).id
        else:
            self.service.record_deal(match_id=self.match_id, deal=deal, version=None)
