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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine.merkator import GAME  # noqa: E402
from heuristics import merkator  # noqa: E402


def play(seed: int, heuristic_seat: int, players: int, timings: list[float]) -> tuple[float, float, float]:
    """(win share, heuristic score, best other score) of one game."""
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


def playout_seconds(policy, games: int) -> float:
    """Seconds per decision of whole games played by ``policy`` for every seat (incl. the engine)."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = GAME.new_game(2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply_index(policy(state, rng))
            decisions += 1
    return (time.perf_counter() - start) / decisions


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
    randomly = playout_seconds(lambda s, r: r.randrange(len(s.legal_actions())), 40)
    by_policy = playout_seconds(merkator.rollout, 40)
    print(f"playout step: random {1e6 * randomly:.1f} us, rollout {1e6 * by_policy:.1f} us "
          f"({by_policy / randomly:.1f}x)")


if __name__ == "__main__":
    main()
