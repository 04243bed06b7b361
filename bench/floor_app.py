"""The floor for ``bench/hosted.py``: the project's own app (``scopa.web.create_app``, with
every middleware ``scopa serve`` puts in front of it) on a database, plus one minimal route,
``POST /bench/floor``, that inserts one row and commits. Served by uvicorn as ``scopa serve``
serves the app (``uvicorn --factory bench.floor_app:make``; the database from
``SCOPA_DATABASE_URL``), so a deal recorded on it and the floor cost the same stack."""

from __future__ import annotations

import os

from fastapi import FastAPI
from sqlalchemy import Column, Integer, MetaData, Table, insert

from scopa.store import MatchStore
from scopa.web import create_app

FLOOR = Table("bench_floor", MetaData(), Column("id", Integer, primary_key=True))


def make() -> FastAPI:
    store = MatchStore.open(os.environ["SCOPA_DATABASE_URL"])
    FLOOR.create(store.engine, checkfirst=True)
    app = create_app(store)

    def floor() -> dict[str, bool]:
        with store.engine.begin() as connection:
            connection.execute(insert(FLOOR))
        return {"ok": True}

    app.add_api_route("/bench/floor", floor, methods=["POST"])
    return app
