"""`scopa serve --hosted`: groups, joining, device tokens, the group switcher, abuse limits
(docs/formats.md, "Hosted mode"), on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from scopa.store import MatchStore
from scopa.store.models import JoinFailureRow
from scopa.web import WebSettings, create_app
from scopa.web.access.hosted import COOKIE
from tests.web.conftest import anna_deal
from tests.web.hosted_helpers import join

MATCH = {"players": ["Anna", "Bruno"]}


@pytest.fixture
def hosted(store: MatchStore) -> Iterator[TestClient]:
    with TestClient(create_app(store, WebSettings(hosted=True)), follow_redirects=False) as client:
        yield client


def test_join_answers_a_token_for_the_group(hosted: TestClient, store: MatchStore) -> None:
    group, code = store.groups.create_group("The Rossis")
    answer = hosted.post("/api/join", json={"code": code.lower().replace("-", " ")})
    assert answer.status_code == 201
    body = answer.json()
    assert set(body) == {"token", "group", "name"}
    assert body["group"] == group.id
    assert body["name"] == "The Rossis"
    assert len(body["token"]) >= 40
    headers = {"Authorization": f"Bearer {body['token']}"}
    assert hosted.get("/api/matches", headers=headers).json() == []


def test_every_api_route_needs_a_valid_token(hosted: TestClient, store: MatchStore) -> None:
    rossi = join(hosted, store, "Rossi")
    for method, path in [
        ("GET", "/api/matches"),
        ("POST", "/api/matches"),
        ("GET", "/api/players"),
        ("POST", "/api/import"),
        ("GET", "/api/openapi.json"),
        ("GET", "/api/docs"),
    ]:
        for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic eDp5"}]:
            answer = hosted.request(method, path, headers=headers, json=MATCH)
            assert answer.status_code == 401, (method, path, headers)
            assert set(answer.json()) == {"error", "where", "code"}
            assert answer.headers["www-authenticate"].startswith("Bearer")
    assert hosted.get("/api/matches", headers=rossi.auth).status_code == 200
    assert store.in_group(rossi.group).lines()[0] == []
    schema = hosted.get("/api/openapi.json", headers=rossi.auth).json()
    assert schema["components"]["securitySchemes"]["device"]["scheme"] == "bearer"
    assert schema["paths"]["/api/matches"]["get"]["security"] == [{"device": []}]
    assert "security" not in schema["paths"]["/api/join"]["post"]


def test_wrong_or_revoked_code_is_401_where_code(hosted: TestClient, store: MatchStore) -> None:
    group, code = store.groups.create_group("Club")
    wrong = hosted.post("/api/join", json={"code": "ABCD-EFGH-JKLM"})
    assert wrong.status_code == 401
    assert wrong.json()["where"] == "code"
    store.groups.revoke_group(group.id)
    revoked = hosted.post("/api/join", json={"code": code})
    assert revoked.status_code == 401
    assert revoked.json()["where"] == "code"
    bad = hosted.post("/api/join", json={"code": 12})
    assert bad.status_code == 422
    assert bad.json()["where"] == "code"
    assert hosted.post("/api/join", content=b"{").status_code == 422


def test_too_many_wrong_codes_is_429_counted_without_a_write(
    hosted: TestClient, store: MatchStore
) -> None:
    _, code = store.groups.create_group("Club")
    before = failure_rows(store)
    for _ in range(5):
        assert hosted.post("/api/join", json={"code": "AAAA-BBBB-CCCC"}).status_code == 401
    blocked = hosted.post("/api/join", json={"code": code})  # even the right code, for now
    assert blocked.status_code == 429
    assert 1 <= int(blocked.headers["retry-after"]) <= 60
    assert blocked.json()["where"] == "code"
    page = hosted.post("/join", data={"code": code})
    assert page.status_code == 429
    assert "Too many wrong codes" in page.text
    # counted in the process's memory: the database's write lock is never taken for it
    assert failure_rows(store) == before
    # another address is not blocked
    app = create_app(store, WebSettings(hosted=True))
    with TestClient(app, base_url="http://127.0.0.1", client=("10.0.0.9", 4000)) as fresh:
        assert fresh.post("/api/join", json={"code": code}).status_code == 201


def failure_rows(store: MatchStore) -> int:
    with store.db.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(JoinFailureRow)) or 0)


def test_a_revoked_token_or_group_shuts_the_device_out(
    hosted: TestClient, store: MatchStore
) -> None:
    one = join(hosted, store, "One")
    second = hosted.post("/api/join", json={"code": one.code}).json()["token"]
    other = join(hosted, store, "Other")
    devices = store.groups.group_devices(one.group)
    assert len(devices) == 2
    assert all(group == one.group for _, group in devices)
    newest = devices[0][0]
    assert store.groups.revoke_group_device(newest.id)
    store.groups.forget()
    assert (
        hosted.get("/api/matches", headers={"Authorization": f"Bearer {second}"}).status_code == 401
    )
    assert hosted.get("/api/matches", headers=one.auth).status_code == 200
    store.groups.revoke_group(one.group)
    assert hosted.get("/api/matches", headers=one.auth).status_code == 401
    assert hosted.get("/api/matches", headers=other.auth).status_code == 200


def test_the_join_page_sets_the_cookie_and_switches_groups(
    hosted: TestClient, store: MatchStore
) -> None:
    rossi_group, rossi_code = store.groups.create_group("Rossi")
    _, bianchi_code = store.groups.create_group("Bianchi")
    first = hosted.get("/")
    assert first.status_code == 303
    assert first.headers["location"] == "/join"
    assert hosted.get("/matches/1").headers["location"] == "/join?next=%2Fmatches%2F1"
    page = hosted.get(f"/join?code={rossi_code}")
    assert page.status_code == 200
    assert f'value="{rossi_code}"' in page.text  # filled in, the person presses Join
    joined = hosted.post("/join", data={"code": rossi_code})
    assert joined.status_code == 303
    cookie = joined.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    created = hosted.post("/api/matches", json={"players": ["Rosa", "Remo"]})  # the cookie
    assert created.status_code == 201
    home = hosted.get("/")
    assert "Rosa" in home.text
    assert "Group: <strong>Rossi</strong>" in home.text

    assert hosted.post("/join", data={"code": bianchi_code}).status_code == 303
    home = hosted.get("/")
    assert "Rosa" not in home.text  # now in Bianchi, which has no match
    options = re.findall(r'<option value="(\d+)"( selected)?>([^<]+)</option>', home.text)
    assert [(name, bool(sel)) for _, sel, name in options] == [
        ("Bianchi", True),
        ("Rossi", False),
    ]
    switched = hosted.post("/groups/switch", data={"group": str(rossi_group.id)})
    assert switched.status_code == 303
    assert "Rosa" in hosted.get("/").text
    assert hosted.get(f"/api/matches/{created.json()['id']}").status_code == 200

    left = hosted.post("/groups/leave")  # leaves Rossi: its token is revoked
    assert left.status_code == 303
    assert "Rosa" not in hosted.get("/").text
    assert [d.active for d, _ in store.groups.group_devices(rossi_group.id)] == [False]


def test_a_wrong_code_on_the_join_page(hosted: TestClient, store: MatchStore) -> None:
    store.groups.create_group("Rossi")
    page = hosted.post("/join", data={"code": "ZZZZ-ZZZZ-ZZZZ"})
    assert page.status_code == 401
    assert "not a group&#39;s code" in page.text
    assert "set-cookie" not in page.headers


def test_what_a_group_creates_is_its_own(hosted: TestClient, store: MatchStore) -> None:
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    mine = hosted.post("/api/matches", json={"players": ["Rosa", "Remo"]}, headers=rossi.auth)
    theirs = hosted.post("/api/import", json={"players": ["Bice", "Bruno"]}, headers=bianchi.auth)
    assert mine.status_code == theirs.status_code == 201
    listed = hosted.get("/api/matches", headers=rossi.auth).json()
    assert [m["id"] for m in listed] == [mine.json()["id"]]
    assert names_of(hosted, rossi) == ["Remo", "Rosa"]
    assert names_of(hosted, bianchi) == ["Bice", "Bruno"]
    assert store.lines()[0] == []  # the one table of a server not hosted holds none of them
    assert store.player_names() == []


def test_the_same_name_is_remembered_once_per_group(hosted: TestClient, store: MatchStore) -> None:
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    for who in (rossi, bianchi, rossi):
        made = hosted.post("/api/matches", json={"players": ["anna", "Bruno"]}, headers=who.auth)
        assert made.status_code == 201
    assert names_of(hosted, rossi) == ["Bruno", "anna"]
    assert names_of(hosted, bianchi) == ["Bruno", "anna"]


def names_of(hosted: TestClient, member: Any) -> list[str]:
    """The names of the players the group's figures list, sorted."""
    return sorted(p["name"] for p in hosted.get("/api/players", headers=member.auth).json())


