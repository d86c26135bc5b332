"""Benchmark of the web arena's page loads.

    python -m arena.bench web --games 1000 --decisions 350

Fills a fresh SQLite file with ``--games`` rated 4-player Oregon games between ``--bots`` bots
(default 8; synthetic results of known strengths) and one real 4-player Merkator game of about
``--decisions`` decisions (random play through the engine), serves it with ``arena serve``'s app
under uvicorn on a loopback port, and times over real HTTP (asking for gzip, as a browser does):

* the leaderboard page: the first request (``leaderboard_first_s``, which may wait for the fit
  the server starts at once in the background: ratings with their bootstrap, and importing
  scipy) and warm (cached until a game is recorded), and its JSON twin; its size, gzipped and
  not, and with every row (``rows=all``: a page shows a board's top 50);
* the replay: the page, its outline and one chunk of frames, the first time ever (``first``:
  the game is replayed and its frames built and stored beside the database), warm (in the
  server's memory), and cold (``cold``: a restarted server, which reads the stored frames), as
  the referee and as one seat; and the bytes of a chunk as sent (gzipped) and unpacked.

With Chromium and Playwright installed it also times the browser, from navigation to the load
event for the leaderboard, and to decision 100 drawn for the replay viewer: the first time
ever, warm, and cold (a restarted server). Every warm figure is the median of ``--repeat``
requests. The last line is machine-readable.
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
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from arena.bench import bench_parser
from arena.bench.storage import _bulk_store, _register
from arena.storage.database import Database, open_database
from arena.storage.models import GameOutcome, GameRecord, GameStatus, SeatRecordRow
from arena.web.app import FRAME_CHUNK
from engine.registry import get_game
from leaderboard.synthetic import round_robin

PLAYERS = 4  # of the leaderboard's games
REPLAY_GAME, REPLAY_PLAYERS = "merkator", 4  # random play: about 250-400 decisions


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
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.read()

    return fetch


def _median(fetch: Callable[[], object], repeat: int) -> float:
    return statistics.median(_timed(fetch) for _ in range(repeat))


@contextmanager
def _served(path: Path) -> Iterator[str]:
    """``arena serve``'s app over ``path`` on a loopback port: a fresh server, nothing cached
    in its memory."""
    import uvicorn

    from arena.web.app import create_app

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
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _wait_stored(frames_dir: Path, decisions: int) -> None:
    """Until every seat's pieces of the game are stored (the server does it in the background
    after the first view): the outline and the chunks, as the referee and as each seat."""
    chunks = -(-(decisions + 1) // FRAME_CHUNK)
    wanted = (REPLAY_PLAYERS + 1) * (1 + chunks)
    deadline = time.monotonic() + 300
    while len(list(frames_dir.glob("*/*.json.gz"))) < wanted:
        if time.monotonic() > deadline:
            raise SystemExit(f"the frames were not stored in {frames_dir} within 300 s")
        time.sleep(0.05)


def _open_replay(page: Any, url: str) -> float:
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => document.getElementById('replay').dataset.shown === '100'")
    return time.perf_counter() - start


def _browser(playwright: Any) -> Any:
    chromium = shutil.which("chromium")
    if chromium is None:
        return None
    return playwright.chromium.launch(
        executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
    )


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("web", __doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", type=int, default=8, help="on the board (at least 4)")
    parser.add_argument("--decisions", type=int, default=350)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # no browser figures
        sync_playwright = None  # type: ignore[assignment]

    if args.bots < PLAYERS:
        parser.error(f"--bots must be at least {PLAYERS}")
    spread = 50.0 * 7 / (args.bots - 1)  # 1300 to 1650, as with the default 8
    strengths = {f"bot{i}": 1300.0 + spread * i for i in range(args.bots)}
    with tempfile.TemporaryDirectory() as directory, ExitStack() as stack:
        path = Path(directory) / "bench.db"
        frames_dir = Path(directory) / "bench.db.frames"
        database = open_database(path, create=True)
        ids = _register(database, list(strengths))
        _bulk_store(database, round_robin(strengths, PLAYERS, args.games, seed=1), ids)
        game_id = _real_game(
            database, args.decisions, [ids[name] for name in list(ids)[:REPLAY_PLAYERS]]
        )
        with database.read() as session:
            decisions = len(session.get(GameRecord, game_id).actions)  # type: ignore[union-attr]
        database.close()
        browser = None
        if sync_playwright is not None:
            browser = _browser(stack.enter_context(sync_playwright()))
        figures: dict[str, float] = {}
        sizes: dict[str, int] = {}

        def replay_times(base: str, when: str) -> None:
            replay = f"{base}/api/games/{game_id}"
            figures[f"replay_outline_{when}_s"] = _timed(_get(f"{replay}/replay"))
            figures[f"replay_chunk_{when}_s"] = _timed(_get(f"{replay}/frames?start=100"))
            figures[f"seat_outline_{when}_s"] = _timed(_get(f"{replay}/replay?seat=1"))
            figures[f"seat_chunk_{when}_s"] = _timed(_get(f"{replay}/frames?seat=1&start=100"))

        with _served(path) as base:
            figures["leaderboard_first_s"] = _timed(_get(f"{base}/leaderboard"))
            figures["leaderboard_warm_s"] = _median(_get(f"{base}/leaderboard"), args.repeat)
            sizes["leaderboard_gzipped_bytes"] = len(_get(f"{base}/leaderboard")())
            with urllib.request.urlopen(f"{base}/leaderboard", timeout=120) as plain:
                sizes["leaderboard_bytes"] = len(plain.read())
            with urllib.request.urlopen(f"{base}/leaderboard?rows=all", timeout=120) as plain:
                sizes["leaderboard_all_rows_bytes"] = len(plain.read())
            figures["api_leaderboard_warm_s"] = _median(
                _get(f"{base}/api/leaderboard"), args.repeat
            )
            figures["replay_page_s"] = _median(_get(f"{base}/games/{game_id}"), args.repeat)
            if browser is not None:  # the very first view is the browser's
                page = browser.new_page()
                figures["browser_replay_first_s"] = _open_replay(
                    page, f"{base}/games/{game_id}?d=100"
                )
                page.close()
            replay_times(base, "first")
            _wait_stored(frames_dir, decisions)
            replay = f"{base}/api/games/{game_id}"
            figures["replay_outline_warm_s"] = _median(_get(f"{replay}/replay"), args.repeat)
            figures["replay_chunk_warm_s"] = _median(
                _get(f"{replay}/frames?start=100"), args.repeat
            )
            sizes["chunk_gzipped_bytes"] = len(_get(f"{replay}/frames?start=100")())
            with urllib.request.urlopen(f"{replay}/frames?start=100", timeout=120) as plain:
                sizes["chunk_bytes"] = len(plain.read())
            if browser is not None:
                page = browser.new_page()
                start = time.perf_counter()
                page.goto(f"{base}/leaderboard", wait_until="load")
                figures["browser_leaderboard_s"] = time.perf_counter() - start
                figures["browser_replay_warm_s"] = statistics.median(
                    _open_replay(page, f"{base}/games/{game_id}?d=100") for _ in range(args.repeat)
                )
                page.close()
        # Cold: a restarted server, once its leaderboards are fitted (it starts them at once).
        with _served(path) as base:
            _get(f"{base}/leaderboard")()
            replay_times(base, "cold")
        if browser is not None:
            with _served(path) as base:
                _get(f"{base}/leaderboard")()
                page = browser.new_page()
                figures["browser_replay_cold_s"] = _open_replay(
                    page, f"{base}/games/{game_id}?d=100"
                )
                page.close()
    print(
        f"{args.games} rated {PLAYERS}-player games of {args.bots} bots on one board; replay of a "
        f"{decisions}-decision {REPLAY_GAME} game ({REPLAY_PLAYERS} players)"
    )
    for name, seconds in figures.items():
        print(f"  {name:24} {seconds * 1000:8.1f} ms")
    for name, size in sizes.items():
        print(f"  {name:24} {size / 1000:8.1f} KB")
    print(
        "web "
        + " ".join(f"{name}={seconds:.4f}" for name, seconds in figures.items())
        + " "
        + " ".join(f"{name}={size}" for name, size in sizes.items())
        + f" games={args.games} bots={args.bots} decisions={decisions}"
    )


if __name__ == "__main__":
    main()
