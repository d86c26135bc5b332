"""Measure the Merkator heuristic in-process (no gRPC): win rate against uniformly random play,
time per decision, and the cost of the rollout policy against a random pick.

    .venv/bin/python sample_bots/heuristic-python/evaluate_merkator.py --deals 100

Each deal (seed) is played twice, with the heuristic in each seat. A shared first place counts
as half a win.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine.merkator import GAME  # noqa: E402
from engine.merkator.state import MerkatorState  # noqa: E402
from heuristics import merkator  # noqa: E402

Policy = Callable[[MerkatorState, random.Random], int]


def play(
    seed: int, heuristic_seat: int, players: int, timings: list[float]
) -> tuple[float, float, float]:
    """(win share, heuristic score, best other score) of one game against random seats."""
    state = GAME.new_game(players, seed)
    rng = random.Random(seed * 31 + heuristic_seat)
    while not state.is_over:
        legal = state.legal_actions()
        if state.current_seat == heuristic_seat:
            start = time.perf_counter()
            index = merkator.choose(state.view(heuristic_seat), legal, rng)
            timings.append(time.perf_counter() - start)
        else:
            index = rng.randrange(len(legal))
        state.apply_index(index)
    result = state.result()
    firsts = [q for q, rank in enumerate(result.ranks) if rank == 1]
    win = 1.0 / len(firsts) if heuristic_seat in firsts else 0.0
    others = [s for q, s in enumerate(result.scores) if q != heuristic_seat]
    return win, result.scores[heuristic_seat], max(others)


def playout_cost(policy: Policy, games: int) -> tuple[float, float]:
    """(seconds per decision, seconds per game) of whole 2-player games that ``policy`` plays for
    every seat, the engine's own work included: what a search bot pays per playout."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = GAME.new_game(2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply_index(policy(state, rng))
            decisions += 1
    seconds = time.perf_counter() - start
    return seconds / decisions, seconds / games


def random_pick(state: MerkatorState, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    wins = mine = theirs = 0.0
    timings: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.deals):
        for seat in range(2):
            win, score, other = play(seed, seat, args.players, timings)
            wins += win
            mine += score
            theirs += other
    games = 2 * args.deals
    timings.sort()
    print(f"heuristic vs random, {args.players} players, {games} games: "
          f"win rate {wins / games:.1%}, mean score {mine / games:.1f} vs {theirs / games:.1f}")
    print(f"choose: mean {1000 * sum(timings) / len(timings):.2f} ms, "
          f"p99 {1000 * timings[int(0.99 * len(timings))]:.2f} ms, "
          f"max {1000 * timings[-1]:.2f} ms over {len(timings)} decisions")
    random_step, random_game = playout_cost(random_pick, 100)
    rollout_step, rollout_game = playout_cost(merkator.rollout, 100)
    print(f"playouts: random {1e6 * random_step:.1f} us/decision, {1e3 * random_game:.2f} ms/game; "
          f"rollout {1e6 * rollout_step:.1f} us/decision, {1e3 * rollout_game:.2f} ms/game "
          f"({rollout_step / random_step:.1f}x per decision, {rollout_game / random_game:.1f}x "
          f"per game)")


if __name__ == "__main__":
    main()
