"""The games in play as the runner writes them for spectators (``arena.tournament.live``) and as
the web reads them (``arena.storage.running``): a row within a second of a game's start, its
actions as the referee's state holds them, the stored game's id at its end, nothing left of
abandoned games, and ghosts of killed processes neither shown nor kept."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
import trio

from arena.storage import running
from arena.storage.database import open_database
from arena.storage.models import Tournament
from arena.storage.read_only import ReadOnlyDatabase
from arena.storage.run_lock import running_alone
from arena.tournament.live import LiveGames
from arena.tournament.schedule import ScheduledGame
from engine.registry import get_game
from tests.tournament.records import register_bots

SEED = 11


def _scheduled(deal: int) -> ScheduledGame:
    return ScheduledGame(key=f"pod 0+1 deal {deal}", pod="0+1", deal=deal, seed=SEED, seats=(1, 0))


def _shown(path: Path) -> list[dict]:
    with ReadOnlyDatabase(path).session() as session:
        return running.running(session)


def _row(path: Path, row_id: int) -> dict | None:
    with ReadOnlyDatabase(path).session() as session:
        return running.one(session, row_id)


def test_games_in_play_are_written_as_played_and_marked_when_recorded(tmp_path: Path):
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    ids = register_bots(database, ["a", "b"])
    live = LiveGames(database, None, "oregon", {}, [("a", ids[0]), ("b", ids[1])], interval=0.05)
    state = get_game("oregon").new_game(2, SEED)
    rng = random.Random(1)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            await nursery.start(live.keep)
            first, second = live.started(_scheduled(0)), live.started(_scheduled(1))
            first.match_started(state, ["b", "a"])  # the referee's state, played in place
            await trio.sleep(0.2)
            [shown_first, shown_second] = _shown(path)
            assert [seat["bot"] for seat in shown_first["seats"]] == ["b", "a"]
            assert shown_first["decisions"] == 0 and shown_first["state"] == "running"
            assert "seed" not in shown_first and "actions" not in shown_first
            for _ in range(7):
                state.apply_index(rng.randrange(len(state.legal_actions())))
            await trio.sleep(0.2)
            row = _row(path, shown_first["id"])
            assert row is not None
            assert row["actions"] == state.history and row["seed"] == SEED
            live.ended(first, 42)  # recorded as game 42
            live.ended(second, None)  # abandoned
            await trio.sleep(0.2)
            assert _shown(path) == []
            recorded = _row(path, shown_first["id"])
            assert recorded is not None
            assert recorded["state"] == "recorded" and recorded["game_id"] == 42
            assert _row(path, shown_second["id"]) is None
            live.started(_scheduled(2))  # still in play when the tournament stops
            await trio.sleep(0.2)
            assert len(_shown(path)) == 1
            nursery.cancel_scope.cancel()

    trio.run(main)
    assert _shown(path) == []  # the game cut short left nothing behind
    database.close()


def test_a_killed_writer_leaves_a_ghost_that_is_hidden_then_removed(tmp_path: Path):
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    ids = register_bots(database, ["a", "b"])
    live = LiveGames(database, None, "oregon", {}, [("a", ids[0]), ("b", ids[1])])
    live.started(_scheduled(0))
    trio.run(live.flush)  # written, then never again: as if the process was killed
    [ghost] = _shown(path)
    stale = running.STALE_SECONDS + 5
    with sqlite3.connect(path) as raw:
        raw.execute(f"UPDATE running_game SET heartbeat = datetime(heartbeat, '-{stale} seconds')")
    assert _shown(path) == []
    row = _row(path, ghost["id"])
    assert row is not None and row["state"] == "stale"
    # the next writer removes it
    other = LiveGames(database, None, "oregon", {}, [])
    trio.run(other.flush, True)
    assert _row(path, ghost["id"]) is None
    database.close()


def test_the_web_reads_an_older_database_without_games_in_play(tmp_path: Path):
    path = tmp_path / "arena.db"
    open_database(path, create=True).close()
    with sqlite3.connect(path) as raw:  # as schema 4 left it
        raw.execute("DROP TABLE running_game")
        raw.execute("UPDATE schema_version SET version = 4")
    assert _shown(path) == [] and _row(path, 1) is None
    open_database(path, create=True).close()  # migrated: the table is back
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM running_game").fetchone() == (0,)


def test_a_restarted_ladder_removes_its_own_ghosts_at_once(tmp_path: Path):
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    ids = register_bots(database, ["a", "b"])
    seats = [{"bot": "a", "version": ids[0]}, {"bot": "b", "version": ids[1]}]
    with database.write() as session:
        ladder = Tournament(name="ladder", game="oregon", settings={}, seed=1)
        other = Tournament(name="other", game="oregon", settings={}, seed=1)
        session.add_all([ladder, other])
        session.flush()
        rows = {
            owner: running.add(
                session, running.NewRunningGame(tid, "k", "oregon", "1", {}, 1, seats)
            )
            for owner, tid in [
                ("ghost", ladder.id),
                ("recorded", ladder.id),
                ("other", other.id),
                ("match", None),
            ]
        }
        running.recorded(session, rows["recorded"], [], game_id=1)
        ladder_id = ladder.id
    assert ladder_id is not None
    with database.write() as session:
        running.remove_unrecorded(session, ladder_id)
    # every heartbeat is fresh: only the ladder's unrecorded row goes (its run was killed)
    assert _row(path, rows["ghost"]) is None
    assert all(_row(path, rows[owner]) for owner in ("recorded", "other", "match"))
    database.close()


def test_a_run_removes_a_killed_runs_ghosts_as_it_starts_and_however_it_ends(tmp_path: Path):
    """A run holds its tournament's run lock, so its unrecorded games in play are a killed
    run's ghosts. A run stopped before it played (a SIGTERM while it started) left them behind
    (scripts/soak-ladder); now they go as it starts, and what is left as it ends, even by an
    interrupt."""
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    ids = register_bots(database, ["a", "b"])
    seats = [{"bot": "a", "version": ids[0]}, {"bot": "b", "version": ids[1]}]

    def add(tournament_id: int | None) -> int:
        with database.write() as session:
            new = running.NewRunningGame(tournament_id, "k", "oregon", "1", {}, 1, seats)
            return running.add(session, new)

    with database.write() as session:
        ladder = Tournament(name="ladder", game="oregon", settings={}, seed=1)
        other = Tournament(name="other", game="oregon", settings={}, seed=1)
        session.add_all([ladder, other])
        session.flush()
        ladder_id, other_id = ladder.id or 0, other.id or 0
    ghost, recorded, others = add(ladder_id), add(ladder_id), add(other_id)
    with database.write() as session:
        running.recorded(session, recorded, [], game_id=1)
    seen: list[bool] = []

    @running_alone("ladder")
    async def stopped_at_once(database, tournament_id: int) -> None:
        seen.append(_row(path, ghost) is None)
        add(tournament_id)  # as if left by this run's writer
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        trio.run(stopped_at_once, database, ladder_id)
    assert seen == [True]
    with sqlite3.connect(path) as raw:
        left = raw.execute("SELECT id FROM running_game ORDER BY id").fetchall()
    assert left == [(recorded,), (others,)]  # the recorded game's and another tournament's
    database.close()
