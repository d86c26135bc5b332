"""In-process strength check of the Python sample strategies (no gRPC, no processes): quick to
iterate on; the arena's own `arena tournament` gives the official numbers.

    .venv/bin/python sample_bots/evaluate.py oregon --player search --opponent heuristic --deals 20
    .venv/bin/python sample_bots/evaluate.py merkator --playout-cost 200

Every deal is played twice, the player under test once in seat 0 and once in the last seat, and
the opponent policy takes every other seat. A shared first place counts half.
Players: random, heuristic (the heuristic bot on its view), rollout (the playout policy on the
sampled state, as the search bot uses it), search (the search bot; --iterations playouts, at
most --budget seconds per decision as in the bot).
``--playout-cost GAMES`` instead times whole 2-player games played by the rollout policy and by
random picks for every seat (engine work included): what the search bot pays per playout.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "heuristic-python"), str(HERE / "search-python")]

import search  # noqa: E402
from settings import search_settings  # noqa: E402

from engine import get_game  # noqa: E402
from engine.core import GameState  # noqa: E402

Policy = Callable[[GameState, random.Random], int]


def policies(game_name: str, iterations: int, budget_s: float) -> dict[str, Policy]:
    game = get_game(game_name)
    strategy = importlib.import_module(f"heuristics.{game_name}")
    settings = search_settings(game_name)

    def heuristic(state: GameState, rng: random.Random) -> int:
        return strategy.choose(state.view(state.current_seat), state.legal_actions(), rng)

    def searching(state: GameState, rng: random.Random) -> int:
        return search.choose(
            game,
            state.view(state.current_seat),
            rng,
            iterations=iterations,
            budget_s=budget_s,
            **settings,
        )

    return {
        "random": lambda state, rng: rng.randrange(len(state.legal_actions())),
        "heuristic": heuristic,
        "rollout": lambda state, rng: strategy.rollout(
            game.sample_state(state.view(state.current_seat), rng), rng
        ),
        "search": searching,
    }


def play(
    game_name: str,
    players: int,
    seed: int,
    seat: int,
    player: Policy,
    opponent: Policy,
    clock: list[float],
) -> float:
    """One game; the player's share of first place. ``clock`` collects its seconds per decision."""
    state = get_game(game_name).new_game(players, seed)
    rng = random.Random(seed * 31 + seat)
    while not state.is_over:
        if state.current_seat == seat:
            start = time.perf_counter()
            index = player(state, rng)
            clock.append(time.perf_counter() - start)
        else:
            index = opponent(state, rng)
        state.apply_index(index)
    ranks = state.result().ranks
    winners = [s for s, rank in enumerate(ranks) if rank == 1]
    return 1.0 / len(winners) if seat in winners else 0.0


def playout_cost(game_name: str, policy: Policy, games: int) -> tuple[float, float]:
    """(seconds per decision, seconds per game) of whole 2-player games ``policy`` plays."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = get_game(game_name).new_game(2, seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply_index(policy(state, rng))
            decisions += 1
    seconds = time.perf_counter() - start
    return seconds / decisions, seconds / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("--player", default="search")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument(
        "--budget",
        type=float,
        default=0.5,
        help="the search's cap in seconds per decision (the bot's default)",
    )
    parser.add_argument("--playout-cost", type=int, metavar="GAMES", default=0)
    args = parser.parse_args()
    table = policies(args.game, args.iterations, args.budget)
    if args.playout_cost:
        strategy = importlib.import_module(f"heuristics.{args.game}")
        costs = {
            name: playout_cost(args.game, policy, args.playout_cost)
            for name, policy in (("rollout", strategy.rollout), ("random", table["random"]))
        }
        for name, (per_decision, per_game) in costs.items():
            print(
                f"{args.game} {name}: {per_decision * 1e6:.1f} us/decision, "
                f"{per_game * 1e3:.2f} ms/game"
            )
        print(
            f"ratio per decision {costs['rollout'][0] / costs['random'][0]:.1f}, "
            f"per game {costs['rollout'][1] / costs['random'][1]:.1f}"
        )
        return
    shares: list[float] = []
    clock: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.deals):
        for seat in (0, args.players - 1):
            shares.append(
                play(
                    args.game,
                    args.players,
                    seed,
                    seat,
                    table[args.player],
                    table[args.opponent],
                    clock,
                )
            )
    half_width = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares))
    print(
        f"{args.game} {args.player} vs {args.opponent} players={args.players} "
        f"games={len(shares)} win_share={statistics.mean(shares):.3f} "
        f"(95% interval +-{half_width:.3f}) ms_per_decision={1000 * statistics.mean(clock):.1f}"
    )


if __name__ == "__main__":
    main()
