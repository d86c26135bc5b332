"""The Ordo comparison: its PGN always; the agreement itself only where Ordo is installed (set
ORDO to its path, or put ``ordo`` on PATH; docs/ordo.md says how to build it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from leaderboard.batch import fit_batch
from leaderboard.ordo_compare import STRENGTHS, run_ordo, write_pgn
from leaderboard.results import GameResult, SeatResult
from leaderboard.synthetic import round_robin

ORDO = os.environ.get("ORDO") or shutil.which("ordo")


def test_pgn_has_white_black_and_result_per_game(tmp_path: Path) -> None:
    games = [
        GameResult((SeatResult("a", 1, 1.0), SeatResult("b", 2, 0.0))),
        GameResult((SeatResult("b", 2, 0.0), SeatResult("a", 1, 1.0))),
        GameResult((SeatResult("a", 1, 0.5), SeatResult("b", 1, 0.5))),
    ]
    pgn = tmp_path / "games.pgn"
    write_pgn(games, pgn)
    text = pgn.read_text()
    assert text.count('[White "a"]') == 2 and text.count('[Black "a"]') == 1
    assert [line for line in text.splitlines() if line and not line.startswith("[")] == [
        "1-0",
        "0-1",
        "1/2-1/2",
    ]


@pytest.mark.skipif(ORDO is None, reason="Ordo is not installed (docs/ordo.md)")
def test_batch_rating_agrees_with_ordo_within_half_an_elo_point() -> None:
    games = round_robin(STRENGTHS, seats=2, games=6000, seed=1)
    assert ORDO is not None
    ordo = run_ordo(ORDO, games)
    ours = {player: rating.rating for player, rating in fit_batch(games, bootstrap=0).items()}
    assert ordo.keys() == ours.keys()
    assert max(abs(ours[player] - ordo[player]) for player in ours) < 0.5
