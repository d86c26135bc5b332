"""The arena's gRPC settings (``arena/__init__.py``): the referee's calls wait on the calling
thread, not through gRPC's EventEngine threads, and the grpcio installed still knows the
setting (a grpcio that drops it logs "Unknown experiment" at every start: remove it then)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOW = "import arena, grpc, os; print(os.environ['GRPC_EXPERIMENTS'])"


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GRPC_")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


def test_the_arena_sets_its_client_to_wait_on_the_calling_thread_and_grpcio_knows_it():
    shown = _python(SHOW)
    assert shown.stdout.strip() == "-event_engine_client"
    assert "Unknown experiment" not in shown.stderr, shown.stderr


def test_an_operators_own_setting_is_kept():
    shown = _python(SHOW, GRPC_EXPERIMENTS="-event_engine_listener")
    assert shown.stdout.strip() == "-event_engine_listener"


CALLS = """
import trio
from arena.bench.bots import SAMPLE_BOTS, running_bots, typical_requests
from arena.bench.threads import thread_cpu
from arena.manifest import load_manifest
from arena.referee.client import BotClient


async def main():
    requests = typical_requests("oregon", 2, seed=1)
    async with running_bots([load_manifest(SAMPLE_BOTS / "random-python")], "oregon") as (bot,):
        client = BotClient(bot.address, bot.token)
        before = thread_cpu()

        def calls():
            for i in range(1500):
                client.decide(requests[i % len(requests)], 5.0)

        await trio.to_thread.run_sync(calls)
        spent = {
            tid: (name, cpu - before.get(tid, (name, 0.0))[1])
            for tid, (name, cpu) in thread_cpu().items()
        }
        client.close()
    print(sum(cpu for name, cpu in spent.values() if name == "event_engine"))
    print(sum(cpu for name, cpu in spent.values()))


trio.run(main)
"""


def test_decide_calls_wait_on_the_calling_thread_not_in_grpcs_event_engine_threads():
    """1,500 Decide calls through the referee's client to a real bot: gRPC's EventEngine
    threads, which took about a third of the referee's CPU per call when they did the waiting,
    now do almost none of it."""
    engine, total = map(float, _python(CALLS).stdout.split())
    assert total > 0.1  # enough calls to be counted in clock ticks
    assert engine <= total / 10, (engine, total)
