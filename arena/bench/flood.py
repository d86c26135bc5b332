"""HTTP/2 control-frame floods against the referee, with and without the filter of a sandboxed
bot's frames (``arena.sandbox.relay``, in the bot's cgroup), and what the filter costs an honest
game (docs/sandbox.md, "The HTTP/2 a bot sends").

    python -m arena.bench flood [--games 4] [--remote]

Alternating filter on and off, ``--games`` Oregon games each of: tests/bots/flood (which floods
PRIORITY, RST_STREAM, WINDOW_UPDATE, PING acknowledgements and unknown frames while it plays)
against random-python, then random-python against itself; all sandboxed, a new bot process per
seat and game, as ``arena match`` plays. With ``--remote`` the flooder is a remote bot
(``flood@127.0.0.1:PORT``, a process the bench starts for each game), whose filter runs beside
the arena rather than in a cgroup of the bot's. For each: the referee's CPU per game (this
process; not the filter's), its peak RSS, the honest seat's mean time per reply. The last line:
the flood's referee CPU per game filtered and not, and an honest game's wall time per decision
filtered and not.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import trio

from arena.bench import bench_parser
from arena.manifest import BotSpec, load_manifest, remote_bot
from arena.records import TimeControl
from arena.referee.match import play_match
from arena.sandbox import SandboxPolicy, bwrap_problem

ROOT = Path(__file__).resolve().parents[2]
FLOOD = ROOT / "tests" / "bots" / "flood"
HONEST = ROOT / "sample_bots" / "random-python"


@dataclass
class Tally:
    games: int = 0
    decisions: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    honest_mean: list[float] = field(default_factory=list)  # its time per reply, per game
    outcomes: list[str] = field(default_factory=list)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _game(bots: list[BotSpec], seed: int, filtered: bool, tally: Tally) -> None:
    began, cpu = time.perf_counter(), _cpu()
    record = await play_match(
        "oregon",
        bots,
        seed,
        time_control=TimeControl(move_seconds=2.0),
        sandbox=SandboxPolicy(filter_frames=filtered),
    )
    tally.wall += time.perf_counter() - began
    tally.cpu += _cpu() - cpu
    tally.games += 1
    tally.decisions += sum(seat.decisions for seat in record.seats)
    honest = record.seats[-1]
    tally.honest_mean.append(honest.time_used / max(honest.decisions, 1))
    tally.outcomes.append(f"{record.seats[0].outcome.value}/{honest.outcome.value}")


async def _measure(games: int, remote: bool) -> dict[tuple[str, bool], Tally]:
    honest = load_manifest(HONEST)
    tallies = {(kind, f): Tally() for kind in ("flood", "honest") for f in (True, False)}
    for seed in range(games):
        for filtered in (True, False):
            # a remote flooder of its own per game, as a local one: what it still sends on a
            # game's connections ends with it, not in the next game's figures
            with _remote_flooder() if remote else nullcontext(load_manifest(FLOOD)) as flood:
                await _game([flood, honest], 7000 + seed, filtered, tallies["flood", filtered])
            await _game([honest, honest], 7000 + seed, filtered, tallies["honest", filtered])
    return tallies


@contextmanager
def _remote_flooder() -> Iterator[BotSpec]:
    """The flooder serving on a TCP port of its own, as a remote bot."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "bot.py"],
        cwd=FLOOD,
        env={**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield remote_bot(f"127.0.0.1:{port}", "flood", games=("oregon",))
    finally:
        process.kill()
        process.wait()


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("flood", __doc__)
    parser.add_argument("--games", type=int, default=4, help="games of each kind (default 4)")
    parser.add_argument(
        "--remote", action="store_true", help="the flooder as a remote bot (NAME@HOST:PORT)"
    )
    args = parser.parse_args(argv)
    if (problem := bwrap_problem()) is not None:
        raise SystemExit(f"no sandbox here: {problem}")
    tallies = trio.run(_measure, args.games, args.remote)
    for (kind, filtered), tally in tallies.items():
        print(
            f"{kind:>6}, filter {'on ' if filtered else 'off'}: referee CPU "
            f"{tally.cpu / tally.games:.2f} s per game, "
            f"{tally.wall / tally.decisions * 1e6:.0f} us wall per decision (bot starts "
            f"included), the honest seat's mean reply "
            f"{sum(tally.honest_mean) / len(tally.honest_mean) * 1000:.1f} ms; outcomes "
            f"{', '.join(tally.outcomes)}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    flooded = {f: tallies["flood", f].cpu / tallies["flood", f].games for f in (True, False)}
    honest = {f: tallies["honest", f].wall / tallies["honest", f].decisions for f in (True, False)}
    print(f"peak RSS of the referee {peak:.0f} MB")
    print(
        f"flood referee_cpu_per_game filtered={flooded[True]:.2f}s "
        f"unfiltered={flooded[False]:.2f}s "
        f"honest_wall_per_decision filtered={honest[True] * 1e6:.0f}us "
        f"unfiltered={honest[False] * 1e6:.0f}us"
    )


if __name__ == "__main__":
    main()
