"""Issue 9, finding 4 (and 8): matches created at once with the same new player names all
succeed, on both databases; a name is remembered once whatever its case or spacing."""

from __future__ import annotations

import threading

import pytest

from scopa.errors import InvalidMatchError
from scopa.formats import parse_match
from scopa.store import MatchStore


def test_concurrent_creates_with_the_same_new_names(store: MatchStore) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def create(round_: int) -> None:
        try:
            start.wait()
            for n in range(5):
                names = [f"Nuovo{round_ % 2}-{n}", f"Altro{n}"]
                store.create(match=parse_match({"players": names}))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=create, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(store.all()) == 40
    names = store.player_names()
    assert sorted(names) == sorted({*(f"Nuovo{r}-{n}" for r in (0, 1) for n in range(5)),
                                    *(f"Altro{n}" for n in range(5))})  # fmt: skip


def test_same_player_whatever_the_case_or_spacing(store: MatchStore) -> None:
    store.create(match=parse_match({"players": ["Anna", "Bruno"]}))
    store.create(match=parse_match({"players": ["anna", "Carla"]}))
    store.create(match=parse_match({"players": ["Anna ", "BRUNO"]}))
    assert sorted(store.player_names()) == ["Anna", "Bruno", "Carla"]


def test_non_ascii_names_differing_in_case_are_one_player(store: MatchStore) -> None:
    """Issue 25, finding 7: ``Zoë``, ``ZOË`` and ``zoë`` were remembered three times on
    PostgreSQL (its lower() in the C locale leaves ``Ë``); one person, one name."""
    for name in ("Zoë", "ZOË", "zoë", "Ærø", "ÆRØ"):
        store.create(match=parse_match({"players": [name, "Bruno"]}))
    assert sorted(store.player_names()) == ["Bruno", "Zoë", "Ærø"]
    for name in ("Straße", "STRASSE"):
        store.create(match=parse_match({"players": [name, "Bruno"]}))
    assert "Straße" in store.player_names()
    assert "STRASSE" not in store.player_names()
    # and one match cannot seat the one name twice (issue 49, N5: names compared folded)
    with pytest.raises(InvalidMatchError, match="'STRASSE' is listed twice"):
        parse_match({"players": ["Straße", "STRASSE"]})
