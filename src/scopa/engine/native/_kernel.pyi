"""Types of the C extension (see _kernel.c)."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NewType, TypeAlias

Outcome = tuple[Any, ...]
"""(hands, table, stock, piles, sweeps, last_capturer, leftovers_to, turn, history, redeals,
dealer, generator state, ace_sweeps, last_play_cleared, declarations (1 cirulla, 2 decino))"""

Sums = tuple[int, int, tuple[tuple[int, ...], ...], int, int, int, tuple[int, ...], int]
"""(deals, redeals, points per side and field, sweeps, leader_points, other_points, wins per
side, ties)"""

Position: TypeAlias = tuple[
    tuple[int, ...],  # hands: a card mask per seat
    int,  # table
    tuple[int, ...],  # stock: card numbers, next drawn first
    tuple[int, ...],  # piles: a card mask per seat
    tuple[int, ...],  # sweeps per seat
    int,  # turn
    int | None,  # last: the last seat to capture
    int,  # dealer
    tuple[int, ...],  # strategies: a code per seat
    tuple[int, ...],  # ace_sweeps per seat (or none)
    int | None,  # cleared: the seat whose play last cleared the table
]
"""A deal in progress, as playout() and rollouts() take it first (a State's fields)."""

class KernelError(RuntimeError): ...

Tree = NewType("Tree", object)
"""One search tree (a capsule), for tree_run, tree_sample and tree_stats."""

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
        *position: *Position,
        seed: tuple[int, ...] | None = ...,
        state: tuple[tuple[int, ...], int] | None = ...,
        history: bool = ...,
        keep_state: bool = ...,
        shown: int = ...,
        matta_as: int = ...,
    ) -> Outcome: ...
    def rollouts(
        self,
        # the position, then the seed's prefix, the count, each seat's side, the sides
        *args: *tuple[*Position, tuple[int, ...], int, tuple[int, ...], int],
        shown: int = ...,
        matta_as: int = ...,
    ) -> dict[tuple[tuple[int, ...], int], int]: ...
    def tree(
        self,
        hands: tuple[int, ...],
        table: int,
        stock: tuple[int, ...],
        piles: tuple[int, ...],
        sweeps: tuple[int, ...],
        turn: int,
        last: int | None,
        dealer: int,
        ace_sweeps: tuple[int, ...],
        cleared: int | None,
        seat: int,
        strategies: tuple[int, ...],
        seed: tuple[int, ...],
        team_of: tuple[int, ...],
        sides: int,
        exploration: float,
        scale: float,
        scorer: Callable[[int], float],
        decisions: Sequence[tuple[int, int, float, Sequence[float]]],
        tries: int,
        shown: int = ...,
        matta_as: int = ...,
        endgame: int = ...,
        round_only: bool = ...,
    ) -> Tree: ...
    def tree_run(self, tree: Tree, count: int, /) -> int: ...
    def tree_sample(self, tree: Tree, /) -> tuple[tuple[int, ...], tuple[int, ...]]: ...
    def tree_size(self, tree: Tree, /) -> int: ...
    def tree_stats(self, tree: Tree, /) -> list[tuple[tuple[int, int], int, float]]: ...
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
