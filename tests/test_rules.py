"""The six house-rule settings: domains, defaults, JSON spellings, errors naming the domain."""

from __future__ import annotations

import pytest
from hypothesis import given

from scopa.errors import InvalidSettingError
from scopa.rules import SETTING_NAMES, Settings
from tests.strategies import settings


def test_defaults_are_the_rulebooks() -> None:
    assert Settings().to_dict() == {
        "target": 11,
        "primiera": True,
        "napola": "off",
        "partnerships": False,
        "last_capture_sweep": False,
        "ties": "withhold",
    }
    assert SETTING_NAMES == (
        "target",
        "primiera",
        "napola",
        "partnerships",
        "last_capture_sweep",
        "ties",
    )


def test_target_bounds_are_inclusive() -> None:
    assert Settings(target=5).target == 5
    assert Settings(target=61).target == 61


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("target", 4, "target: 4 is outside the allowed values (a whole number from 5 to 61)"),
        ("target", 62, "target: 62 is outside the allowed values (a whole number from 5 to 61)"),
        (
            "target",
            True,
            "target: true is outside the allowed values (a whole number from 5 to 61)",
        ),
        (
            "target",
            "11",
            "target: '11' is outside the allowed values (a whole number from 5 to 61)",
        ),
        ("napola", "yes", "napola: 'yes' is outside the allowed values ('off', 'flat' or 'run')"),
        ("ties", "split", "ties: 'split' is outside the allowed values ('withhold' or 'share')"),
        ("primiera", 1, "primiera: 1 is outside the allowed values (true or false (on/off))"),
        (
            "last_capture_sweep",
            "on",
            "last_capture_sweep: 'on' is outside the allowed values (true or false (on/off))",
        ),
    ],
)
def test_record_refuses_values_outside_the_domain(field: str, value: object, message: str) -> None:
    with pytest.raises(InvalidSettingError) as info:
        Settings(**{field: value})  # type: ignore[arg-type]
    assert str(info.value) == message


def test_parse_any_subset_keeps_the_rest() -> None:
    parsed = Settings.parse({"target": 21, "napola": "run"})
    assert parsed == Settings(target=21, napola="run")
    assert Settings.parse(None) == Settings()
    assert Settings.parse({}) == Settings()
    base = Settings(target=31, ties="share")
    assert Settings.parse({"primiera": False}, base=base) == Settings(
        target=31, ties="share", primiera=False
    )


def test_parse_accepts_json_spellings() -> None:
    parsed = Settings.parse(
        {"primiera": "off", "partnerships": "ON", "last_capture_sweep": "true", "target": 21.0}
    )
    assert parsed.primiera is False
    assert parsed.partnerships is True
    assert parsed.last_capture_sweep is True
    assert parsed.target == 21
    assert Settings.parse({"napola": False}).napola == "off"
    assert Settings.parse({"napola": " Run "}).napola == "run"
    assert Settings.parse({"ties": "SHARE"}).ties == "share"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"target": 3},
            "rules.target: 3 is outside the allowed values (a whole number from 5 to 61)",
        ),
        (
            {"target": 11.5},
            "rules.target: 11.5 is outside the allowed values (a whole number from 5 to 61)",
        ),
        (
            {"napola": "maybe"},
            "rules.napola: 'maybe' is outside the allowed values ('off', 'flat' or 'run')",
        ),
        (
            {"napola": True},
            "rules.napola: true is outside the allowed values ('off', 'flat' or 'run')",
        ),
        ({"ties": None}, "rules.ties: null is outside the allowed values ('withhold' or 'share')"),
        (
            {"primiera": "perhaps"},
            "rules.primiera: 'perhaps' is outside the allowed values (true or false (on/off))",
        ),
        (
            {"partnerships": 2},
            "rules.partnerships: 2 is outside the allowed values (true or false (on/off))",
        ),
        (
            {"sweeps": True},
            "rules.sweeps: unknown setting (the settings are target, primiera, napola, "
            "partnerships, last_capture_sweep, ties)",
        ),
        ([1, 2], "rules: expected an object of settings, not a list"),
        ("share", "rules: expected an object of settings, not a string"),
    ],
)
def test_parse_errors_name_the_setting_and_domain(data: object, message: str) -> None:
    with pytest.raises(InvalidSettingError) as info:
        Settings.parse(data)
    assert str(info.value) == message


@given(settings(None))
def test_settings_round_trip_through_their_dict(rules: Settings) -> None:
    assert Settings.parse(rules.to_dict()) == rules
    assert Settings(**rules.to_dict()) == rules
    assert hash(Settings(**rules.to_dict())) == hash(rules)
