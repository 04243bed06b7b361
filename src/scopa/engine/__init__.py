"""The rules engine: deal, legal plays, apply, variants, players and simulation.

>>> from scopa.engine import VARIANTS, deal, legal_plays, apply
>>> state = deal(VARIANTS["scopa"], 2, seed=3)
>>> state = apply(state, legal_plays(state)[0])
>>> len(state.history), state.cards_in_play()
(1, 40)
"""

from scopa.engine.captures import Rules, rules_for
from scopa.engine.state import (
    Play,
    State,
    apply,
    deal,
    legal_plays,
    replay,
    seat_names,
    to_deal,
)
from scopa.engine.variants import VARIANTS, Variant, get_variant
from scopa.errors import UnknownVariantError

__all__ = [
    "VARIANTS",
    "Play",
    "Rules",
    "State",
    "UnknownVariantError",
    "Variant",
    "apply",
    "deal",
    "get_variant",
    "legal_plays",
    "replay",
    "rules_for",
    "seat_names",
    "to_deal",
]
