"""A bot cannot write on the operator's terminal through gRPC's own log: when its server goes
away mid-call, grpcio's core logs "Got goaway" at INFO on the arena's stderr, past the progress
bar (outside review). The arena sets GRPC_VERBOSITY=ERROR unless the operator set it."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# absl's format, as grpcio's core writes it: "I1206 09:00:26.298434   23151 file.cc:1403] ..."
CORE_LOG_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\]", re.MULTILINE)


def test_a_bot_stopping_its_server_mid_call_leaves_no_grpc_lines(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "GRPC_VERBOSITY"}
    result = subprocess.run(
        [sys.executable, "-c", "from arena.launcher import main; main()", "tournament"]
        + ["--game", "oregon", "--deals", "2", "--sandbox", "none", "--db", str(tmp_path / "a.db")]
        + ["--bots", "tests/bots/server-stop,sample_bots/random-python"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "CRASH: Decide failed: UNAVAILABLE" in result.stdout  # its server did go away
    assert not CORE_LOG_LINE.search(result.stderr), result.stderr
