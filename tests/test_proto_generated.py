"""The code made from the .proto files (scripts/gen-proto) is committed and must match them
exactly: the Python SDK's generated modules and the Node SDK's bundled copy of the .proto files."""

import filecmp
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where the generated files live, and which of the files there are generated.
GENERATED = {"sdk/python/src/arena_sdk/v1": "*_pb2*.py*", "sdk/node/proto": "*.proto"}


def test_regenerating_the_proto_code_gives_no_difference(tmp_path):
    # The script runs "python -m grpc_tools.protoc": this interpreter's, which has grpcio-tools.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    subprocess.run(
        [ROOT / "scripts" / "gen-proto", tmp_path],
        cwd=ROOT,
        check=True,
        env={**os.environ, "PATH": path},
    )
    generated = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert generated, "scripts/gen-proto generated nothing"
    stale = [str(p) for p in generated if not filecmp.cmp(tmp_path / p, ROOT / p, shallow=False)]
    assert not stale, f"regenerate with scripts/gen-proto; stale: {stale}"
    committed = {
        p.relative_to(ROOT) for d, pattern in GENERATED.items() for p in (ROOT / d).rglob(pattern)
    }
    leftover = sorted(str(p) for p in committed - set(generated))
    assert not leftover, f"generated files without a .proto: {leftover}"
