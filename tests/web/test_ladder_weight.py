"""/ladder and /api/ladder stay about the same size however many games the ladder plays: the
Elo chart's lines are thinned to a bounded number of points each (outside review C, L3: at 880
games the page weighed 444 KB, mostly the chart's history with a point per entrant and game,
and the page's script fetches it again every 15 s while games are recorded). Each line keeps
its first point, its last (the entrant's Elo now, exact) and evenly spaced ones between."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import arena.web.ladder
from arena.records import Outcome
from arena.storage import ladders, tournaments
from arena.storage.database import open_database
from arena.storage.games import record_game
from arena.storage.read_only import GameFilter, ReadOnlyDatabase
from arena.storage.target import DatabaseTarget
from arena.web.app import create_app
from arena.web.ladder import CHART_LINES, LATEST_GAMES, line_points
from tests.tournament.helpers import SAMPLE_BOTS, renamed_bot, run_cli
from tests.tournament.records import match_record, register_bots
from tests.tournament.test_withdrawal import submit

ENTRANTS = ("alpha", "beta", "gamma", "delta")
FEW, MANY = 600, 4_000  # games


def add_games(db: Path, ladder_id: int, count: int, seed: int = 1) -> None:
    """``count`` more finished, rated 2-player games of the ladder, 30 s apart: copies of its
    first game between random pairs of its entrants, each with its Elo updates (a random walk,
    kept in ``elo_rating`` too). Written by SQL: thousands of games in a second."""
    rng = random.Random(seed)
    with sqlite3.connect(db) as raw:
        columns = [
            row[1]
            for row in raw.execute("PRAGMA table_info(game)")
            if row[1] not in ("id", "schedule_key", "finished_at")
        ]
        versions = [
            version
            for (version,) in raw.execute(
                "SELECT bot_version_id FROM tournament_entrant WHERE tournament_id = ?",
                (ladder_id,),
            )
        ]
        elo = dict(raw.execute("SELECT bot_version_id, rating FROM elo_rating WHERE players = 2"))
        (newest, first) = raw.execute(
            "SELECT max(finished_at), min(id) FROM game WHERE tournament_id = ?", (ladder_id,)
        ).fetchone()
        start = datetime.fromisoformat(newest)
        for number in range(count):
            game_id = raw.execute(
                f"INSERT INTO game ({', '.join(columns)}, schedule_key, finished_at) "
                f"SELECT {', '.join(columns)}, ?, ? FROM game WHERE id = ?",
                (
                    f"copy {seed} {number}",
                    (start + timedelta(seconds=30 * (number + 1))).isoformat(" "),
                    first,
                ),
            ).lastrowid
            for seat, version in enumerate(rng.sample(versions, 2)):
                raw.execute(
                    "INSERT INTO seat VALUES (?, ?, ?, ?, ?, 'FINISHED', '', 0.1, 10)",
                    (game_id, seat, version, 10.0 - seat, seat + 1),
                )
                before, elo[version] = elo[version], elo[version] + rng.uniform(-16, 16)
                raw.execute(
                    "INSERT INTO rating_history (game_id, game, players, bot_version_id, before, "
                    "after) VALUES (?, 'oregon', 2, ?, ?, ?)",
                    (game_id, version, before, elo[version]),
                )
        for version, rating in elo.items():
            raw.execute(
                "UPDATE elo_rating SET rating = ? WHERE bot_version_id = ? AND players = 2",
                (rating, version),
            )


@pytest.fixture(scope="module")
def ladder_db(tmp_path_factory) -> Path:
    """A real 2-player Oregon ladder of four entrants that played 2 games."""
    return played_ladder(tmp_path_factory.mktemp("ladder-weight"), ENTRANTS, games=2)


def played_ladder(directory: Path, entrants: Sequence[str], games: int) -> Path:
    """A real 2-player Oregon ladder of copies of random-python named ``entrants`` that played
    ``games`` games, in ``directory``: its database."""
    db = directory / "arena.db"
    for name in entrants:
        submit(db, renamed_bot(SAMPLE_BOTS / "random-python", directory / name, name))
    made = run_cli("ladder", "--game", "oregon", "--until", str(games), "--sandbox", "none",
                   "--db", str(db))  # fmt: skip
    assert made.exit_code == 0, made.output
    return db


def _sizes(db: Path) -> tuple[int, int, dict]:
    with TestClient(create_app(db, warm_up=False)) as client:
        page = client.get("/ladder")
        api = client.get("/api/ladder")
    assert page.status_code == api.status_code == 200
    return len(page.content), len(api.content), api.json()


def _lines(history: list[dict]) -> dict[tuple[int, int], list[dict]]:
    lines: dict[tuple[int, int], list[dict]] = {}
    for point in history:
        lines.setdefault((point["bot_version_id"], point["players"]), []).append(point)
    return lines


def test_the_ladder_page_weighs_the_same_after_many_more_games(ladder_db, tmp_path):
    db = tmp_path / "arena.db"
    with sqlite3.connect(ladder_db) as original, sqlite3.connect(db) as copy:
        original.backup(copy)
    add_games(db, 1, FEW - 2)
    page_few, api_few, data = _sizes(db)
    assert data["ladder"]["games"] == FEW
    add_games(db, 1, MANY - FEW, seed=2)
    page_many, api_many, data = _sizes(db)
    assert data["ladder"]["games"] == MANY
    # before: 1,200 points at 600 games, 5,000 (the newest) at 4,000 games, 4 times the weight
    assert api_many < 1.5 * api_few, (api_few, api_many)
    assert page_many < 1.5 * page_few, (page_few, page_many)
    # 8,000 Elo updates; drawn: at most line_points per entrant
    history = data["ladder"]["rating_history"]
    most = line_points(len(ENTRANTS))
    assert all(len(line) <= most for line in _lines(history).values())
    assert len(history) <= most * len(ENTRANTS)
    # about 120 bytes a point in the JSON, as many in the page (which holds the data once)
    assert api_many < 30_000 + 150 * most * len(ENTRANTS), api_many
    assert page_many < 60_000 + 150 * most * len(ENTRANTS), page_many


def test_the_page_carries_the_charts_history_once(ladder_db, tmp_path):
    """In the page's data (#page-data, which static/ladder.js draws from), not a second time in
    a copy of its own for the chart."""
    db = tmp_path / "arena.db"
    with sqlite3.connect(ladder_db) as original, sqlite3.connect(db) as copy:
        original.backup(copy)
    add_games(db, 1, 300)
    with TestClient(create_app(db, warm_up=False)) as client:
        page = client.get("/ladder").text
        history = client.get("/api/ladder").json()["ladder"]["rating_history"]
    assert len(history) > 100
    for point in (history[0], history[len(history) // 2], history[-1]):
        assert page.count(json.dumps(point, sort_keys=True)) == 1, point


def test_each_line_keeps_its_first_and_last_points_and_evenly_spaced_ones(ladder_db, tmp_path):
    db = tmp_path / "arena.db"
    with sqlite3.connect(ladder_db) as original, sqlite3.connect(db) as copy:
        original.backup(copy)
    add_games(db, 1, 3_000)
    _, _, data = _sizes(db)
    lines = _lines(data["ladder"]["rating_history"])
    with sqlite3.connect(db) as raw:
        now = dict(raw.execute("SELECT bot_version_id, rating FROM elo_rating WHERE players = 2"))
        updates = {
            version: [
                (game, after)
                for game, after in raw.execute(
                    "SELECT game_id, after FROM rating_history WHERE bot_version_id = ? "
                    "ORDER BY id",
                    (version,),
                )
            ]
            for version in now
        }
    assert {version for version, _ in lines} == set(now)
    for (version, players), points in lines.items():
        assert players == 2
        games = [point["game_id"] for point in points]
        assert games == sorted(games)
        # the last point is the entrant's Elo now, the first its first game's
        assert points[-1]["elo"] == round(now[version], 1)
        assert (points[-1]["game_id"], points[-1]["elo"]) == (
            updates[version][-1][0],
            round(updates[version][-1][1], 1),
        )
        assert points[0]["game_id"] == updates[version][0][0]
        # between them, every S-th of the entrant's games
        positions = [[game for game, _ in updates[version]].index(game) for game in games[:-1]]
        step = positions[1] - positions[0]
        assert positions == list(range(0, len(updates[version]) - 1, step))
        assert len(updates[version]) > 500 and len(points) <= line_points(len(ENTRANTS))
        assert all(point["finished_at"].endswith("+00:00") for point in points)


def _expected(ids: list[tuple[int, int, int]], per_series: int) -> list[int]:
    """The ids ``ladders.elo_history`` keeps of (id, version, players) in id order: per line the
    first, the last, and every S-th, S the smallest power of two keeping at most
    ``per_series``."""
    lines: dict[tuple[int, int], list[int]] = {}
    for update, version, players in ids:
        lines.setdefault((version, players), []).append(update)
    kept = []
    for line in lines.values():
        step = 1
        while len(range(0, len(line) - 1, step)) + 1 > max(per_series, 2):
            step *= 2
        kept += [update for i, update in enumerate(line) if i % step == 0 or i == len(line) - 1]
    return sorted(kept)


def test_the_thinning_on_both_databases(db_target: DatabaseTarget):
    """``ladders.elo_history`` in the database (window functions), per entrant and board, and
    only the ladder's games."""
    database = open_database(db_target, create=True)
    try:
        ids = register_bots(database, ["a", "b", "c", "d"])
        with database.write() as session:
            entrants = []  # the ladder's and the other tournament's entrants: none needed
            ladder = tournaments.create(session, "ladder", "oregon", 7, {"ladder": {}}, entrants)
            other = tournaments.create(session, "other", "oregon", 8, {}, entrants)
            ladder_id, other_id = ladder.id, other.id
        rng = random.Random(3)
        ladder_games = set()
        for number in range(90):
            players = 3 if number % 5 == 0 else 2
            ranks = rng.sample(range(1, players + 1), players)
            game_id = record_game(
                database,
                match_record(ranks, [Outcome.FINISHED] * players, seed=number),
                rng.sample(ids, players),
                group_key=f"g{number}",
                tournament_id=other_id if number % 7 == 0 else ladder_id,
                schedule_key=f"k{number}",
            )
            if number % 7:
                ladder_games.add(game_id)
        with database.read() as session:
            everything = ladders.elo_history(session, ladder_id or 0, 10**9)
            assert {update.game_id for update, _ in everything} == ladder_games
            assert len(everything) == sum(3 if n % 5 == 0 else 2 for n in range(90) if n % 7)
            rows = [(u.id or 0, u.bot_version_id, u.players) for u, _ in everything]
            assert [u.id for u, _ in everything] == sorted(u.id or 0 for u, _ in everything)
            for per_series in (1, 2, 3, 5, 8, 20):
                kept = ladders.elo_history(session, ladder_id or 0, per_series)
                assert [u.id for u, _ in kept] == _expected(rows, per_series), per_series
                assert all(finished is not None for _, finished in kept)
                # some lines only (the chart's top entrants): those lines, thinned alike
                only = {(ids[0], 2), (ids[2], 3), (ids[3], 7)}
                some = ladders.elo_history(session, ladder_id or 0, per_series, only)
                assert some and [u.id for u, _ in some] == [
                    u.id for u, _ in kept if (u.bot_version_id, u.players) in only
                ]
            assert ladders.elo_history(session, ladder_id or 0, 5, set()) == []
    finally:
        database.close()


