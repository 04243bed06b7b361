"""The search player: what a seat knows, sampled deals, alpha-beta and the evaluation."""

from scopa.engine.ai.knowledge import Knowledge, observe
from scopa.engine.ai.levels import LEVELS, PHONE_LEVELS, AIOptionError, Level, parse_level
from scopa.engine.ai.player import SearchPlayer

__all__ = [
    "LEVELS",
    "PHONE_LEVELS",
    "AIOptionError",
    "Knowledge",
    "Level",
    "SearchPlayer",
    "observe",
    "parse_level",
]
