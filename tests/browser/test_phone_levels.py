"""The phone's levels in Chromium: the Play page's worker (Pyodide, the kernel's WebAssembly
build) plays ``normal`` and ``strong`` for their numbers of iterations
(``scopa.engine.ai.levels.PHONE_LEVELS``), and every computer play it makes is the one the C
extension makes at the same budgets from the same game: the phone's level table, measured on
the C extension (docs/ai.md), is the phone's own."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from scopa.engine.game import Game
from scopa.web.phone.offline import KERNEL_WASM
from tests.test_imports import PACKAGE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not (PACKAGE / KERNEL_WASM).is_file(), reason="kernel.wasm is not built"),
]

PLAY = """async ([level, seed, most]) => {
  const call = (op, payload) => window.scopa.playEngine.call(op, payload);
  const engine = await call("engine", null);
  let answer = await call("start", { variant: "scopa", players: 2, level, seed });
  let computer = 0;
  while (!answer.state.deal_over && computer < most) {
    const s = answer.state;
    if (s.your_turn) {
      answer = await call("play", { game: answer.game, step: s.step, ...s.legal[0] });
    } else {
      answer = await call("computer", { game: answer.game, step: s.step });
      computer += 1;
    }
    if (answer.error) { throw new Error(answer.error); }
  }
  return { engine, game: answer.game, computer };
}"""


def played_in_chromium(page: Page, level: str, seed: int, most: int) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate(PLAY, [level, seed, most])
    return answer


@pytest.mark.slow  # the worker's first start, then a deal and a few strong moves in it
def test_the_phone_plays_its_levels_as_the_c_extension_does(server: str, page: Page) -> None:
    page.goto(f"{server}/play")
    cases = [("normal", 21, 99), ("strong", 22, 3)]  # a whole deal; three strong moves
    for level, seed, most in cases:
        answer = played_in_chromium(page, level, seed, most)
        assert answer["engine"]["build"] == "webassembly", answer["engine"]
        game = answer["game"]
        assert answer["computer"] == min(most, 18)  # a 2-player deal: 18 plays a seat
        log = [[(card, capture) for card, capture in deal] for deal in game["log"]]
        replayed = Game.other_computer_play("scopa", 2, level, int(game["seed"]), log, phone=True)
        assert replayed is None, f"{level}: the C extension plays otherwise at step {replayed}"
