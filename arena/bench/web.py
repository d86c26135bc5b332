"""Benchmark of the web arena's page loads.

    python -m arena.bench web --games 1000 --decisions 200

Fills a fresh SQLite file with ``--games`` rated 4-player Oregon games between 8 bots (synthetic
results of known strengths) and one real 3-player Merkator game of about ``--decisions``
decisions (random play through the engine), serves it with ``arena serve``'s app under uvicorn on a
loopback port, and times over real HTTP:

* the leaderboard page: the first request (``leaderboard_first_s``, which may wait for the fit
  the server starts at once in the background: ratings with their bootstrap, and importing
  scipy) and warm (cached until a game is recorded), and its JSON twin;
* the replay: the page, its outline (cold: the game is replayed and every frame built; warm:
  cached) and one chunk of frames, as the referee and as one seat.

With Chromium and Playwright installed it also times the browser: from navigation to the load
event for the leaderboard, and to the first frame drawn for the replay viewer. Every warm figure
is the median of ``--repeat`` requests. The last line is machine-readable.
"""

from __future__ import annotations

import random
import shutil
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from arena.bench import bench_parser
from arena.bench.storage import _bulk_store, _register
from arena.storage.database import Database, open_database
from arena.storage.models import GameOutcome, GameRecord, GameStatus, SeatRecordRow
from engine.registry import get_game
from leaderboard.synthetic import round_robin

PLAYERS = 4  # of the leaderboard's games
REPLAY_GAME, REPLAY_PLAYERS = "merkator", 3  # random play: about 150-270 decisions


def _real_game(database: Database, decisions: int, version_ids: list[int]) -> int:
    """Store a real random-play game whose length is closest to ``decisions``."""
    engine = get_game(REPLAY_GAME)
    best = None
    for seed in range(200):
        state = engine.new_game(REPLAY_PLAYERS, seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply_index(rng.randrange(len(state.legal_actions())))
        if best is None or abs(len(state.history) - decisions) < abs(len(best.history) - decisions):
            best = state
        if abs(len(best.history) - decisions) <= 2:
            break
    assert best is not None
    result = best.result()
    with database.write() as session:
        row = GameRecord(
            group_key="bench/replay",
            game=REPLAY_GAME,
            rules_version=engine.rules_version,
            options=dict(best.options),
            seed=best.seed,
            num_players=REPLAY_PLAYERS,
            status=GameStatus.FINISHED,
            actions=list(best.history),
            termination=GameOutcome.COMPLETED,
            duration=1.0,
            decision_seconds=[0.001] * len(best.history),
            comments=[""] * len(best.history),
        )
        session.add(row)
        session.flush()
        assert row.id is not None
        session.add_all(
            SeatRecordRow(
                game_id=row.id,
                seat=seat,
                bot_version_id=version_ids[seat],
                score=result.scores[seat],
                rank=result.ranks[seat],
                outcome="FINISHED",
                reason="",
                time_used=0.1,
                decisions=len(best.history) // REPLAY_PLAYERS,
            )
            for seat in range(REPLAY_PLAYERS)
        )
        return row.id


def _timed(fetch: Callable[[], object]) -> float:
    start = time.perf_counter()
    fetch()
    return time.perf_counter() - start


def _get(url: str) -> Callable[[], bytes]:
    def fetch() -> bytes:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.read()

    return fetch


def _median(fetch: Callable[[], object], repeat: int) -> float:
    return statistics.median(_timed(fetch) for _ in range(repeat))


def _browser_times(base: str, game_id: int, repeat: int) -> dict[str, float] | None:
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    times: dict[str, list[float]] = {"browser_leaderboard_s": [], "browser_replay_s": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        for _ in range(repeat):
            start = time.perf_counter()
            page.goto(f"{base}/leaderboard", wait_until="load")
            times["browser_leaderboard_s"].append(time.perf_counter() - start)
            start = time.perf_counter()
            page.goto(f"{base}/games/{game_id}?d=100", wait_until="commit")
            page.wait_for_function(
                "() => document.getElementById('replay').dataset.shown === '100'"
            )
            times["browser_replay_s"].append(time.perf_counter() - start)
        browser.close()
    return {key: statistics.median(values) for key, values in times.items()}


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("web", __doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    import uvicorn

    from arena.web.app import create_app

    strengths = {f"bot{i}": 1300.0 + 50.0 * i for i in range(8)}
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "bench.db"
        database = open_database(path, create=True)
        ids = _register(database, list(strengths))
        _bulk_store(database, round_robin(strengths, PLAYERS, args.games, seed=1), ids)
        game_id = _real_game(
            database, args.decisions, [ids[name] for name in list(ids)[:REPLAY_PLAYERS]]
        )
        with database.read() as session:
            decisions = len(session.get(GameRecord, game_id).actions)  # type: ignore[union-attr]
        database.close()

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(
            uvicorn.Config(create_app(path), host="127.0.0.1", port=port, log_level="warning")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        base = f"http://127.0.0.1:{port}"
        replay = f"{base}/api/games/{game_id}"
        figures = {
            "leaderboard_first_s": _timed(_get(f"{base}/leaderboard")),
            "leaderboard_warm_s": _median(_get(f"{base}/leaderboard"), args.repeat),
            "api_leaderboard_warm_s": _median(_get(f"{base}/api/leaderboard"), args.repeat),
            "replay_page_s": _median(_get(f"{base}/games/{game_id}"), args.repeat),
            "replay_outline_cold_s": _timed(_get(f"{replay}/replay")),
            "replay_outline_warm_s": _median(_get(f"{replay}/replay"), args.repeat),
            "replay_chunk_warm_s": _median(_get(f"{replay}/frames?start=100"), args.repeat),
            "seat_outline_cold_s": _timed(_get(f"{replay}/replay?seat=1")),
        }
        browser = _browser_times(base, game_id, args.repeat)
        if browser:
            figures.update(browser)
        server.should_exit = True
        thread.join(timeout=10)
    print(
        f"{args.games} rated {PLAYERS}-player games on one board; replay of a "
        f"{decisions}-decision {REPLAY_GAME} game ({REPLAY_PLAYERS} players)"
    )
    for name, seconds in figures.items():
        print(f"  {name:24} {seconds * 1000:8.1f} ms")
    print(
        "web "
        + " ".join(f"{name}={seconds:.4f}" for name, seconds in figures.items())
        + f" games={args.games} decisions={decisions}"
    )


if __name__ == "__main__":
    main()