def test_idempotency_keys_are_per_group(hosted: TestClient, store: MatchStore) -> None:
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    key = {"Idempotency-Key": "same-key"}
    first = hosted.post("/api/matches", json=MATCH, headers={**rossi.auth, **key})
    again = hosted.post("/api/matches", json=MATCH, headers={**rossi.auth, **key})
    other = hosted.post("/api/matches", json=MATCH, headers={**bianchi.auth, **key})
    assert first.status_code == again.status_code == other.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert "idempotent-replayed" not in other.headers
    assert other.json()["id"] != first.json()["id"]
    assert len(hosted.get("/api/matches", headers=bianchi.auth).json()) == 1


def test_quota_of_matches(hosted: TestClient, store: MatchStore) -> None:
    small = join(hosted, store, "Small", max_matches=2)
    for _ in range(2):
        assert hosted.post("/api/matches", json=MATCH, headers=small.auth).status_code == 201
    refused = hosted.post("/api/matches", json=MATCH, headers=small.auth)
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "this group has reached its limit of 2 matches; delete finished matches or "
        "ask the server's operator to raise the limit",
        "where": "quota.matches",
        "code": "quota.group_reached_limit_matches",
    }
    assert hosted.post("/api/import", json=MATCH, headers=small.auth).status_code == 403
    assert len(hosted.get("/api/matches", headers=small.auth).json()) == 2
    first = hosted.get("/api/matches", headers=small.auth).json()[-1]["id"]
    assert hosted.delete(f"/api/matches/{first}", headers=small.auth).status_code == 200
    assert hosted.post("/api/matches", json=MATCH, headers=small.auth).status_code == 201


