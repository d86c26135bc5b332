"""Measure the Ogallala heuristic in-process (no gRPC): its win rate against a uniformly random
player (or against the fast rollout policy), its time per decision, and what the rollout policy
costs compared with random play.

    .venv/bin/python sample_bots/heuristic-python/evaluate_ogallala.py --deals 100
    .venv/bin/python sample_bots/heuristic-python/evaluate_ogallala.py --players 4 --opponent rollout
    .venv/bin/python sample_bots/heuristic-python/evaluate_ogallala.py --rollout-cost 200

Every deal (seed) is played once per seat of the heuristic; the other seats play the opponent
policy. A win is a shared or sole first place.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import get_game  # noqa: E402
from heuristics import ogallala  # noqa: E402

GAME = get_game("ogallala")


def random_policy(state, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


OPPONENTS = {"random": random_policy, "rollout": ogallala.rollout}


def play(players: int, seed: int, seat: int, opponent) -> tuple[bool, list[float], str]:
    """One game with the heuristic on ``seat``: (won, seconds per decision it made, end)."""
    state = GAME.new_game(players, seed)
    rng = random.Random(seed * 1009 + seat)
    times = []
    while not state.is_over:
        if state.current_seat == seat:
            view, actions = state.view(seat), state.legal_actions()
            start = time.perf_counter()
            index = ogallala.choose(view, actions, rng)
            times.append(time.perf_counter() - start)
        else:
            index = opponent(state, rng)
        state.apply_index(index)
    return state.result().ranks[seat] == 1, times, state.end_reason.name


def playout_cost(games: int, players: int) -> None:
    """Seconds per decision and per game of whole playouts with each policy."""
    for name, policy in (("random", random_policy), ("rollout", ogallala.rollout)):
        rng = random.Random(1)
        decisions, start = 0, time.process_time()
        for seed in range(games):
            state = GAME.new_game(players, seed)
            while not state.is_over:
                state.apply_index(policy(state, rng))
                decisions += 1
        elapsed = time.process_time() - start
        print(f"{name:8s} {elapsed / decisions * 1e6:6.1f} us/decision "
              f"{elapsed / games * 1e3:7.2f} ms/game {decisions / games:6.0f} decisions/game")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="random")
    parser.add_argument("--rollout-cost", type=int, metavar="GAMES",
                        help="time whole playouts instead: random vs rollout policy")
    args = parser.parse_args()
    if args.rollout_cost:
        playout_cost(args.rollout_cost, args.players)
        return
    wins, times, ends = 0, [], Counter()
    for seed in range(args.deals):
        for seat in range(args.players):
            won, seconds, end = play(args.players, seed, seat, OPPONENTS[args.opponent])
            wins += won
            times += seconds
            ends[end] += 1
    games = args.deals * args.players
    print(f"heuristic vs {args.opponent}, {args.players} players: won {wins}/{games} "
          f"({wins / games:.1%}); ends {dict(ends)}")
    print(f"{len(times)} decisions: mean {sum(times) / len(times) * 1e3:.2f} ms, "
          f"max {max(times) * 1e3:.1f} ms (wall clock)")


if __name__ == "__main__":
    main()
