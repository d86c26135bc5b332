"""A Ray cluster on this one machine, for the Ray tests and ``python -m arena.bench cluster``: a
head and a second node, each a separate ``ray start --block`` process (in a session of its own),
bound to loopback addresses, and stopped by killing exactly the processes it started (never
``ray stop``, which would stop every other cluster of the machine too).

Ray replaces 127.0.0.1 given as a node's address by the machine's routable one, so the nodes use
other addresses of the loopback range (127.0.0.2, 127.0.0.3): all the cluster's traffic stays on
this machine. A node may be pinned to some of the machine's cores (``cores``), so that two nodes
behave as two smaller machines: everything it starts (actors, referees, bots) inherits that.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

HEAD_IP = "127.0.0.2"
SECOND_IP = "127.0.0.3"
_STARTED = "Ray runtime started"
_START_SECONDS = 90.0


def free_port() -> int:
    """A loopback port free at the moment."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid``, by parent links (bots run in sessions of their own)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass


def _ray_command() -> str:
    return str(Path(sys.executable).with_name("ray"))


class LocalCluster:
    """Start with ``start()``; ``stop()`` kills every process it started, whatever happened."""

    def __init__(self) -> None:
        # Short: Ray's Unix sockets live below it (a socket path has at most 107 bytes).
        self.temp = Path(tempfile.mkdtemp(prefix="arena-ray-", dir="/tmp"))
        self.port = free_port()
        self.address = f"{HEAD_IP}:{self.port}"
        self.nodes: dict[str, subprocess.Popen] = {}

    def _start_node(self, ip: str, *head_or_join: str, cores: set[int] | None = None) -> None:
        log = self.temp / f"{ip}.log"
        command = [
            _ray_command(),
            "start",
            "--block",
            *head_or_join,
            "--node-ip-address",
            ip,
            "--num-cpus",
            str(len(cores) if cores else 1),
            "--temp-dir",
            str(self.temp),
            "--object-store-memory",
            str(80 * 1024 * 1024),
            "--dashboard-agent-listen-port",
            str(free_port()),
            "--disable-usage-stats",
        ]
        with log.open("w") as output:
            self.nodes[ip] = subprocess.Popen(
                command,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=None if cores is None else partial(os.sched_setaffinity, 0, cores),
            )
        deadline = time.monotonic() + _START_SECONDS
        while _STARTED not in log.read_text():
            if self.nodes[ip].poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ray start for {ip} failed:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)

    def start(self, cores: set[int] | None = None) -> None:
        """Start the head (on ``cores`` only, if given)."""
        self._start_node(
            HEAD_IP,
            "--head",
            "--port",
            str(self.port),
            "--include-dashboard=false",
            "--dashboard-port",
            str(free_port()),
            "--ray-client-server-port",
            str(free_port()),
            cores=cores,
        )

    def start_second_node(self, cores: set[int] | None = None) -> None:
        self._start_node(SECOND_IP, "--address", self.address, cores=cores)

    def processes(self, ip: str) -> list[int]:
        """The node's processes: ``ray start``, Ray's own, the actors' and their bots."""
        node = self.nodes.get(ip)
        return [] if node is None else [node.pid, *descendants(node.pid)]

    def kill_node(self, ip: str) -> None:
        """Kill the node's every process at once, as a machine that dies: all are frozen first
        (SIGSTOP, until no new one appears), so that none starts another meanwhile, then killed."""
        frozen: set[int] = set()
        while new := [pid for pid in self.processes(ip) if pid not in frozen]:
            for pid in new:
                _signal(pid, signal.SIGSTOP)
            frozen.update(new)
        for pid in frozen:
            _signal(pid, signal.SIGKILL)
        node = self.nodes.pop(ip, None)
        if node is not None:
            node.wait()

    def stop(self) -> None:
        for ip in list(self.nodes):
            self.kill_node(ip)
        shutil.rmtree(self.temp, ignore_errors=True)
