"""The Gymnasium ids: ``scopa/<variant>-v0`` for each variant the engine deals (``scopa/scopa-v0``,
``scopa/scopone-v0``, ``scopa/cirulla-v0``...), made by :class:`scopa.envs.single.ScopaEnv` at
the variant's own first player count; :func:`gymnasium.make` passes its keyword arguments on
(``players``, ``opponents``, ``seat``, ``reward``, ``render_mode``).

Importing this module registers them (so does making an environment with
:func:`scopa.envs.gymnasium_env`); ``gymnasium.make("scopa.envs.register:scopa/scopone-v0")``
imports it itself.
"""

from __future__ import annotations

import gymnasium

from scopa.engine.variants import VARIANTS

NAMESPACE = "scopa"
VERSION = 0


def env_id(variant: str) -> str:
    """The Gymnasium id of ``variant``.

    >>> env_id("scopone-10")
    'scopa/scopone-10-v0'
    """
    return f"{NAMESPACE}/{variant}-v{VERSION}"


def register() -> list[str]:
    """Register every variant's id (again: the same spec); returns the ids."""
    ids = []
    for name in VARIANTS:
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(
                id=ident, entry_point="scopa.envs.single:ScopaEnv", kwargs={"variant": name}
            )
        ids.append(ident)
    return ids


IDS = register()
