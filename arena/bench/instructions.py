"""Instructions per decision of request encoding, counted by valgrind's callgrind: a figure a
loaded machine does not disturb, unlike CPU times (python -m arena.bench protocol).

For each game, random games of 4 players (or the nearest count the game allows) are played in a
child process under callgrind, every decision's request encoded by today's encoder
(``arena.wire.requests``) or by the previous one (``arena.wire.reference``), or not at all. The
encoding's count is the difference from the same games played without encoding, and only the
measured games count: the warm-up games (which fill the caches, as a referee that has played a
while has them) are subtracted as a run of the warm-up alone. Six runs of a game, three at a
time; a minute or two each.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from arena.bench import bench_parser
from engine.registry import game_names, get_game

ENCODERS = ("none", "today", "previous")
_COLLECTED = re.compile(r"Collected : (\d+)")


def players_for(game: str) -> int:
    engine = get_game(game)
    return min(max(4, engine.min_players), engine.max_players)


def play(game: str, encoder: str, warm_up: int, games: int) -> int:
    """Play ``warm_up`` then ``games`` random games, encoding every request with ``encoder``;
    the number of decisions of the measured games."""
    from arena.wire.reference import MessageDecisionEncoder
    from arena.wire.requests import DecisionEncoder

    engine, players = get_game(game), players_for(game)
    chosen: Any = {"today": DecisionEncoder, "previous": MessageDecisionEncoder}.get(encoder)
    encode = None if chosen is None else chosen(game).request
    decisions = 0
    for seed in [*range(-warm_up, 0), *range(games)]:
        state, rng, told = engine.new_game(players, seed), random.Random(seed), [0] * players
        while (seat := state.current_seat) is not None:  # None once the game is over
            legal = state.legal_actions()
            since, told[seat] = told[seat], len(state.event_log)
            if encode is not None:
                encode("bench", decisions, state, seat, legal, 1.0, 0.0, since)
            state.apply_index(rng.randrange(len(legal)))
            decisions += seed >= 0
    return decisions


def counted(game: str, encoder: str, warm_up: int, games: int) -> tuple[int, int]:
    """Instructions of a child process playing as ``play`` does, and its measured decisions."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "arena.bench.instructions",
        "--play",
        game,
        encoder,
        str(warm_up),
        str(games),
    ]
    # A fixed hash seed: string hashes, and so dict probes, are otherwise drawn per process.
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
    instructions = _COLLECTED.search(done.stderr)
    if instructions is None:
        raise RuntimeError(f"no instruction count from callgrind: {done.stderr[-300:]}")
    return int(instructions.group(1)), int(done.stdout.split()[-1])


def per_decision(game: str, warm_up: int, games: int) -> dict[str, float]:
    """Instructions per measured decision of each encoder, beyond playing the games."""
    runs = [(encoder, measured) for encoder in ENCODERS for measured in (0, games)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = dict(
            zip(runs, pool.map(lambda run: counted(game, run[0], warm_up, run[1]), runs))
        )

    def played(encoder: str) -> int:
        return results[encoder, games][0] - results[encoder, 0][0]

    decisions = results["none", games][1]
    return {encoder: (played(encoder) - played("none")) / decisions for encoder in ENCODERS[1:]} | {
        "decisions": decisions
    }


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--play"]:  # the child process, under callgrind
        game, encoder, warm_up, games = argv[1:5]
        print(play(game, encoder, int(warm_up), int(games)))
        return
    parser = bench_parser("instructions", __doc__)
    parser.add_argument("games", nargs="*", metavar="GAME", help="default: every game")
    parser.add_argument("--warm-up", type=int, default=4, help="unmeasured games first")
    parser.add_argument("--measured", type=int, default=3, help="measured games")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(game_names()))
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; games: {', '.join(game_names())}")
    if shutil.which("valgrind") is None:
        print("instructions: valgrind is not installed (apt-get install valgrind)")
        raise SystemExit(1)
    for game in args.games or game_names():
        counts = per_decision(game, args.warm_up, args.measured)
        print(
            f"instructions per decision of {players_for(game)}-player {game} "
            f"({counts['decisions']:.0f} decisions): request encoding {counts['today']:,.0f} "
            f"(the previous encoder {counts['previous']:,.0f}, "
            f"x{counts['previous'] / counts['today']:.1f})"
        )


if __name__ == "__main__":
    main()
