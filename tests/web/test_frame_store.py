"""The replay's frames built once per game: each seat's are cut from the referee's exactly as
``build_frames`` builds them for that seat, and the frames stored beside the database are
keyed by the game's content and the code, so another game under the same id (a replaced
database) or a changed engine never gets a stale piece."""

from __future__ import annotations

import gzip
import json
import threading

import pytest
from starlette.testclient import TestClient

from arena.storage.read_only import ReadOnlyDatabase
from arena.web import frame_store
from arena.web.app import create_app
from arena.web.replay import STORING_THREAD, build_frames, converter, raw_frames, seat_frames
from tests.web.conftest import altered_copy


@pytest.mark.parametrize("game_id", range(1, 7))
def test_a_seats_frames_cut_from_the_referees_are_the_seats_own(arena_db, game_id):
    game = ReadOnlyDatabase(arena_db).game(game_id)
    assert game is not None
    referee = raw_frames(game, None)
    for seat in range(game["num_players"]):
        cut = seat_frames(referee, seat)
        assert cut | {"frames": converter()(cut["frames"])} == build_frames(game, seat)


def test_a_replaced_game_under_the_same_id_is_built_anew(arena_db, tmp_path):
    """Frames stored for game 1 of one database are not served for game 1 of another that
    shares the frames directory: its content differs, so does its key."""
    frames_dir = tmp_path / "frames"
    first = altered_copy(arena_db, tmp_path / "first.db")
    with TestClient(create_app(first, warm_up=False, frames_dir=frames_dir)) as client:
        before = client.get("/api/games/1/frames", params={"count": 1}).json()["frames"][0]
    # The first server's background storing of game 1 ends first (a CI run saw it write its old
    # key again after the second server had removed it; two servers share no frames directory
    # unless told to).
    for thread in threading.enumerate():
        if thread.name == STORING_THREAD:
            thread.join(timeout=60)
    # The same id, another game: game 3's record (another engine, another deal) as game 1.
    second = altered_copy(
        arena_db,
        tmp_path / "second.db",
        "UPDATE game SET (game, rules_version, seed, options, actions, decision_seconds, "
        "comments) = (SELECT game, rules_version, seed, options, actions, decision_seconds, "
        "comments FROM game AS other WHERE other.id = 3) WHERE id = 1",
    )
    with TestClient(create_app(second, warm_up=False, frames_dir=frames_dir)) as client:
        after = client.get("/api/games/1/frames", params={"count": 1}).json()["frames"][0]
        game_3 = client.get("/api/games/3/frames", params={"count": 1}).json()["frames"][0]
    assert after != before
    assert after["views"] == game_3["views"]
    assert len(list(frames_dir.glob("1-*"))) == 1  # the stale pieces were removed


def test_a_changed_engine_changes_the_key(arena_db, monkeypatch):
    game = ReadOnlyDatabase(arena_db).game(1)
    assert game is not None
    key = frame_store.game_key(game)
    assert frame_store.game_key(dict(game)) == key  # the same content, the same key
    monkeypatch.setattr(frame_store, "_code_digest", lambda name: "another engine")
    assert frame_store.game_key(game) != key


def test_a_stored_piece_is_read_back_without_replaying(arena_db, tmp_path, monkeypatch):
    db = altered_copy(arena_db, tmp_path / "arena.db")
    with TestClient(create_app(db, warm_up=False)) as client:
        first = client.get("/api/games/2/replay", params={"seat": "0"}).json()
    stored = list((tmp_path / "arena.db.frames").glob("2-*/outline-0.json.gz"))
    assert len(stored) == 1
    assert json.loads(gzip.decompress(stored[0].read_bytes())) == first

    def no_replay(*args: object) -> None:
        raise AssertionError("replayed again")

    monkeypatch.setattr("arena.web.replay.raw_frames", no_replay)
    with TestClient(create_app(db, warm_up=False)) as client:
        assert client.get("/api/games/2/replay", params={"seat": "0"}).json() == first


def test_an_unwritable_frames_directory_keeps_the_frames_in_memory(arena_db, tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the frames directory would be")
    app = create_app(arena_db, warm_up=False, frames_dir=blocker / "frames")
    with TestClient(app) as client:
        response = client.get("/api/games/1/replay")
        assert response.status_code == 200
        assert client.get("/api/games/1/frames").json()["frames"]


def test_pieces_written_at_once_by_several_threads_are_all_kept(arena_db, tmp_path):
    """The background thread that stores every piece of a game and a visitor's request both
    find the game's directory missing: neither removes what the other just wrote."""
    game = ReadOnlyDatabase(arena_db).game(2)
    assert game is not None
    for attempt in range(20):
        store = frame_store.FrameStore(tmp_path / f"frames-{attempt}")
        start = threading.Barrier(8)

        def write(store: frame_store.FrameStore, start: threading.Barrier, piece: str) -> None:
            start.wait()
            store.write(game, piece, b"body")

        threads = [
            threading.Thread(target=write, args=(store, start, f"piece-{i}")) for i in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(store.read(game, f"piece-{i}") == b"body" for i in range(8))
