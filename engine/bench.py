"""Random-play benchmark of one engine in one process.

    python -m engine.bench oregon --players 4 --games 200

The last line is machine-readable:
``oregon players=4 games=200 decisions=... seconds=... decisions_per_s=... games_per_s=...``.
Timing covers legal_actions() + apply_index() only (a random player's whole loop).
"""

from __future__ import annotations

import argparse
import random
import time

from engine.registry import game_names, get_game


def play_random(game_name: str, players: int, seed: int) -> int:
    """Play one game with uniformly random legal choices; return the number of decisions."""
    state = get_game(game_name).new_game(players, seed)
    rng = random.Random(seed)
    decisions = 0
    while not state.is_over:
        state.apply_index(rng.randrange(len(state.legal_actions())))
        decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args(argv)

    def run() -> int:
        return sum(play_random(args.game, args.players, args.seed + i) for i in range(args.games))

    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
    start = time.perf_counter()
    decisions = run()
    seconds = time.perf_counter() - start
    if args.profile:
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    print(
        f"{args.game} players={args.players} games={args.games} decisions={decisions} "
        f"seconds={seconds:.3f} decisions_per_s={decisions / seconds:.0f} "
        f"games_per_s={args.games / seconds:.2f}"
    )


if __name__ == "__main__":
    main()