def test_every_entrants_latest_games_in_one_query_are_the_listings(ladder_db, tmp_path):
    """The ladder page lists each entrant's latest games: a query each took seconds at 211
    entrants (outside review K), one query now gives the same games as the listing filtered
    by the bot, newest first, a game where the bot held two seats once."""
    db = tmp_path / "arena.db"
    with sqlite3.connect(ladder_db) as original, sqlite3.connect(db) as copy:
        original.backup(copy)
    add_games(db, 1, 40)
    with sqlite3.connect(db) as raw:  # the newest game: alpha against itself
        (game_id,) = raw.execute("SELECT max(id) FROM game").fetchone()
        (alpha,) = raw.execute(
            "SELECT v.id FROM bot_version v JOIN bot b ON b.id = v.bot_id WHERE b.name = 'alpha'"
        ).fetchone()
        raw.execute("UPDATE seat SET bot_version_id = ? WHERE game_id = ?", (alpha, game_id))
    reader = ReadOnlyDatabase(db)
    latest = reader.latest_games_of_bots(1, [*ENTRANTS, "nobody"], LATEST_GAMES)
    for name in ENTRANTS:
        listed = reader.games(GameFilter(bot=name, tournament=1, limit=LATEST_GAMES))["games"]
        assert latest[name] == listed, name
    assert [game["id"] for game in latest["alpha"]][:1] == [game_id]
    assert latest["nobody"] == []
    with TestClient(create_app(db, warm_up=False)) as client:
        boards = client.get("/api/ladder").json()["ladder"]["boards"]
    for row in boards[0]["rows"]:
        assert [g["id"] for g in row["latest_games"]] == [g["id"] for g in latest[row["bot"]]]


