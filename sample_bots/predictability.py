"""How much a position says about who wins: a measure of how much of a game is skill the search bot
could find, and how much is luck that no choice changes.

    .venv/bin/python sample_bots/predictability.py ogallala --games 600

The heuristic bot plays both seats of 2-player games. At the start of every turn the heuristic's
static evaluation (``position_value``, what the search bot's cut-off playouts score) is recorded
with the final result for the seat to move. Per third of the game, a logistic fit of the win on
that value (fitted on the even games, scored on the odd ones) is compared with a coin flip by
log-loss (0.693 for a coin; 0 for certainty), and the share of won positions whose value was the
higher is given too. The lower the log-loss stays late in a game, the more the position decides;
when it stays close to a coin's, most of the result is still to be drawn.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import sys
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent / "heuristic-python")]

from engine import get_game  # noqa: E402

THIRDS = ("first third", "second third", "last third")


def positions(game_name: str, games: int) -> list[tuple[int, float, int, float]]:
    """(game, evaluation for the seat to move, third of the game, that seat's win share) at the
    start of every turn of ``games`` heuristic self-play games."""
    strategy = importlib.import_module(f"heuristics.{game_name}")
    rows = []
    for seed in range(games):
        state = get_game(game_name).new_game(2, seed)
        rng = random.Random(seed)
        starts = []
        previous = None
        while not state.is_over:
            seat = state.current_seat
            if seat != previous:
                starts.append((seat, strategy.position_value(state, seat)))
            previous = seat
            state.apply_index(strategy.choose(state.view(seat), state.legal_actions(), rng))
        ranks = state.result().ranks
        for turn, (seat, value) in enumerate(starts):
            won = 0.5 if ranks[0] == ranks[1] else float(ranks[seat] == 1)
            rows.append((seed, value, 3 * turn // len(starts), won))
    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights of P(win) = sigmoid(w0 + w1 x), by Newton's method (a tiny ridge keeps it finite
    when x separates the results)."""
    features = np.column_stack([np.ones_like(x), x])
    weights = np.zeros(2)
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-features @ weights))
        gradient = features.T @ (p - y) + 1e-3 * weights
        hessian = (features * (p * (1 - p))[:, None]).T @ features + 1e-3 * np.eye(2)
        weights -= np.linalg.solve(hessian, gradient)
    return weights


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "game", choices=["oregon", "ogallala"], help="a game whose heuristic has a position_value"
    )
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    rows = np.array(positions(args.game, args.games))
    game, value, third, won = rows.T
    print(
        f"{args.game}: {args.games} heuristic self-play games, {len(rows)} turn starts; "
        f"log-loss of a coin {math.log(2):.3f}"
    )
    for index, label in enumerate(THIRDS):
        train = (third == index) & (game % 2 == 0)
        test = (third == index) & (game % 2 == 1)
        scale = float(np.std(value[train])) or 1.0
        weights = fit_logistic(value[train] / scale, won[train])
        predicted = 1.0 / (1.0 + np.exp(-(weights[0] + weights[1] * value[test] / scale)))
        decided = test & (won != 0.5) & (value != 0)
        agree = float(np.mean((value[decided] > 0) == (won[decided] == 1.0)))
        print(
            f"  {label}: log-loss {log_loss(predicted, won[test]):.3f}, the seat valued "
            f"higher wins {agree:.0%} ({int(test.sum())} test positions)"
        )


if __name__ == "__main__":
    main()
