"""Strength of the Oregon heuristic, in-process (no gRPC): seat 0 of every deal is played once by
each side, so both sides get the same cards and the same seats.

    .venv/bin/python sample_bots/heuristic-python/evaluate_oregon.py --deals 100 \
        --player heuristic --opponent random

Players: ``heuristic`` (the bot's ``choose`` on its view), ``rollout`` (the playout policy on the
true state, as the search bot uses it) and ``random``. With more than 2 players the player under
test takes one seat and the opponent policy all the others. A shared first place counts half.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine.oregon import GAME  # noqa: E402
from engine.oregon.state import OregonState  # noqa: E402
from heuristics import oregon  # noqa: E402

Policy = Callable[[OregonState, random.Random], int]


def heuristic(state: OregonState, rng: random.Random) -> int:
    return oregon.choose(state.view(state.current_seat), state.legal_actions(), rng)


def uniform(state: OregonState, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


POLICIES: dict[str, Policy] = {"heuristic": heuristic, "rollout": oregon.rollout, "random": uniform}


def play(players: int, seed: int, seat: int, player: Policy, opponent: Policy,
         clock: list[float]) -> tuple[float, float, float]:
    """One game; returns (win share, player's score, best opponent score). ``clock`` collects
    the player's seconds per decision."""
    state = GAME.new_game(players, seed)
    rng = random.Random(seed * 31 + seat)
    while not state.is_over:
        if state.current_seat == seat:
            start = time.perf_counter()
            index = player(state, rng)
            clock.append(time.perf_counter() - start)
        else:
            index = opponent(state, rng)
        state.apply_index(index)
    result = state.result()
    winners = [s for s, rank in enumerate(result.ranks) if rank == 1]
    share = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max(score for s, score in enumerate(result.scores) if s != seat)
    return share, result.scores[seat], best_other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--player", choices=POLICIES, default="heuristic")
    parser.add_argument("--opponent", choices=POLICIES, default="random")
    args = parser.parse_args()
    player, opponent = POLICIES[args.player], POLICIES[args.opponent]
    wins = mine = theirs = 0.0
    clock: list[float] = []
    games = 0
    for seed in range(args.first_seed, args.first_seed + args.deals):
        for seat in (0, args.players - 1):
            share, score, other = play(args.players, seed, seat, player, opponent, clock)
            wins += share
            mine += score
            theirs += other
            games += 1
    clock.sort()
    print(f"{args.player} vs {args.opponent}, {args.players} players, {games} games: "
          f"win rate {wins / games:.3f} ({wins:g}/{games}), mean score {mine / games:.1f} "
          f"vs best other {theirs / games:.1f}; ms per decision: mean "
          f"{1000 * sum(clock) / len(clock):.2f}, p99 {1000 * clock[int(0.99 * len(clock))]:.2f}, "
          f"max {1000 * clock[-1]:.2f}")


if __name__ == "__main__":
    main()
