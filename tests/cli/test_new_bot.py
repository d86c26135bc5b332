"""`arena new-bot` writes a starter bot directory (that it passes `arena validate` is tested in
tests/validation)."""

import json
import shutil
import subprocess
import sys

import pytest

from arena.manifest import load_manifest
from arena.new_bot import NODE_SDK, PROTO
from arena.positions import decision_kinds
from engine.registry import game_names
from tests.support.node import requires_npm
from tests.tournament.helpers import run_cli


def test_a_python_bot_has_a_manifest_code_with_choose_and_a_readme(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli("new-bot", "my-bot")
    assert result.exit_code == 0, result.stderr
    spec = load_manifest(tmp_path / "my-bot")
    assert (spec.name, spec.command, list(spec.games)) == (
        "my-bot",
        ("python", "bot.py"),
        game_names(),
    )
    code = (tmp_path / "my-bot" / "bot.py").read_text()
    assert "import arena_sdk as sdk" in code and "def choose(request):" in code
    assert "sdk.history_of(request)" in code
    compile(code, "bot.py", "exec")
    readme = (tmp_path / "my-bot" / "README.md").read_text()
    assert "arena validate my-bot" in readme and "docs/rules/" in readme
    assert "edit choose in my-bot/bot.py" in result.stdout
    assert spec.build == ()


@requires_npm
def test_a_node_bot_links_the_node_sdk(tmp_path):
    result = run_cli("new-bot", "node-bot", "--lang", "node", "--dir", str(tmp_path / "nb"))
    assert result.exit_code == 0, result.stderr
    assert load_manifest(tmp_path / "nb").command == ("node", "index.js")
    package = json.loads((tmp_path / "nb" / "package.json").read_text())
    assert package["dependencies"]["arena-bot-sdk"].startswith("file:")
    assert (tmp_path / "nb" / "node_modules" / "arena-bot-sdk").resolve() == NODE_SDK
    code = (tmp_path / "nb" / "index.js").read_text()
    assert "function choose(request)" in code and "sdk.historyOf(request)" in code


@pytest.mark.parametrize(
    "language, code, choose, command",
    [
        ("go", "bot.go", "func choose(", ("./bot",)),
        ("java", "Bot.java", "static int choose(", ("java", "@java.args", "Bot")),
        ("cpp", "bot.cc", "int choose(", ("./bot",)),
    ],
)
def test_a_compiled_bot_has_a_build_step_and_its_own_copy_of_the_protocol(
    tmp_path, language, code, choose, command
):
    """Go, Java and C++ bots build from their directory alone (in the sandbox, validate and
    submit run the build there; tests/starters builds and plays them)."""
    result = run_cli("new-bot", "c-bot", "--lang", language, "--dir", str(tmp_path / "c"))
    assert result.exit_code == 0, result.stderr
    spec = load_manifest(tmp_path / "c")
    assert (spec.command, spec.build) == (command, ("sh", "build.sh"))
    assert (tmp_path / "c" / "build.sh").is_file()
    for proto in ("bot", "oregon", "ogallala", "merkator"):
        copied = tmp_path / "c" / "proto" / "arena" / "bot" / "v1" / f"{proto}.proto"
        assert (
            copied.read_bytes() == (PROTO / "arena" / "bot" / "v1" / f"{proto}.proto").read_bytes()
        )
    source = (tmp_path / "c" / code).read_text()
    assert choose in source and "x-arena-token" in source and "SIGTERM" in source
    readme = " ".join((tmp_path / "c" / "README.md").read_text().split())
    assert "builds it (`sh build.sh`, in the sandbox" in readme
    assert f"edit choose in {tmp_path / 'c' / code}" in result.stdout


def test_a_missing_toolchain_is_named_with_the_packages_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on it
    result = run_cli("new-bot", "g", "--lang", "go", "--dir", str(tmp_path / "g"))
    assert result.exit_code == 0
    assert "note: go, protoc, protoc-gen-go, protoc-gen-go-grpc not on PATH" in result.stderr
    assert "install golang-go" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["Bad Name"], "bot name 'Bad Name'"),
        (["ok", "--lang", "cobol"], "--lang 'cobol'"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, message):
    result = run_cli("new-bot", *args, "--dir", str(tmp_path / "x"))
    assert result.exit_code == 2 and message in result.stderr


def test_an_existing_directory_with_files_is_not_overwritten(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "mine.py").write_text("keep me")
    result = run_cli("new-bot", "taken", "--dir", str(tmp_path / "taken"))
    assert result.exit_code == 2 and "not an empty directory" in result.stderr
    assert (tmp_path / "taken" / "mine.py").read_text() == "keep me"


def _unit_test(directory):
    """The Python starter's unit test, run as its README says (the arena's Python)."""
    return subprocess.run(
        [sys.executable, "-m", "unittest", "test_bot"],
        cwd=directory,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_bot_gets_the_fixtures_and_a_unit_test_that_passes_on_them(tmp_path):
    result = run_cli("new-bot", "tested", "--dir", str(tmp_path / "tested"))
    assert result.exit_code == 0, result.stderr
    fixtures = tmp_path / "tested" / "fixtures"
    for game in game_names():
        kinds = {folder.name for folder in (fixtures / game).iterdir()}
        assert kinds == set(decision_kinds(game))
    readme = " ".join((tmp_path / "tested" / "README.md").read_text().split())
    # the arena's Python by its path: a fresh terminal's `python` has no SDK (outside review)
    assert f"`{sys.executable} -m unittest test_bot` runs its unit test" in readme
    assert "arena fixtures --out fixtures" in readme
    ran = _unit_test(tmp_path / "tested")
    assert ran.returncode == 0, ran.stderr
    assert "Ran 1 test" in ran.stderr and "OK" in ran.stderr


def test_the_unit_test_fails_a_choose_that_answers_out_of_range(tmp_path):
    assert run_cli("new-bot", "wrong", "--dir", str(tmp_path / "wrong")).exit_code == 0
    code = tmp_path / "wrong" / "bot.py"
    code.write_text(
        code.read_text().replace(
            "return rng.randrange(len(request.legal_actions))",
            'return len(request.legal_actions) if sdk.game_of(request) == "merkator" else 0',
        )
    )
    ran = _unit_test(tmp_path / "wrong")
    assert ran.returncode == 1
    # one failure per Merkator kind: game_of answers, as in a game
    assert ran.stderr.count("FAIL: test_choose_") == len(decision_kinds("merkator"))
    assert "merkator FINAL_PLACE" in ran.stderr


def test_without_its_fixtures_the_unit_test_says_how_to_write_them(tmp_path):
    assert run_cli("new-bot", "bare", "--dir", str(tmp_path / "bare")).exit_code == 0
    shutil.rmtree(tmp_path / "bare" / "fixtures")
    ran = _unit_test(tmp_path / "bare")
    assert ran.returncode == 1 and "run `arena fixtures --out fixtures`" in ran.stderr


def test_a_directory_that_cannot_be_made_is_one_line(tmp_path):
    (tmp_path / "a-file").write_text("")
    result = run_cli("new-bot", "ok", "--dir", str(tmp_path / "a-file" / "x"))
    assert result.exit_code == 2
    assert (
        result.stderr == f"error: {tmp_path}/a-file/x: cannot make the directory: Not a directory\n"
    )
