"""Start to ready of one sandboxed bot: from starting its process to its handshake's reply, as
``arena match`` pays it once per bot and game (docs/sandbox.md, "Start-up cost").

Starts random-python (or --bot DIR) --runs times in the sandbox and unconfined (--sandbox none),
alternating so that the machine's load falls on both alike, and prints the medians and their
difference; the last line is the sandbox's cost over an unconfined start.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import trio

from arena.bench import bench_parser
from arena.manifest import load_manifest
from arena.referee.botprocess import connect, run_bot
from arena.referee.limits import BotLimits
from arena.sandbox import SandboxPolicy
from arena.sandbox.tempdirs import new_match_dir, remove_tree

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bots" / "random-python"


async def _start_to_ready(bot_dir: Path, tool: str) -> float:
    spec = load_manifest(bot_dir)
    workdir = new_match_dir()
    try:
        started = time.perf_counter()
        async with run_bot(
            spec, 0, 1, workdir, limits=BotLimits(), sandbox=SandboxPolicy(tool=tool)
        ) as bot:
            client, _ = await connect(bot, "oregon", 30.0)
            ready = time.perf_counter() - started
            client.close()
        return ready
    finally:
        remove_tree(workdir)


async def _measure(bot_dir: Path, runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"bwrap": [], "none": []}
    await _start_to_ready(bot_dir, "bwrap")  # warm the page cache and the seccomp filter
    for _ in range(runs):
        for tool in times:
            times[tool].append(await _start_to_ready(bot_dir, tool))
    return times


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("sandbox", __doc__)
    parser.add_argument("--runs", type=int, default=20, help="starts of each kind (default 20)")
    parser.add_argument("--bot", type=Path, default=SAMPLE, help="bot directory (random-python)")
    args = parser.parse_args(argv)
    times = trio.run(_measure, args.bot, args.runs)
    medians = {tool: statistics.median(values) * 1000 for tool, values in times.items()}
    load = os.getloadavg()[0]
    for tool, values in times.items():
        low, high = min(values) * 1000, max(values) * 1000
        print(
            f"{tool:>5}: median {medians[tool]:.1f} ms, min {low:.1f} ms, max {high:.1f} ms "
            f"({len(values)} starts)"
        )
    print(
        f"start to ready, sandbox over none: {medians['bwrap'] - medians['none']:+.1f} ms "
        f"(median; load {load:.1f}, uid {os.geteuid()})"
    )


if __name__ == "__main__":
    main()
