"""A remote bot (``NAME@HOST:PORT``) is one process that the arena cannot replace between the
rotations of a deal, as it replaces a kept-up bot of its own: it would learn the other seats'
cards (and the deck's order) from the rotation before. A pod that seats one plays each rotation
on a deal of its own (outside review F, H1); the other pods' rotations still share their deal."""

from __future__ import annotations

import socket
import time
from collections import defaultdict
from pathlib import Path

import pytest

from arena.manifest import BotSpec
from arena.storage import bots, running, tournaments
from arena.storage.database import open_database
from arena.storage.models import RunningGame
from arena.tournament.schedule import build_schedule
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli, start_remote_bot


def test_the_pods_of_a_remote_bot_play_each_rotation_on_a_deal_of_its_own():
    remote = {2}
    by_deal: dict[tuple[str, int], set[int]] = defaultdict(set)
    for game in build_schedule(4, 3, 2, seed=7, remote=remote):
        by_deal[(game.pod, game.deal)].add(game.seed)
    for (pod, _), seeds in by_deal.items():
        seats_remote = "2" in pod.split("+")
        assert len(seeds) == (3 if seats_remote else 1), pod
    plain = build_schedule(4, 3, 2, seed=7)
    assert [g.key for g in plain] == [g.key for g in build_schedule(4, 3, 2, 7, remote)]


def _listening(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, "the remote bot never listened"
            time.sleep(0.1)


def _seeds_by_bot(db: Path) -> dict[str, list[int]]:
    rows = query(
        db,
        "SELECT b.name, g.seed FROM game g JOIN seat s ON s.game_id = g.id "
        "JOIN bot_version v ON v.id = s.bot_version_id JOIN bot b ON b.id = v.bot_id "
        "WHERE g.status = 'finished'",
    )
    seeds: dict[str, list[int]] = defaultdict(list)
    for name, seed in rows:
        seeds[name].append(seed)
    return seeds


@pytest.mark.slow
@pytest.mark.parametrize("command", ["tournament", "ladder"])
def test_a_remote_bot_never_plays_the_same_deal_twice(tmp_path: Path, command: str):
    bot, port = start_remote_bot(token=None)
    try:
        _listening(port)
        db = tmp_path / "arena.db"
        locals_ = [
            renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name)
            for name in ("local-a", "local-b")
        ]
        entrants = ",".join([f"random-python@127.0.0.1:{port}", *map(str, locals_)])
        common = ["--db", str(db), "--game", "oregon", "--bots", entrants, "--sandbox", "none"]
        if command == "tournament":
            result = run_cli("tournament", *common, "--deals", "2")  # 12 games
        else:
            result = run_cli("ladder", *common, "--until", "12")
        assert result.exit_code == 0, result.stderr
        seeds = _seeds_by_bot(db)
        assert len(seeds["random-python"]) >= 4
        assert len(set(seeds["random-python"])) == len(seeds["random-python"])
        if command == "tournament":  # local-a against local-b: both rotations of each deal
            together = set(seeds["local-a"]) & set(seeds["local-b"])
            assert len(together) == 2
    finally:
        bot.kill()
        bot.wait()


def test_a_game_in_play_that_seats_a_remote_bot_is_shown_live(tmp_path: Path):
    """Its deal is its own: no other rotation shares its cards, so it is not held."""
    database = open_database(tmp_path / "arena.db", create=True)
    try:
        with database.write() as session:
            versions = []
            for name, address in (("near", None), ("far", "127.0.0.1:50051")):
                spec = BotSpec(name, "1", ("oregon",), None, None, address=address)
                registered, _ = bots.register(session, spec, f"hash-{name}")
                versions.append(registered)
            settings = {"players": 2, "deals": 1, "concurrency": 1, "move_time": 1.0}
            tournament = tournaments.create(session, "t", "oregon", 1, settings, versions)
            seats = [{"bot": v.bot.name, "version": v.version.id} for v in versions]
            row = RunningGame(
                tournament_id=tournament.id,
                game="oregon",
                rules_version="1",
                options={},
                seed=5,
                num_players=2,
                seats=seats,
                actions=[],
            )
            assert running._deal_held(session, row) is None
            seats[1]["version"] = seats[0]["version"]  # no remote bot: its deal is shared
            assert running._deal_held(session, row) == {"played": 0, "rotations": 2}
    finally:
        database.close()
