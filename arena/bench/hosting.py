"""What a hosted arena pays per upload request, before any queue (docs/hosting.md, "Cost"):
checking a token (one SHA-256), judging a real bot's archive by every rule of the unpacking
(``unpack.check``, which the web runs on each upload), and refusing a zip bomb (4 files of
50 MiB of zeros in about 200 KiB); and counting a request against the token's rate limit in
the database, allowed (a read, then a write transaction) and refused (the read alone): in a
fresh SQLite file, or with ``--db postgresql://...`` in that database (it gets an author
``bench-<random>``). Medians over --runs; the token check's cost is wall and CPU time.
"""

from __future__ import annotations

import io
import secrets
import statistics
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from arena import tokens
from arena.bench import bench_parser
from arena.storage import authors
from arena.storage.database import open_database
from arena.storage.rate_limits import RateLimit
from arena.storage.target import DatabaseTarget, PostgresUrl, parse_target
from arena.uploads.pack import pack
from arena.uploads.unpack import ArchiveError, check

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bots" / "search-python"


def _median_seconds(
    action: Callable[[], object], runs: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    times = []
    for _ in range(runs):
        started = clock()
        action()
        times.append(clock() - started)
    return statistics.median(times)


def _refused(path: Path) -> None:
    try:
        check(path)
    except ArchiveError:
        return
    raise AssertionError("the bomb was not refused")


def _rate_limit(target: DatabaseTarget, runs: int) -> None:
    database = open_database(target, create=True)
    try:
        with database.write() as session:
            made = authors.add(session, f"bench-{secrets.token_hex(4)}")
            public_id, _ = tokens.parse_token(made) or ("", "")
        allowed = RateLimit("bench-allowed", 10 * runs, 60.0)
        counted = _median_seconds(lambda: allowed.retry_after(database, public_id), runs)
        refusing = RateLimit("bench-refused", 1, 3600.0)
        refusing.retry_after(database, public_id)
        refused = _median_seconds(lambda: refusing.retry_after(database, public_id), runs)
    finally:
        database.close()
    kind = "SQLite" if database.is_sqlite else "PostgreSQL"
    print(
        f"rate limit on {kind}: a request counted {counted * 1000:.2f} ms, "
        f"one refused {refused * 1000:.2f} ms"
    )


def main(argv: list[str]) -> None:
    parser = bench_parser("hosting", __doc__)
    parser.add_argument("--runs", type=int, default=20, help="measurements per figure")
    parser.add_argument(
        "--db",
        type=parse_target,
        default=None,
        metavar="URL",
        help="a PostgreSQL database (postgresql://USER@HOST:PORT/DBNAME) to time the rate limit "
        "in, instead of a fresh SQLite file",
    )
    args = parser.parse_args(argv)
    if args.db is not None and not isinstance(args.db, PostgresUrl):
        parser.error("--db takes a postgresql:// URL (the SQLite file is always a fresh one)")
    made = tokens.make_token()
    _, secret = tokens.parse_token(made.text) or ("", "")
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as scratch:
        archive = Path(scratch) / "bot.tar.gz"
        archive.write_bytes(pack(SAMPLE))
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bomb:
            for number in range(4):  # each within the file limit: the ratio refuses them
                bomb.writestr(f"zeros-{number}", bytes(50 << 20))
        bomb_path = Path(scratch) / "bomb.zip"
        bomb_path.write_bytes(buffer.getvalue())
        judged = _median_seconds(lambda: check(archive), args.runs)
        print(
            f"judge {SAMPLE.name}'s archive ({archive.stat().st_size} bytes): "
            f"{judged * 1000:.1f} ms"
        )
        refused = _median_seconds(lambda: _refused(bomb_path), args.runs)
        print(
            f"refuse a zip bomb ({bomb_path.stat().st_size} bytes, 4 x 50 MiB of zeros): "
            f"{refused * 1000:.1f} ms"
        )
        _rate_limit(args.db or Path(scratch) / "arena.db", args.runs)

    def token_check() -> None:
        tokens.secret_matches(secret, made.salt, made.digest, made.cost)

    wall = _median_seconds(token_check, args.runs)
    cpu = _median_seconds(token_check, args.runs, time.process_time)  # what a busy machine hides
    print(f"token check ({made.cost}): {wall * 1e6:.1f} us, {cpu * 1e6:.1f} us of CPU")
