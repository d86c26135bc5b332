"""The replay frames stored beside the database stay within a size budget (outside review C,
L5: asking anonymously for the outline and first chunk of 150 games grew ``<db>.frames/`` from
1.9 to 9.2 MB, and nothing removed anything, so a crawler could fill the disk in proportion to
the stored games). Over the budget the least recently used games' pieces go; a game removed is
built again, the same, when next viewed; a piece is never seen half-written; and the directory
is walked now and then, not at every write."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.storage.read_only import ReadOnlyDatabase
from arena.web import frame_store
from arena.web.app import create_app
from arena.web.frame_store import FrameStore
from arena.web.replay import STORING_THREAD
from tests.web.conftest import altered_copy, run_arena

COPIES = 3  # of the six games of the web tests' database: 18 games
BUDGET = 600_000  # bytes: the longest game (582 decisions) takes about 400 KB with every seat


def du(directory: Path) -> int:
    """The bytes ``directory`` takes on disk, as ``du`` counts them."""
    total = 0
    for root, _, files in os.walk(directory):
        total += os.lstat(root).st_blocks * 512
        total += sum(os.lstat(os.path.join(root, name)).st_blocks * 512 for name in files)
    return total


def copies(count: int) -> list[str]:
    """SQL adding ``count`` - 1 copies of games 1-6 (with their seats) under ids 7, 8, ..."""
    columns = (
        "tournament_id, group_key, game, rules_version, options, seed, num_players, status, "
        "actions, termination, duration, decision_seconds, comments, verification, finished_at"
    )
    statements = []
    for number in range(1, count):
        statements += [
            f"INSERT INTO game (id, schedule_key, {columns}) SELECT id + {6 * number}, "
            f"schedule_key || ' copy {number}', {columns} FROM game WHERE id <= 6",
            f"INSERT INTO seat SELECT game_id + {6 * number}, seat, bot_version_id, score, rank, "
            "outcome, reason, time_used, decisions FROM seat WHERE game_id <= 6",
        ]
    return statements


def stored() -> None:
    """Wait for the background threads storing games' pieces."""
    for thread in threading.enumerate():
        if thread.name == STORING_THREAD:
            thread.join(timeout=300)


def opened(client: TestClient, game_id: int) -> list[Any]:
    """What a viewer opening the game asks for: the outline and the first chunk, as the
    referee and as each seat (a crawler's requests)."""
    answers = []
    for seat in ("referee", "0", "1"):
        for path in ("replay", "frames"):
            response = client.get(f"/api/games/{game_id}/{path}", params={"seat": seat})
            assert response.status_code == 200, response.text
            answers.append(response.json())
    return answers


def test_a_crawler_grows_the_frames_no_further_than_the_budget(arena_db, tmp_path):
    db = altered_copy(arena_db, tmp_path / "arena.db", *copies(COPIES))
    frames = tmp_path / "frames"

    def app() -> Any:
        return create_app(db, warm_up=False, frames_dir=frames, frames_max_size=BUDGET)

    with TestClient(app()) as client:
        first = opened(client, 1)
        stored()
        assert list(frames.glob("1-*"))
        for game_id in range(2, 6 * COPIES + 1):
            opened(client, game_id)
            stored()
            assert du(frames) <= BUDGET, game_id
        assert not list(frames.glob("1-*"))  # the least recently used: removed
        assert list(frames.glob(f"{6 * COPIES}-*"))  # the last one viewed: kept
    # a server that has nothing in its memory builds game 1 again, the same
    with TestClient(app()) as client:
        assert opened(client, 1) == first
        stored()
    assert list(frames.glob("1-*"))
    assert du(frames) <= BUDGET


def _game(arena_db: Path, game_id: int) -> dict[str, Any]:
    """Game 1 of the web tests' database under another id: pieces of its own, as cheap."""
    game = ReadOnlyDatabase(arena_db).game(1)
    assert game is not None
    return game | {"id": game_id}


def _body(game_id: int, piece: int, size: int = 10_000) -> bytes:
    return (f"{game_id}/{piece}:".encode() * size)[:size]


