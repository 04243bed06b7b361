"""Research interfaces: the engine as a PettingZoo and a Gymnasium environment.

Both need the ``rl`` extra (``pip install scopa[rl]``: pettingzoo, gymnasium, numpy); the
core install never imports them. ``players=None`` (the default) deals the variant's own first
player count (2 in Scopa, 4 in Scopone). :mod:`scopa.envs.register` registers the Gymnasium
ids ``scopa/<variant>-v0``. See ``docs/research.md``.

>>> import scopa.envs  # always importable; the frameworks load when an env is made
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scopa.errors import ScopaError
from scopa.i18n import N_


class MissingExtraError(ScopaError, ImportError):
    """The ``rl`` extra is not installed."""


def _need(module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(
            N_("{module} is not installed: the environments need pip install 'scopa[rl]'"),
            code="extra.not_installed_environments_need",
            module=module,
        )


def pettingzoo_env(
    variant: str = "scopa", players: int | None = None, reward: str = "points", **kwargs: Any
) -> Any:
    """A PettingZoo AEC environment with every seat an agent (:class:`ScopaAEC`)."""
    _need("pettingzoo")
    from scopa.envs.aec import ScopaAEC

    return ScopaAEC(variant=variant, players=players, reward=reward, **kwargs)


def gymnasium_env(
    variant: str = "scopa",
    players: int | None = None,
    opponents: str | Sequence[str] = "random",
    seat: int = 0,
    reward: str = "points",
    **kwargs: Any,
) -> Any:
    """A Gymnasium environment for one seat, the others played by ``opponents``."""
    _need("gymnasium")
    from scopa.envs.single import ScopaEnv

    return ScopaEnv(
        variant=variant, players=players, opponents=opponents, seat=seat, reward=reward, **kwargs
    )
