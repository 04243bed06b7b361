"""What the store's tests share: the example matches, and Alembic on a connection (to
migrate a database step by step, as an older install left it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic.config import Config
from sqlalchemy import Connection

from scopa.formats import parse_match
from scopa.match import Match

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"


def example(name: str) -> Match:
    return parse_match(json.loads((EXAMPLES / name).read_text()))


@pytest.fixture
def two() -> Match:
    return example("two-players.json")


def alembic_on(connection: Connection) -> Config:
    """Alembic's configuration of the project's migrations, run on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(ROOT / "src/scopa/store/migrations"))
    config.attributes["connection"] = connection
    return config
