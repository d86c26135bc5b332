"""Compare the batch rating with Ordo on a connected 2-player synthetic tournament.

    python -m leaderboard.ordo_compare --ordo /path/to/ordo [--games 6000] [--seed 1]

Ordo (Miguel Ballicora's rating program, github.com/michiguel/Ordo) is not a dependency; build
it yourself (docs/ordo.md). The games are a seeded round robin among players of known strengths
(``leaderboard.synthetic.round_robin``), written as a minimal PGN (White, Black, Result) and
rated by Ordo with the pool average at 1500, no white advantage, and its scale set to ours.
Prints player, Ordo, ours, difference, and the max |difference| after centring both on the same
mean (both already average 1500; the centring only removes rounding).
"""

from __future__ import annotations

import argparse
import csv
import math
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from leaderboard.batch import fit_batch
from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult
from leaderboard.synthetic import round_robin

STRENGTHS = {
    "p1": 1150.0,
    "p2": 1300.0,
    "p3": 1380.0,
    "p4": 1450.0,
    "p5": 1500.0,
    "p6": 1560.0,
    "p7": 1640.0,
    "p8": 1700.0,
    "p9": 1820.0,
}
# Ordo's -z is the rating difference for a 76% expectancy; its default, 202, is a slightly wider
# logistic than ours (200 points = 75.97%, i.e. 10 ** (d / 400)). This value makes them equal.
ORDO_SCALE = 400.0 * math.log10(0.76 / 0.24)
RESULT = {1: "1-0", 2: "0-1"}


def write_pgn(games: Sequence[GameResult], path: Path) -> None:
    """First seat plays White. Ties would be "1/2-1/2"; the synthetic games have none."""
    lines = []
    for game in games:
        white, black = game.seats
        result = "1/2-1/2" if white.rank == black.rank else RESULT[white.rank]
        lines += [
            f'[White "{white.player}"]',
            f'[Black "{black.player}"]',
            f'[Result "{result}"]',
            "",
            result,
            "",
        ]
    path.write_text("\n".join(lines))


def run_ordo(ordo: str, games: Sequence[GameResult]) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        pgn, table = Path(scratch, "games.pgn"), Path(scratch, "ratings.csv")
        write_pgn(games, pgn)
        # -a: pool average; -w 0: no white advantage (our model has no seat advantage);
        # -z: our scale; -N: decimals so that sub-point differences show.
        command = [ordo, "-q", "-p", str(pgn), "-c", str(table), "-a", str(INITIAL_RATING)]
        command += ["-w", "0", "-z", f"{ORDO_SCALE:.6f}", "-N", "3"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        with table.open() as handle:
            rows = list(csv.reader(handle))
    header = [cell.strip().lower() for cell in rows[0]]
    name, rating = header.index("player"), header.index("rating")
    return {row[name].strip(): float(row[rating]) for row in rows[1:] if row}


def compare(ordo: Mapping[str, float], ours: Mapping[str, float]) -> list[str]:
    players = sorted(ours, key=lambda player: -ours[player])
    shift = sum(ours.values()) / len(ours) - sum(ordo[p] for p in ours) / len(ours)
    lines = [f"{'player':8} {'truth':>8} {'Ordo':>9} {'ours':>9} {'ours-Ordo':>10}"]
    worst = 0.0
    for player in players:
        difference = ours[player] - (ordo[player] + shift)
        worst = max(worst, abs(difference))
        lines.append(
            f"{player:8} {STRENGTHS[player]:8.0f} {ordo[player]:9.2f} {ours[player]:9.2f}"
            f" {difference:10.2f}"
        )
    lines.append(f"max |ours - Ordo| after aligning the means: {worst:.2f} Elo")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ordo", required=True, help="path of the ordo executable")
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = round_robin(STRENGTHS, seats=2, games=args.games, seed=args.seed)
    ordo = run_ordo(args.ordo, games)
    ours = {player: rating.rating for player, rating in fit_batch(games, bootstrap=0).items()}
    print(f"{len(games)} games, {len(STRENGTHS)} players, seed {args.seed}")
    print("\n".join(compare(ordo, ours)))


if __name__ == "__main__":
    main()
