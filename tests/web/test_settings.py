"""The server's settings are one object (issue 21): ``scopa serve``'s flags and the environment
in :class:`~scopa.web.WebSettings`, which the app and every worker are built from."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.web import WebSettings, create_app
from scopa.web.serve.settings import TABLE_PAUSE
from scopa.web.serve.workers import Plan


def test_the_environment_and_the_flags_make_one_record() -> None:
    env = {"SCOPA_DATABASE_URL": "sqlite:///from-env.db", "SCOPA_TABLE_PAUSE": "0.25"}
    settings = WebSettings.from_env(env, lan=True)
    assert settings == WebSettings(database_url="sqlite:///from-env.db", table_pause=0.25, lan=True)
    assert WebSettings.from_env(env, database_url="sqlite:///flag.db").database_url == (
        "sqlite:///flag.db"
    )
    for unreadable in ("soon", "-1", "11"):
        assert WebSettings.from_env({"SCOPA_TABLE_PAUSE": unreadable}).table_pause == TABLE_PAUSE
    assert WebSettings.from_env({}) == WebSettings()


def test_settings_that_cannot_go_together_are_refused() -> None:
    with pytest.raises(ValueError, match="not lan as well"):
        WebSettings(lan=True, hosted=True)
    with pytest.raises(ValueError, match="table_pause"):
        WebSettings(table_pause=12.0)


def test_the_app_is_built_from_the_settings(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    MatchStore.open(url).close()
    settings = WebSettings(database_url=url, table_pause=0.0, allowed_hosts=("sheet.example",))
    app = create_app(None, settings)
    with TestClient(app, base_url="http://sheet.example") as client:
        assert app.state.store.url == url  # opened from the settings, closed with the app
        assert app.state.table_pause == 0.0
        assert client.get("/api/matches").status_code == 200  # the host is allowed
    lan = create_app(MatchStore.open(url), WebSettings(lan=True))
    with TestClient(lan, base_url="http://192.168.1.5", client=("192.168.1.20", 5000)) as client:
        assert client.get("/api/matches").status_code == 401  # another device needs a code
    assert Plan(settings, "127.0.0.1", 8000).settings is settings  # what every worker gets
