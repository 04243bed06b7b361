"""The search player: what a seat knows, sampled deals, alpha-beta and the evaluation."""

from scopa.engine.ai.knowledge import Knowledge, observe
from scopa.engine.ai.player import LEVELS, AIOptionError, Level, SearchPlayer, parse_level

__all__ = [
    "LEVELS",
    "AIOptionError",
    "Knowledge",
    "Level",
    "SearchPlayer",
    "observe",
    "parse_level",
]
