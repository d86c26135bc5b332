"""Start to ready of one sandboxed bot: from starting its process to its handshake's reply, as
``arena match`` pays it once per bot and game (docs/sandbox.md, "Cost").

Starts random-python (or --bot DIR) --runs times in the sandbox and unconfined (--sandbox none),
alternating so that the machine's load falls on both alike, and prints the medians and their
difference; the last line is the sandbox's cost over an unconfined start. With --chain, the
launcher chain alone (cgroup, limits, bubblewrap and, as root, the drop of privileges) running
/bin/true in the bot's view instead of the bot: the sandbox's own cost, without the bot's
start-up noise.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
from pathlib import Path

import trio

from arena.bench import bench_parser
from arena.bench.bots import start_to_ready
from arena.manifest import load_manifest
from arena.sandbox import SandboxPolicy, prepare_launch
from arena.sandbox.limits import BotLimits

SAMPLE = Path(__file__).resolve().parents[2] / "sample_bots" / "random-python"


def _chain_seconds(bot_dir: Path, policy: SandboxPolicy) -> float:
    launch = prepare_launch(
        policy,
        ["/bin/true"],
        bot_dir=bot_dir,
        seat=0,
        env={},
        inherited_env=dict(os.environ),
        limits=BotLimits(),
        wants_network=False,
    )
    try:
        began = time.perf_counter()
        subprocess.run(
            launch.argv, env=launch.env, pass_fds=launch.pass_fds, cwd=bot_dir, check=True
        )
        return time.perf_counter() - began
    finally:
        launch.close()


def _measure_chain(bot_dir: Path, runs: int) -> dict[str, list[float]]:
    policies = {"bwrap": SandboxPolicy(), "none": SandboxPolicy(tool="none")}
    times: dict[str, list[float]] = {tool: [] for tool in policies}
    for _ in range(runs):
        for tool, policy in policies.items():
            times[tool].append(_chain_seconds(bot_dir, policy))
    return times


async def _measure(bot_dir: Path, runs: int) -> dict[str, list[float]]:
    spec = load_manifest(bot_dir)
    policies = {"bwrap": SandboxPolicy(), "none": SandboxPolicy(tool="none")}
    times: dict[str, list[float]] = {tool: [] for tool in policies}
    await start_to_ready(spec, "oregon", 1, policies["bwrap"])  # warm the page cache
    for _ in range(runs):
        for tool, policy in policies.items():
            times[tool] += (await start_to_ready(spec, "oregon", 1, policy))[0]
    return times


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("sandbox", __doc__)
    parser.add_argument("--runs", type=int, default=20, help="starts of each kind (default 20)")
    parser.add_argument("--bot", type=Path, default=SAMPLE, help="bot directory (random-python)")
    parser.add_argument(
        "--chain", action="store_true", help="the launcher chain running /bin/true, not the bot"
    )
    args = parser.parse_args(argv)
    if args.chain:
        times = _measure_chain(args.bot.resolve(), args.runs)
    else:
        times = trio.run(_measure, args.bot, args.runs)
    medians = {tool: statistics.median(values) * 1000 for tool, values in times.items()}
    load = os.getloadavg()[0]
    for tool, values in times.items():
        low, high = min(values) * 1000, max(values) * 1000
        print(
            f"{tool:>5}: median {medians[tool]:.1f} ms, min {low:.1f} ms, max {high:.1f} ms "
            f"({len(values)} starts)"
        )
    what = "launcher chain to /bin/true" if args.chain else "start to ready"
    print(
        f"{what}, sandbox over none: {medians['bwrap'] - medians['none']:+.1f} ms "
        f"(median; load {load:.1f}, uid {os.geteuid()})"
    )


if __name__ == "__main__":
    main()
