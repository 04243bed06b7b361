"""The variants of the score sheet (docs/rules.md section 9): one definition each."""

from __future__ import annotations

import pytest

from scopa import i18n, variants
from scopa.cards import CardSet
from scopa.deal import Deal, Pile
from scopa.engine.game import check_players
from scopa.errors import (
    InputError,
    InvalidDealError,
    InvalidSettingError,
    ScopaError,
    UnknownVariantError,
)
from scopa.match import Match
from scopa.rules import SETTING_NAMES, Settings


def test_the_five_variants_in_order() -> None:
    assert variants.VARIANT_NAMES == ("scopa", "scopone", "assi", "escoba", "cirulla")
    assert tuple(variants.VARIANTS) == variants.VARIANT_NAMES


@pytest.mark.parametrize(
    ("name", "target", "players", "facts"),
    [
        ("scopa", 11, (2, 3, 4, 5, 6), ()),
        ("scopone", 11, (4,), ("last_play_cleared",)),
        ("assi", 21, (2, 3, 4, 5, 6), ("ace_sweeps",)),
        ("escoba", 15, (2, 3, 4, 5, 6), ()),
        ("cirulla", 51, (2, 3, 4, 5, 6), ("declarations",)),
    ],
)
def test_each_definition(
    name: str, target: int, players: tuple[int, ...], facts: tuple[str, ...]
) -> None:
    v = variants.get(name)
    assert (v.name, v.default_target, v.players, v.deal_facts) == (name, target, players, facts)
    defaults = Settings.of(name)
    assert defaults.definition is v
    assert defaults.variant == name
    assert defaults.target == target
    assert tuple(defaults.to_dict()) == v.setting_names
    assert v.points_keys[-1] == "total"
    assert all(v.label(k) for k in v.points_keys)


def test_points_keys_per_variant() -> None:
    scopa = ("cards", "coins", "settebello", "primiera", "sweeps", "napola", "total")
    assert variants.get("scopa").points_keys == scopa
    assert variants.get("scopone").points_keys == scopa
    assert variants.get("assi").points_keys == scopa
    assert variants.get("escoba").points_keys == (
        "cards",
        "coins",
        "settebello",
        "primiera",
        "sweeps",
        "total",
    )
    assert variants.get("cirulla").points_keys == (
        "cards",
        "coins",
        "settebello",
        "primiera",
        "sweeps",
        "declarations",
        "piccola",
        "grande",
        "total",
    )


def test_escoba_labels() -> None:
    labels = variants.get("escoba").labels
    assert [labels[k] for k in ("cards", "coins", "settebello", "primiera", "sweeps")] == [
        "Cartas",
        "Oros",
        "Siete de velo",
        "Setenta",
        "Escobas",
    ]
    assert variants.get("scopa").labels["sweeps"] == "Sweeps"


def test_names_read_in_any_case_and_the_scopone_10_alias() -> None:
    assert variants.get("CIRULLA").name == "cirulla"
    assert variants.get(" Scopone-10 ").name == "scopone"


def test_unknown_variant_message() -> None:
    with pytest.raises(UnknownVariantError) as info:
        variants.get("briscola")
    assert str(info.value) == (
        "variant: 'briscola' is not a variant "
        "(the variants are scopa, scopone, assi, escoba, cirulla)"
    )
    assert isinstance(info.value, ScopaError)
    assert isinstance(info.value, ValueError)
    with pytest.raises(UnknownVariantError) as info:
        variants.get(3)
    assert str(info.value) == "variant: expected a variant's name (a string), found 3"


def test_scopa_settings_unchanged() -> None:
    assert SETTING_NAMES == (
        "target",
        "primiera",
        "napola",
        "partnerships",
        "last_capture_sweep",
        "ties",
    )
    assert Settings().to_dict() == {
        "target": 11,
        "primiera": True,
        "napola": "off",
        "partnerships": False,
        "last_capture_sweep": False,
        "ties": "withhold",
    }
    assert Settings().variant == "scopa"


