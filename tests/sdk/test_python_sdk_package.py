"""The Python SDK is its own distribution (sdk/python) that owns the generated protobuf code; the
arena re-exports it under its old names, so each .proto file is loaded into protobuf's descriptor
pool once, whichever name is imported first."""

import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_arena_and_the_sdk_share_one_copy_of_the_generated_code():
    from google.protobuf import descriptor_pool

    import arena_sdk
    from arena import sdk
    from arena.bot.v1 import bot_pb2 as arena_bot_pb2
    from arena_sdk.v1 import bot_pb2

    assert arena_bot_pb2 is bot_pb2
    assert sdk.run is arena_sdk.run
    pool_file = descriptor_pool.Default().FindFileByName("arena/bot/v1/bot.proto")
    assert pool_file is bot_pb2.DESCRIPTOR


@pytest.mark.parametrize(
    "imports",
    [
        "import arena_sdk.v1.oregon_pb2, arena.bot.v1.bot_pb2, arena.sdk",
        "import arena.bot.v1.bot_pb2, arena.sdk, arena_sdk.v1.bot_pb2",
        (
            "from arena.bot.v1 import merkator_pb2; from arena_sdk.v1 import merkator_pb2 as m; "
            "assert m is merkator_pb2"
        ),
    ],
)
def test_importing_both_names_in_either_order_does_not_clash(imports):
    subprocess.run([sys.executable, "-c", imports], check=True)


@pytest.mark.slow
def test_the_sdk_installs_and_serves_without_the_arena(tmp_path):
    environment = tmp_path / "venv"
    venv.create(environment, with_pip=True)
    python = environment / "bin" / "python"
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "-c",
            ROOT / "constraints.txt",
            ROOT / "sdk" / "python",
        ],
        check=True,
        capture_output=True,
    )
    (tmp_path / "bot.toml").write_text(
        'name = "alone"\nversion = "2"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    )
    script = textwrap.dedent(f"""
        import importlib.util, grpc, arena_sdk
        from arena_sdk.v1 import bot_pb2, bot_pb2_grpc
        assert importlib.util.find_spec("arena") is None, "the arena must not be installed"
        server = arena_sdk.serve(arena_sdk.replying_with(lambda r: 0), address="unix:{tmp_path}/s",
                                 manifest=__import__("pathlib").Path("{tmp_path}/bot.toml"))
        stub = bot_pb2_grpc.BotStub(grpc.insecure_channel("unix:{tmp_path}/s"))
        print(stub.Handshake(bot_pb2.HandshakeRequest()).name)
        server.stop(None)
    """)
    result = subprocess.run(
        [python, "-c", script], cwd=tmp_path, check=True, capture_output=True, text=True
    )
    assert result.stdout.strip() == "alone"
