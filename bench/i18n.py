"""What the languages cost: page render time in English and Italian, and the phone's first
download with and without the catalogs.

``python bench/i18n.py``: the sheet page and the deal form rendered N times each in-process
(English, then Italian), and the bytes the phone fetches for the offline sheet: the core's zip
(which holds no catalog), the phone's catalog of one language (``/offline/catalog/<lang>``,
fetched by an Italian or Spanish phone only) against what the catalogs cost when both compiled
``.mo`` files rode in the zip, plus the scripts' catalog (``static/i18n.js`` and one
``static/i18n/<lang>.json``).
"""

from __future__ import annotations

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

N = 60


def timed(client: TestClient, path: str, header: str) -> float:
    runs = []
    for _ in range(N):
        start = time.perf_counter()
        client.get(path, headers={"Accept-Language": header})
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000


def main() -> None:
    store = MatchStore.open(f"sqlite:///{tempfile.mkdtemp()}/bench.db")
    with TestClient(create_app(store)) as client:
        ident = client.post("/api/matches", json={"players": ["Anna", "Bruno"]}).json()["id"]
        for _ in range(10):
            client.post(f"/api/matches/{ident}/deals", json=anna_deal())
        for path in ("/", f"/matches/{ident}", f"/matches/{ident}/deals/new"):
            client.get(path)
            english = timed(client, path, "en")
            italian = timed(client, path, "it-IT")
            change = (italian / english - 1) * 100
            print(f"{path:28} en {english:6.2f} ms  it {italian:6.2f} ms  ({change:+.1f}%)")
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