def test_every_entrants_latest_games_on_both_databases(db_target: DatabaseTarget):
    """The one query (a window function, a bot in two seats of a game counted once) on SQLite
    and PostgreSQL: each bot's latest games of the tournament asked for, as the listing."""
    database = open_database(db_target, create=True)
    try:
        ids = register_bots(database, ["a", "b", "c"])
        with database.write() as session:
            ladder = tournaments.create(session, "ladder", "oregon", 7, {"ladder": {}}, [])
            other = tournaments.create(session, "other", "oregon", 8, {}, [])
            ladder_id, other_id = ladder.id or 0, other.id
        rng = random.Random(5)
        for number in range(30):
            seated = [ids[0], ids[0]] if number % 6 == 0 else rng.sample(ids, 2)
            record_game(
                database,
                match_record([1, 2], [Outcome.FINISHED] * 2, seed=number),
                seated,
                group_key=f"g{number}",
                tournament_id=other_id if number % 4 == 0 else ladder_id,
                schedule_key=f"k{number}",
            )
    finally:
        database.close()
    reader = ReadOnlyDatabase(db_target)
    latest = reader.latest_games_of_bots(ladder_id, ["a", "b", "c"], 4)
    for name in ("a", "b", "c"):
        listed = reader.games(GameFilter(bot=name, tournament=ladder_id, limit=4))["games"]
        assert latest[name] == listed and len(listed) == 4, name


