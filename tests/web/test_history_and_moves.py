"""``arena history`` lists stored games with their ids; ``arena replay --moves`` prints a game
decision by decision in the engine's words."""

from __future__ import annotations

import re

from tests.web.conftest import EVIL_NAME, run_arena


def test_history_lists_games_newest_first_with_filters(arena_db):
    done = run_arena("history", "--db", str(arena_db))
    assert done.returncode == 0, done.stderr
    ids = [int(match) for match in re.findall(r"^│ (\d+) ", done.stdout, re.MULTILINE)]
    assert ids == [6, 5, 4, 3, 2, 1]
    assert EVIL_NAME in done.stdout and "oregon-web" in done.stdout
    only = run_arena("history", "--db", str(arena_db), "--game", "merkator", "--limit", "1")
    assert re.findall(r"^│ (\d+) ", only.stdout, re.MULTILINE) == ["6"]
    assert "1 of 2 games" in only.stdout
    of_tournament = run_arena(
        "history", "--db", str(arena_db), "--tournament", "oregon-web", "--bot", "random-python"
    )
    assert re.findall(r"^│ (\d+) ", of_tournament.stdout, re.MULTILINE) == ["2", "1"]


def test_history_of_an_unknown_tournament_is_one_line(arena_db):
    done = run_arena("history", "--db", str(arena_db), "--tournament", "nope")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: unknown tournament 'nope' (known: oregon-web, ogallala-web, merkator-web)"
    )


def test_history_of_an_unknown_bot_or_game_is_one_line_not_an_empty_list(arena_db):
    done = run_arena("history", "--db", str(arena_db), "--bot", "nobody")
    assert done.returncode == 2
    assert done.stderr.startswith("error: unknown bot 'nobody' (registered: ")
    done = run_arena("history", "--db", str(arena_db), "--game", "chess")
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "error: unknown game 'chess'; known games: oregon, ogallala, merkator"
    )


def test_replay_moves_prints_every_decision_in_words(arena_db):
    done = run_arena("replay", "1", "--moves", "--db", str(arena_db))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("#")]
    assert lines[0].startswith("#0 seat 0 (")
    assert re.match(
        r"#0 seat 0 \(.+\) PLACE_START_TILE: start tile on \(\d+,\d+\) "
        r"\[\d+\.\d ms\]$",
        lines[0],
    )
    assert [int(line.split()[0][1:]) for line in lines] == list(range(len(lines)))
    assert not any("Play(" in line or "<Piece" in line for line in lines)
    assert "verified" in done.stdout
