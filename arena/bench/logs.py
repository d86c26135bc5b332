"""What a bot's log costs the referee (``arena.referee.log_sink``): a child process writes as
fast as it can (``head -c N /dev/zero``) into a log sink, as a flooding bot would, once under
the cap (every byte kept in the file) and once far past it (dropped). Per case: the wall time,
the throughput and the referee process's own CPU (the drain thread; the writer's CPU is its
own), against the writer writing straight into a file, as bots did before the sink. Medians
over --runs.
"""

from __future__ import annotations

import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from arena.bench import bench_parser
from arena.log_names import numbered
from arena.referee.log_sink import LogSink, create_log


def _through_sink(directory: Path, size: int, cap: int) -> tuple[float, float]:
    """Wall and referee CPU seconds to take ``size`` bytes from a writer into a sink."""
    sink = LogSink(*create_log(directory, numbered("bench")), cap=cap)
    wall, cpu = time.perf_counter(), time.process_time()
    writer = subprocess.Popen(["head", "-c", str(size), "/dev/zero"], stdout=sink.write_fd)
    sink.started()
    writer.wait()
    sink.close()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sink.path.unlink()
    return wall, cpu


def _straight(directory: Path, size: int) -> float:
    """Wall seconds for the writer to write ``size`` bytes into a file it is given."""
    path = directory / "straight.log"
    with open(path, "wb") as file:
        started = time.perf_counter()
        subprocess.run(["head", "-c", str(size), "/dev/zero"], stdout=file, check=True)
        wall = time.perf_counter() - started
    path.unlink()
    return wall


def main(argv: list[str]) -> None:
    parser = bench_parser("logs", __doc__)
    parser.add_argument("--mib", type=int, default=256, help="MiB the writer writes per run")
    parser.add_argument("--runs", type=int, default=5, help="measurements per figure")
    args = parser.parse_args(argv)
    size = args.mib << 20
    with tempfile.TemporaryDirectory(prefix="arena-bench-logs-") as scratch:
        directory = Path(scratch)
        straight = statistics.median(_straight(directory, size) for _ in range(args.runs))
        print(f"writer straight into a file: {args.mib} MiB in {straight:.3f} s")
        for case, cap in (
            ("kept (under the cap)", size * 2),
            ("dropped (past a 1 MiB cap)", 1 << 20),
        ):
            runs = [_through_sink(directory, size, cap) for _ in range(args.runs)]
            wall = statistics.median(run[0] for run in runs)
            cpu = statistics.median(run[1] for run in runs)
            print(
                f"through the sink, {case}: {args.mib} MiB in {wall:.3f} s "
                f"({args.mib / wall:,.0f} MiB/s), referee CPU {cpu * 1000:.0f} ms "
                f"({cpu * 1000 / args.mib:.2f} ms/MiB)"
            )
