"""What a hosted arena pays per upload request, before any queue (docs/hosting.md, "Cost"):
checking a token (one scrypt), judging a real bot's archive by every rule of the unpacking
(``unpack.check``, which the web runs on each upload), and refusing a zip bomb (4 files of
50 MiB of zeros in about 200 KiB). Medians over --runs; the last line is the token check's cost
(wall and CPU time).
"""

from __future__ import annotations

import io
import statistics
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from arena import tokens
from arena.bench import bench_parser
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


def main(argv: list[str]) -> None:
    parser = bench_parser("hosting", __doc__)
    parser.add_argument("--runs", type=int, default=20, help="measurements per figure")
    args = parser.parse_args(argv)
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

    def token_check() -> None:
        tokens.secret_matches(secret, made.salt, made.digest, made.cost)

    wall = _median_seconds(token_check, args.runs)
    cpu = _median_seconds(token_check, args.runs, time.process_time)  # what a busy machine hides
    print(
        f"token check (scrypt N/r/p {made.cost.replace(',', '/')}): {wall * 1000:.1f} ms, "
        f"{cpu * 1000:.1f} ms of CPU"
    )