def test_the_ladder_page_shows_each_boards_top_rows(ladder_db):
    """As the leaderboard: a page shows each board's first rows (``rows=N``, 50 by default),
    a link to all of them, and asks for the latest games of those only; the JSON gives all."""
    with TestClient(create_app(ladder_db, warm_up=False)) as client:
        full = client.get("/api/ladder").json()["ladder"]["boards"][0]
        assert len(full["rows"]) == full["total_rows"] == len(ENTRANTS)
        top = client.get("/api/ladder", params={"rows": 2}).json()["ladder"]["boards"][0]
        assert top["rows"] == full["rows"][:2] and top["total_rows"] == len(ENTRANTS)
        page = client.get("/ladder", params={"rows": 2}).text
        assert "The top 2 of 4" in page and "rows=all" in page
        assert "The top" not in client.get("/ladder").text
        assert client.get("/ladder", params={"rows": "0"}).status_code == 400
        assert client.get("/api/ladder", params={"rows": "x"}).status_code == 400


def test_the_chart_of_a_ladder_of_many_entrants_draws_the_top_of_each_board(
    ladder_db, tmp_path, monkeypatch
):
    """A line per entrant and board was no chart at 200 entrants (outside review K): past
    ``CHART_LINES`` entrants (10) the page's chart draws the top ones of each board, each line
    with the points of that many lines, and links to all of them (``chart=all``); the JSON
    draws all unless asked (``chart=top``). No other count is taken: each would be a read of
    the whole history, cached apart, and cycling counts emptied the cache."""
    db = tmp_path / "arena.db"
    with sqlite3.connect(ladder_db) as original, sqlite3.connect(db) as copy:
        original.backup(copy)
    add_games(db, 1, 600)
    with TestClient(create_app(db, warm_up=False)) as client:
        assert len(ENTRANTS) <= CHART_LINES
        assert "all 4 entrants" not in client.get("/ladder").text  # 4 <= CHART_LINES: all
        monkeypatch.setattr(arena.web.ladder, "CHART_LINES", 2)  # a ladder of "many" entrants
        everything = client.get("/api/ladder").json()["ladder"]
        top = client.get("/api/ladder", params={"chart": "top"}).json()["ladder"]
        page = client.get("/ladder").text
        every_line = client.get("/ladder", params={"chart": "all"}).text
        for bad in ("2", "0", "ten", "ALL"):
            assert client.get("/ladder", params={"chart": bad}).status_code == 400, bad
            assert client.get("/api/ladder", params={"chart": bad}).status_code == 400, bad
    assert everything["chart"] == {"top": None, "entrants": len(ENTRANTS)}
    assert len(_lines(everything["rating_history"])) == len(ENTRANTS)
    assert top["chart"] == {"top": 2, "entrants": len(ENTRANTS)}
    leaders = {(row["version_id"], 2) for row in everything["boards"][0]["rows"][:2]}
    lines = _lines(top["rating_history"])
    assert set(lines) == leaders
    # each of the 2 lines gets 2 lines' share of the points, and ends at the entrant's Elo now
    assert all(len(line) <= line_points(2) for line in lines.values())
    for (version, _), line in lines.items():
        full = _lines(everything["rating_history"])[version, 2]
        assert line[-1] == full[-1] and line[0] == full[0]
    assert set(top["labels"]) == {str(version) for version, _ in leaders}
    assert "Elo of the top 2 entrants of each board" in page
    assert "chart=all#rating-over-time" in page and "all 4 entrants" in page
    assert "all 4 entrants" not in every_line and "Elo of each entrant" in every_line
