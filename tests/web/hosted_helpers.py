"""A hosted app on a store, and groups with device tokens, for the hosted-mode tests."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi.testclient import TestClient

from scopa.store import MatchStore
from scopa.store.records import Limits


@dataclass(frozen=True)
class Joined:
    """A group and one device's token for it."""

    group: int
    name: str
    code: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def join(client: TestClient, store: MatchStore, name: str, **limits: int) -> Joined:
    """Make a group and join it through ``POST /api/join``."""
    group, code = store.groups.create_group(name, Limits(**limits))
    answer = client.post("/api/join", json={"code": code})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["group"] == group.id
    assert body["name"] == name
    return Joined(group.id, name, code, body["token"])