def test_the_least_recently_used_games_go_first(arena_db, tmp_path):
    directory = tmp_path / "frames"
    probe = FrameStore(tmp_path / "probe")
    probe.write(_game(arena_db, 99), "a", _body(99, 0))
    probe.write(_game(arena_db, 99), "b", _body(99, 1))
    one_game = sum(game.size for game in probe.walk())
    store = FrameStore(directory, max_size=3 * one_game + one_game // 2)  # room for 3 games
    games = [_game(arena_db, number) for number in range(1, 4)]
    for game in games:
        store.write(game, "a", _body(game["id"], 0))
        store.write(game, "b", _body(game["id"], 1))
    assert {one.name.split("-")[0] for one in store.walk()} == {"1", "2", "3"}
    now = time.time()
    for age, game in zip((300, 200, 100), games):  # 1 the oldest, then 2, then 3
        os.utime(store._game_dir(game), (now - age, now - age))
    assert store.read(games[0], "a") == _body(1, 0)  # game 1 served: now the newest
    fourth = _game(arena_db, 4)
    store.write(fourth, "a", _body(4, 0))
    store.write(fourth, "b", _body(4, 1))
    left = [one.name.split("-")[0] for one in store.walk()]
    assert "2" not in left and {"1", "4"} <= set(left), left
    assert du(directory) <= store.max_size
    assert store.read(games[1], "a") is None  # gone: the viewer builds it again


def test_the_directory_is_walked_now_and_then_not_at_every_write(arena_db, tmp_path, monkeypatch):
    monkeypatch.setattr(frame_store, "_RECOUNT_WRITES", 10)
    walks = []
    walk = FrameStore.walk

    def counted(self: FrameStore) -> list[frame_store.StoredGame]:
        walks.append(1)
        return walk(self)

    monkeypatch.setattr(FrameStore, "walk", counted)
    store = FrameStore(tmp_path / "frames")
    game = _game(arena_db, 1)
    for piece in range(35):
        store.write(game, f"piece-{piece}", _body(1, piece, 100))
    assert len(walks) == 4  # the first write, then every 10th


def test_servers_sharing_the_directory_see_each_others_pieces(arena_db, tmp_path):
    """Another server's writes count at this one's next walk; its pieces go when they are the
    least recently used."""
    directory = tmp_path / "frames"
    other = FrameStore(directory)
    for number in range(1, 6):
        other.write(_game(arena_db, number), "a", _body(number, 0))
    stored_there = du(directory)
    store = FrameStore(directory, max_size=stored_there)
    store.write(_game(arena_db, 6), "a", _body(6, 0))  # its first write: it walks, and evicts
    assert du(directory) <= store.max_size
    left = {one.name.split("-")[0] for one in store.walk()}
    assert "6" in left and "1" not in left


def test_the_budget_holds_after_a_walk_that_found_room(arena_db, tmp_path):
    """A walk that finds the directory just under the budget leaves the next one due at the
    budget, not past it (a crawl of the web tests' games once ended 15% over it)."""
    directory = tmp_path / "frames"
    other = FrameStore(directory)
    for number in range(1, 5):
        for piece in range(3):
            other.write(_game(arena_db, number), f"piece-{piece}", _body(number, piece))
    four = du(directory)
    store = FrameStore(directory, max_size=four + four // 10)  # room for 0.4 games more
    fifth = _game(arena_db, 5)
    store.write(fifth, "piece-0", _body(5, 0, 100))  # its first write: a walk, under the budget
    assert len(list(directory.iterdir())) == 5
    for piece in range(1, 4):  # three quarters of a game more: over the budget
        store.write(fifth, f"piece-{piece}", _body(5, piece))
    assert du(directory) <= store.max_size
    assert "1" not in {one.name.split("-")[0] for one in store.walk()}


def test_a_write_racing_evictions_never_leaves_a_half_written_piece(arena_db, tmp_path):
    """Four threads and two stores (two servers) writing into one small directory: each piece
    left is whole, no temporary file is left, and every write returns."""
    directory = tmp_path / "frames"
    stores = [FrameStore(directory, max_size=80_000), FrameStore(directory, max_size=80_000)]
    games = [_game(arena_db, number) for number in range(1, 31)]
    start = threading.Barrier(4)

    def write(worker: int) -> None:
        start.wait()
        store = stores[worker % 2]
        for game in games[worker::2]:
            for piece in range(3):
                store.write(game, f"piece-{piece}", _body(game["id"], piece, 3_000 + 997 * piece))

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    for path in directory.rglob("*"):
        if path.is_file():
            assert not path.name.startswith(".piece-"), path
            game_id, piece = int(path.parent.name.split("-")[0]), int(path.name.split("-")[1])
            assert path.read_bytes() == _body(game_id, piece, 3_000 + 997 * piece), path
    assert list(directory.iterdir())  # the last ones written are there


def test_a_budget_of_0_keeps_the_frames_in_memory_only(arena_db, tmp_path):
    frames = tmp_path / "frames"
    with TestClient(
        create_app(arena_db, warm_up=False, frames_dir=frames, frames_max_size=0)
    ) as client:
        assert client.get("/api/games/1/replay").status_code == 200
        assert client.get("/api/games/1/frames").json()["frames"]
    stored()
    assert not frames.exists()


@pytest.mark.parametrize("size", ["lots", "-1G", "12"])
def test_serve_refuses_a_budget_it_cannot_read_in_one_line(arena_db, size):
    done = run_arena("serve", "--db", str(arena_db), "--frames-max-size", size, "--port", "0")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        f"error: --frames-max-size {size!r}: give a size such as 500M or 10G"
    )
