"""What the languages cost: page render CPU time with and without translation, and the
phone's first download with and without the catalogs.

``python bench/i18n.py [--rounds N] [--quick]``: each page rendered in-process N times (default
40) in English (no translation: the messages as written, gettext's ``NullTranslations``), Italian
and Spanish (the catalogs), the three interleaved request by request in a rotating order, so
that a busy machine slows all three alike. Each request's cost is the process's CPU time
(``time.process_time``: the app's thread and the client's, not the time spent waiting for
the cores of a shared machine); the figures are the medians and the ratios of the medians,
Italian and Spanish over English (the target: under 1.05). Then the bytes the phone fetches
for the offline sheet: the core's zip (which holds no catalog), the phone's catalog of one
language (``/offline/catalog/<lang>``, fetched by an Italian or Spanish phone only) against
what the catalogs cost when both compiled ``.mo`` files rode in the zip, plus the scripts'
catalog (``static/i18n.js`` and one ``static/i18n/<lang>.json``).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scopa.store import MatchStore  # noqa: E402
from scopa.web import create_app  # noqa: E402
from scopa.web.phone.offline import core_zip, phone_catalog  # noqa: E402
from tests.web.bodies import anna_deal  # noqa: E402

ROUNDS = 40
LANGUAGES = (("en", "en"), ("it", "it-IT"), ("es", "es-ES"))


def interleaved(client: TestClient, path: str, rounds: int) -> dict[str, list[float]]:
    """Each language's CPU time of one request of ``path`` per round, in ms (``wall:xx``: the
    wall-clock time)."""
    times: dict[str, list[float]] = {}
    for k in range(rounds):
        order = LANGUAGES[k % 3 :] + LANGUAGES[: k % 3]  # who goes first rotates
        for code, header in order:
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            response = client.get(path, headers={"Accept-Language": header})
            times.setdefault(code, []).append((time.process_time() - start_cpu) * 1000)
            times.setdefault(f"wall:{code}", []).append((time.perf_counter() - start_wall) * 1000)
            assert response.status_code == 200, (path, response.status_code)
    return times


def paired(times: dict[str, list[float]], code: str) -> tuple[float, float, float]:
    """The median of the round-by-round ratios of ``code``'s CPU time over English's (the two
    requests of a round ran side by side, under the same load), and its quartiles."""
    ratios = [mine / base for mine, base in zip(times[code], times["en"], strict=True) if base]
    low, middle, high = statistics.quantiles(ratios, n=4)
    return middle, low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="renders of each page")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few seconds: every step on a little, no target judged (the suite runs it)",
    )
    args = parser.parse_args()
    rounds = 3 if args.quick else args.rounds
    store = MatchStore.open(f"sqlite:///{tempfile.mkdtemp()}/bench.db")
    with TestClient(create_app(store)) as client:
        ident = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
        for _ in range(10):
            client.post(f"/api/matches/{ident}/deals", json=anna_deal())
        pages = (
            "/",
            f"/matches/{ident}",
            f"/matches/{ident}/deals/new",
            f"/matches/{ident}/deals/new?mode=cards",
            f"/matches/{ident}/deals/3",
            "/players",
            "/play",
            "/help",
        )
        print(f"page render: CPU ms per request, median of {rounds} interleaved (wall ms);")
        print("it/en, es/en: the median of the round-by-round CPU ratios [quartiles]")
        print(f"{'':32} {'en':>13} {'it':>13} {'es':>13}  {'it/en':>19}  {'es/en':>19}")
        worst = 0.0
        for path in pages:
            for _code, header in LANGUAGES:  # warm: the templates and the catalogs loaded
                client.get(path, headers={"Accept-Language": header})
            times = interleaved(client, path, rounds)
            cells = " ".join(
                f"{statistics.median(times[c]):5.2f} ({statistics.median(times['wall:' + c]):5.1f})"
                for c, _ in LANGUAGES
            )
            said = []
            for code in ("it", "es"):
                middle, low, high = paired(times, code)
                worst = max(worst, middle)
                said.append(f"{middle:.3f} [{low:.2f}-{high:.2f}]")
            print(f"{path[:32]:32} {cells}  {said[0]:>19}  {said[1]:>19}")
        print(f"the slowest translated page: {worst:.3f} of its English CPU time (target < 1.05)")
    store.close()
    core = core_zip()
    before = io.BytesIO()  # how it was: both compiled .mo files in the zip
    with zipfile.ZipFile(io.BytesIO(core)) as source, zipfile.ZipFile(before, "w") as target:
        for info in source.infolist():
            target.writestr(info, source.read(info), zipfile.ZIP_DEFLATED)
        for mo in sorted((ROOT / "src" / "scopa" / "locale").glob("*/LC_MESSAGES/scopa.mo")):
            target.writestr(
                str(mo.relative_to(ROOT / "src")), mo.read_bytes(), zipfile.ZIP_DEFLATED
            )
    old = (len(before.getvalue()) / len(core) - 1) * 100
    inside = len(before.getvalue())
    print(f"core.zip {len(core)} B; with both .mo inside (before) {inside} B ({old:+.1f}%)")
    for language in ("it", "es"):
        size = len(phone_catalog(language))
        share = size / len(core) * 100
        print(f"an {language} phone also fetches its catalog: {size} B (+{share:.1f}%)")
    static = ROOT / "src" / "scopa" / "web" / "static"
    scripts = (static / "i18n.js").stat().st_size + (static / "i18n" / "it.json").stat().st_size
    print(f"the scripts' catalog: i18n.js + it.json {scripts} B (uncompressed)")


if __name__ == "__main__":
    main()
