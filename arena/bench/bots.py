"""The sample bots as the benchmarks run them: started, past their handshake, their CPU time read
from ``/proc``, and the decision requests of a typical game for them."""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from arena.manifest import BotSpec
from arena.records import TimeControl
from arena.referee.botprocess import RunningBot, connect, run_bot
from arena.sandbox import SandboxPolicy
from arena.wire.requests import DecisionEncoder
from engine.registry import get_game

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"


TIME_CONTROL = TimeControl(move_seconds=5.0)


def typical_requests(game: str, players: int, seed: int) -> list[bytes]:
    """The serialized decision requests of one random game, as the referee sends them."""
    state = get_game(game).new_game(players, seed)
    encoder = DecisionEncoder(game)
    rng = random.Random(seed)
    requests: list[bytes] = []
    told = [0] * players  # each seat's position in the event log
    while (seat := state.current_seat) is not None:  # None once the game is over
        legal = state.legal_actions()
        requests.append(
            encoder.request(
                "bench",
                len(requests),
                state,
                seat,
                legal,
                TIME_CONTROL.move_seconds,
                0.0,
                told[seat],
            )
        )
        told[seat] = len(state.event_log)
        state.apply_index(rng.randrange(len(legal)))
    return requests


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc), NaN where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bot_cpu_seconds(bot: RunningBot) -> float:
    """The CPU time of the bot's processes: all of its cgroup's (the sandbox's own processes
    included), else the one process started."""
    if bot.launch is not None and bot.launch.cgroup is not None:
        return sum(_cpu_seconds(pid) for pid in bot.launch.cgroup.pids())
    assert bot.process is not None, "the benches measure the bots they start"
    return _cpu_seconds(bot.process.pid)


async def start_to_ready(
    spec: BotSpec, game: str, times: int, sandbox: SandboxPolicy | None = None
) -> tuple[list[float], list[float]]:
    """Wall time from process start to the handshake's answer, and the bot's CPU time by then
    (which a busy machine does not inflate); with ``sandbox``, started as a match would."""
    seconds, cpu = [], []
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as workdir:
        for attempt in range(times):
            began = time.perf_counter()
            async with run_bot(spec, 0, attempt, Path(workdir), sandbox=sandbox) as bot:
                client, _ = await connect(bot, game, timeout=10.0)
                seconds.append(time.perf_counter() - began)
                cpu.append(bot_cpu_seconds(bot))
                client.close()
    return seconds, cpu


@asynccontextmanager
async def running_bots(specs: Sequence[BotSpec], game: str) -> AsyncIterator[list[RunningBot]]:
    """A process of each of ``specs``, each past its handshake; stopped on exit."""
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as workdir:
        async with AsyncExitStack() as stack:
            bots = [
                await stack.enter_async_context(run_bot(spec, seat, 1, Path(workdir)))
                for seat, spec in enumerate(specs)
            ]
            for bot in bots:
                client, _ = await connect(bot, game, timeout=10.0)
                client.close()
            yield bots