def test_quota_of_deals_changes_nothing(hosted: TestClient, store: MatchStore) -> None:
    small = join(hosted, store, "Small", max_deals=2)
    made = hosted.post("/api/matches", json=MATCH, headers=small.auth).json()
    path = f"/api/matches/{made['id']}/deals"
    assert hosted.post(path, json=anna_deal(), headers=small.auth).status_code == 201
    assert hosted.post(path, json=anna_deal(), headers=small.auth).status_code == 201
    before = hosted.get(f"/api/matches/{made['id']}", headers=small.auth).json()
    history = hosted.get(f"/api/matches/{made['id']}/history", headers=small.auth).json()
    refused = hosted.post(path, json=anna_deal(), headers=small.auth)
    assert refused.status_code == 403
    assert refused.json()["where"] == "quota.deals"
    assert "limit of 2 deals" in refused.json()["error"]
    assert hosted.get(f"/api/matches/{made['id']}", headers=small.auth).json() == before
    assert hosted.get(f"/api/matches/{made['id']}/history", headers=small.auth).json() == history
    group = store.groups.group(small.group)
    assert group is not None
    assert (group.used_matches, group.used_deals) == (1, 2)
    # a match file with more deals than room: refused whole
    refused = hosted.post("/api/import", json={**MATCH, "deals": [anna_deal()]}, headers=small.auth)
    assert refused.status_code == 403
    assert len(hosted.get("/api/matches", headers=small.auth).json()) == 1


def test_quota_of_bytes(hosted: TestClient, store: MatchStore) -> None:
    small = join(hosted, store, "Small", max_bytes=3000)
    made = hosted.post("/api/matches", json=MATCH, headers=small.auth)
    assert made.status_code == 201
    path = f"/api/matches/{made.json()['id']}/deals"
    statuses = [
        hosted.post(path, json=anna_deal(), headers=small.auth).status_code for _ in range(9)
    ]
    assert statuses[0] == 201
    assert statuses[-1] == 403
    refused = hosted.post(path, json=anna_deal(), headers=small.auth).json()
    assert refused["where"] == "quota.bytes"
    assert "limit of 3000 bytes" in refused["error"]
    group = store.groups.group(small.group)
    assert group is not None
    assert 0 < group.used_bytes <= 3000
    stored = hosted.get(f"/api/matches/{made.json()['id']}", headers=small.auth).json()
    assert len(stored["match"]["deals"]) == statuses.count(201)
    assert group.used_deals == statuses.count(201)


def test_quota_on_the_pages_is_a_clear_page(hosted: TestClient, store: MatchStore) -> None:
    small = join(hosted, store, "Small", max_matches=0)
    form = {"player": ["Anna", "Bruno"], "target": "11", "napola": "off", "ties": "withhold"}
    page = hosted.post("/matches/new", data=form, headers=small.auth)
    assert page.status_code == 403
    assert "limit of 0 matches" in page.text


def test_without_hosted_nothing_changes(client: TestClient, store: MatchStore) -> None:
    assert client.get("/api/matches").status_code == 200
    assert client.post("/api/join", json={"code": "x"}).status_code in (404, 405)
    assert client.get("/join").status_code == 404
    made = client.post("/api/matches", json=MATCH)
    assert made.status_code == 201
    group, _ = store.groups.create_group("Rossi")
    theirs = store.in_group(group.id).create(match=store.get(made.json()["id"]).match)
    listed = [m["id"] for m in client.get("/api/matches").json()]
    assert listed == [made.json()["id"]]  # the one table: no group's match
    assert client.get(f"/api/matches/{theirs.id}").status_code == 404


