"""Types of the C extension (see _kernel.c)."""

from collections.abc import Mapping
from typing import Any

Outcome = tuple[Any, ...]
"""(hands, table, stock, piles, sweeps, last_capturer, leftovers_to, turn, history, redeals,
dealer, generator state, ace_sweeps, last_play_cleared, declarations (1 cirulla, 2 decino))"""

Sums = tuple[int, int, tuple[tuple[int, ...], ...], int, int, int, tuple[int, ...], int]
"""(deals, redeals, points per side and field, sweeps, leader_points, other_points, wins per
side, ties)"""

class KernelError(RuntimeError): ...

class Rules:
    def __init__(
        self,
        fifteen: int,
        fewest: int,
        ace_takes_all: int,
        ace_sweep: int,
        optional: int,
        dealer_sweeps: int,
        last_play_sweep: int,
        last_apart: int,
        kings_redeal: int,
        hand_size: int,
        table_size: int,
        packets: tuple[int, ...],
        cirulla: int,
        low_table: int,
        aces_redeal: int,
        matta_declared: int,
        cirulla_points: int,
        decino_points: int,
        /,
    ) -> None: ...
    def plays(self, hand: int, table: int, /) -> list[tuple[int, int]]: ...
    def deal(
        self,
        players: int,
        dealer: int,
        seed: tuple[int, ...] | None = ...,
        state: tuple[tuple[int, ...], int] | None = ...,
        keep_state: bool = ...,
    ) -> Outcome: ...
    def play(
        self,
        players: int,
        dealer: int,
        strategies: tuple[int, ...],
        seed: tuple[int, ...] | None = ...,
        state: tuple[tuple[int, ...], int] | None = ...,
        history: bool = ...,
        keep_state: bool = ...,
    ) -> Outcome: ...
    def playout(
        self,
        hands: tuple[int, ...],
        table: int,
        stock: tuple[int, ...],
        piles: tuple[int, ...],
        sweeps: tuple[int, ...],
        turn: int,
        last: int | None,
        dealer: int,
        strategies: tuple[int, ...],
        ace_sweeps: tuple[int, ...],
        cleared: int | None,
        seed: tuple[int, ...] | None = ...,
        state: tuple[tuple[int, ...], int] | None = ...,
        history: bool = ...,
        keep_state: bool = ...,
        shown: int = ...,
        matta_as: int = ...,
    ) -> Outcome: ...
    def rollouts(
        self,
        hands: tuple[int, ...],
        table: int,
        stock: tuple[int, ...],
        piles: tuple[int, ...],
        sweeps: tuple[int, ...],
        turn: int,
        last: int | None,
        dealer: int,
        strategies: tuple[int, ...],
        ace_sweeps: tuple[int, ...],
        cleared: int | None,
        prefix: tuple[int, ...],
        count: int,
        team_of: tuple[int, ...],
        sides: int,
        shown: int = ...,
        matta_as: int = ...,
    ) -> dict[tuple[tuple[int, ...], int], int]: ...
    def run_deals(
        self,
        players: int,
        prefix: tuple[int, ...],
        start: int,
        count: int,
        strategies: tuple[int, ...],
        team_of: tuple[int, ...],
        sides: int,
        table: Mapping[int, tuple[int, ...]],
        fields: tuple[int, ...],
        /,
    ) -> Sums: ...

def set_scoring(
    coin_bits: tuple[int, ...],
    best_primiera: tuple[int, ...],
    best_rank: tuple[int, ...],
    primiera_values: tuple[int, ...],
    constants: tuple[int, ...],
    /,
) -> None: ...
