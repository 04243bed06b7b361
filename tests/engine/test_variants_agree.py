"""One definition per variant (issue 8): the engine's rule sets and the sheet's variants agree."""

from __future__ import annotations

import pytest

from scopa import variants as sheet_variants
from scopa.engine.simulate import Simulation
from scopa.engine.variants import VARIANTS
from scopa.rules import Settings


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_each_engine_variant_scores_with_its_sheet_definition(name: str) -> None:
    variant = VARIANTS[name]
    sheet = sheet_variants.get(name)
    assert variant.sheet == sheet.name
    for players in variant.players:
        settings = variant.settings_for(players)
        assert settings.variant == sheet.name
        assert settings.target == sheet.default_target
        paired = players in variant.partners_at
        assert settings == Settings.of(sheet.name).replace(
            partnerships=paired or Settings.of(sheet.name).partnerships
        )
        assert Simulation(variant, players).match().variant == sheet.name


def test_every_sheet_variant_is_played_by_the_engine() -> None:
    assert {v.sheet for v in VARIANTS.values()} == set(sheet_variants.VARIANT_NAMES)


def test_scopa_d_assi_agrees_on_napola() -> None:
    """The old disagreement (the sheet's preset said flat, the engine run) is gone."""
    assert VARIANTS["assi"].settings.napola == Settings.of("assi").napola == "run"


def test_engine_options_that_only_score_reach_the_settings() -> None:
    on = VARIANTS["assi"].with_options({"ace_sweep": "on"})
    assert on.settings.ace_sweep is True
    lps = VARIANTS["scopone"].with_options({"last_play_sweep": "on"})
    assert lps.settings_for(4).last_play_sweep is True
    assert VARIANTS["scopone"].settings_for(4).partnerships is True