def test_variant_settings_defaults() -> None:
    cirulla = Settings.of("cirulla")
    assert (
        cirulla.cirulla_points,
        cirulla.decino_points,
        cirulla.piccola_cap,
        cirulla.cappotto,
    ) == (3, 10, 6, "win")
    assert cirulla.primiera_mode == "sum"
    assert cirulla.target == 51
    assert Settings.of("cirulla", target=151).target == 151
    assert Settings.of("assi").napola == "run"
    assert not Settings.of("assi").ace_sweep
    assert Settings.of("scopone").partnerships
    assert not Settings.of("scopone").last_play_sweep


def test_a_setting_of_another_variant_is_refused() -> None:
    with pytest.raises(InvalidSettingError, match="a setting of cirulla, not of scopa"):
        Settings(piccola_cap=4)
    with pytest.raises(InvalidSettingError, match="outside the allowed values"):
        Settings(target=100)
    with pytest.raises(InvalidSettingError, match="always played in partnerships"):
        Settings(variant="scopone")


def test_match_variant_and_scopone_players() -> None:
    assert Match(("A", "B")).variant == "scopa"
    assert Match(("A", "B"), Settings.of("cirulla")).variant == "cirulla"
    with pytest.raises(Exception, match=r"players: scopone is played by 4 players \(3 given\)"):
        Match(("A", "B", "C"), Settings.of("scopone"))


def test_a_count_of_players_refused_in_each_language_with_its_own_or() -> None:
    """One sentence for the sheet's matches and the engine's games; the counts allowed are
    joined with the reader's own "or" (it was English in every language)."""
    with pytest.raises(InputError) as refused:
        check_players("cirulla", 6)
    said = {}
    for language in ("en", "it", "es"):
        with i18n.using(language):
            said[language] = refused.value.text()
    assert said == {
        "en": "cirulla is played by 2, 3 or 4 players (6 given)",
        "it": "cirulla si gioca in 2, 3 o 4 (6 indicati)",
        "es": "cirulla se juega con 2, 3 o 4 jugadores (6 indicados)",
    }
    assert refused.value.code == "game.played_players_not"
    with pytest.raises(InputError) as sheet:
        Match(("A", "B", "C"), Settings.of("scopone"))
    assert (sheet.value.code, str(sheet.value)) == (
        "match.played_players",
        "players: scopone is played by 4 players (3 given)",
    )


def test_deal_facts_fields() -> None:
    a = Pile.of_cards(CardSet.parse("Ad 2d"))
    b = Pile.of_cards(CardSet.full() - a.cards)  # type: ignore[operator]
    deal = Deal(("A", "B"), (a, b), (0, 0), "B", declarations=(("cirulla",), ("decino", "cirulla")))
    assert deal.declarations == (("cirulla",), ("decino", "cirulla"))
    plain = Deal(("A", "B"), (a, b), (0, 0), "B", declarations=((), ()), ace_sweeps=(0, 0))
    assert plain == Deal(("A", "B"), (a, b), (0, 0), "B")
    assert plain.declarations == ()
    assert plain.ace_sweeps == ()
    cleared = Deal(("A", "B"), (a, b), (0, 0), None, ace_sweeps=(1, 0), last_play_cleared="B")
    assert cleared.ace_sweeps == (1, 0)
    assert cleared.last_play_cleared == "B"
    with pytest.raises(InvalidDealError):
        Deal(("A", "B"), (a, b), (0, 0), declarations=(("tris",), ()))
    with pytest.raises(InvalidDealError):
        Deal(("A", "B"), (a, b), (0, 0), last_play_cleared="Z")


def test_escoba_s_rules_line_names_the_setenta_in_each_language() -> None:
    """An Escoba table reads its own word in the rules line ("con setenta"), never Scopa's."""
    from scopa import i18n

    said = {}
    for language in ("en", "it", "es"):
        with i18n.using(language):
            said[language] = Settings.of("escoba", primiera=language != "it").describe()
    assert "setenta on" in said["en"]
    assert "senza setenta" in said["it"]
    assert "con setenta" in said["es"]
    assert not any("primiera" in line for line in said.values())
