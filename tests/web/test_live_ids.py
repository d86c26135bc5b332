"""A game in play's id may be handed to another game: a stopped run removes its games in play,
and SQLite gives the largest id out again. The web cached a replay per id and applied the new
game's moves to the old game's position: every viewer of the new game got "cannot be replayed"
(outside review). The app runs as ``arena serve`` does, over a real SQLite file written as a
match's process writes it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.storage import running
from arena.storage.database import open_database
from arena.web.app import create_app
from engine.registry import get_game
from tests.tournament.records import register_bots


def random_actions(game: str, seed: int, decisions: int) -> list[int]:
    """The first ``decisions`` actions of a 2-player ``game`` dealt by ``seed``, chosen at
    random (another game's moves rarely fit a position: the old code failed on them)."""
    state = get_game(game).new_game(2, seed, {})
    rng, actions = random.Random(seed), []
    for _ in range(decisions):
        actions.append(rng.randrange(len(state.legal_actions())))
        state.apply_index(actions[-1])
    return actions


@pytest.mark.parametrize("second", ["oregon", "merkator"])
def test_a_game_given_an_id_used_before_is_replayed_from_its_own_start(tmp_path: Path, second):
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    client = TestClient(create_app(path, warm_up=False))
    try:
        versions = register_bots(database, ["a", "b"])
        seats = [{"bot": "a", "version": versions[0]}, {"bot": "b", "version": versions[1]}]

        def start(game: str, seed: int, decisions: int) -> tuple[int, list[int]]:
            rules = get_game(game).rules_version
            with database.write() as session:
                new = running.NewRunningGame(None, None, game, rules, {}, seed, seats)
                live_id = running.add(session, new)
                actions = random_actions(game, seed, decisions)
                running.refresh(session, {live_id: actions}, [live_id])
            return live_id, actions

        first, _ = start("oregon", 11, 30)
        assert client.get(f"/api/live/{first}").status_code == 200  # its replay is cached
        with database.write() as session:
            running.remove(session, [first])  # a stopped run's game in play
        again, actions = start(second, 12, 40)
        assert again == first, "SQLite gives the id out again: the case under test"
        answer = client.get(f"/api/live/{again}")
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["game"] == second
        state = get_game(second).new_game(2, 12, {})
        for index in actions:
            state.apply_index(index)
        assert data["frame"]["number"] == len(actions)
        assert data["frame"]["decision"] == state.describe_decision()
    finally:
        database.close()