def test_every_answer_to_a_member_names_its_group(hosted: TestClient, store: MatchStore) -> None:
    """The service worker keeps each group's pages apart by this header."""
    rossi, bianchi = join(hosted, store, "Rossi"), join(hosted, store, "Bianchi")
    for joined in (rossi, bianchi):
        for path in ("/", "/api/matches"):
            answer = hosted.get(path, headers=joined.auth)
            assert answer.status_code == 200
            assert answer.headers["x-scopa-group"] == str(joined.group)
    cookie = {"Cookie": f"{COOKIE}={bianchi.token}.{rossi.token}"}
    assert hosted.get("/", headers=cookie).headers["x-scopa-group"] == str(bianchi.group)
    stranger = hosted.get("/api/matches")
    assert stranger.status_code == 401
    assert "x-scopa-group" not in stranger.headers


def test_refusals_keep_their_code_and_speak_the_reader_s_language(
    hosted: TestClient, store: MatchStore
) -> None:
    """A refusal's `code` and `where` are the same in every language, its `error` the
    reader's (Accept-Language or ?lang=); the pages say it too."""
    store.groups.create_group("Rossi")
    asked: dict[str, Callable[[dict[str, str]], Any]] = {
        "access.token_needed": lambda h: hosted.get("/api/matches", headers=h),
        "access.token_invalid": lambda h: hosted.get(
            "/api/matches", headers={**h, "Authorization": "Bearer nope"}
        ),
        "join.wrong_code": lambda h: hosted.post(
            "/api/join", json={"code": "ZZZZ-ZZZZ-ZZZZ"}, headers=h
        ),
        "join.code_expected": lambda h: hosted.post("/api/join", json={"code": 1}, headers=h),
        "request.cross_site": lambda h: hosted.post(
            "/api/join", json={}, headers={**h, "Origin": "https://evil.example"}
        ),
    }
    for code, ask in asked.items():
        answers = {
            language: ask({"Accept-Language": header}).json()
            for language, header in (("en", "en"), ("it", "it-IT,it;q=0.9"), ("es", "es-ES"))
        }
        assert {a["code"] for a in answers.values()} == {code}, code
        assert len({a["where"] for a in answers.values()}) == 1, code
        assert len({a["error"] for a in answers.values()}) == 3, (code, answers)
    wrong = hosted.post("/api/join", json={"code": "ZZZZ-ZZZZ-ZZZZ"}).json()
    assert wrong["error"].startswith("that code is not a group's code")  # the English stays
    page = hosted.post("/join?lang=it", data={"code": "ZZZZ-ZZZZ-ZZZZ"})
    assert page.status_code == 401
    assert "Quel codice non è di nessun gruppo" in page.text
    hosted.cookies.clear()
    first = hosted.post("/matches", headers={"Accept-Language": "es"})
    assert first.status_code == 401
    assert '<html lang="es"' in first.text
    assert "Primero únete a un grupo" in first.text


def test_a_groups_language_unless_the_reader_chose_one(
    hosted: TestClient, store: MatchStore
) -> None:
    """Issue 22: a group's language is spoken to a reader who chose none, over their
    browser's Accept-Language; `?lang=` and the menu's cookie still win (docs/formats.md,
    "Languages")."""
    italian = join(hosted, store, "Rossi")
    plain = join(hosted, store, "Smith")
    store.groups.set_settings(italian.group, {"language": "it"})

    def said(member: Any, **asked: Any) -> tuple[str, str]:
        answer = hosted.get("/api/matches/999", headers={**member.auth, **asked})
        assert answer.status_code == 404
        assert (
            answer.json()["code"]
            == hosted.get("/api/matches/999", headers=plain.auth).json()["code"]
        )
        return answer.headers["x-scopa-group"], answer.json()["error"]

    english = said(plain)[1]
    spanish = said(plain, **{"Accept-Language": "es-ES"})[1]
    assert english.startswith("no match with id 999")
    in_italian = said(italian)[1]
    assert len({english, spanish, in_italian}) == 3
    assert said(italian, **{"Accept-Language": "es-ES,es;q=0.9"})[1] == in_italian
    hosted.cookies.set("lang", "es")
    assert said(italian)[1] == spanish  # the menu's choice, remembered on the device
    hosted.cookies.delete("lang")
    asked = hosted.get("/api/matches/999", params={"lang": "en"}, headers=italian.auth)
    assert asked.json()["error"] == english
    page = hosted.get("/", headers=italian.auth)
    assert '<html lang="it"' in page.text
    page = hosted.get("/", headers={**plain.auth, "Accept-Language": "es"})
    assert '<html lang="es"' in page.text
    page = hosted.get("/", headers={**italian.auth, "Cookie": "lang=en"})
    assert '<html lang="en"' in page.text
    store.groups.set_settings(italian.group, {"language": None})
    assert said(italian)[1] == english  # back to the browser's: none sent, English
