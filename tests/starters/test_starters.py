"""Every starter of `arena new-bot` passes `arena validate` in the sandbox as it is: for Go, Java
and C++ validate's build step compiles it in the sandbox first; then every check, and all three
games at 2 and at the most seats, against the random bot and against itself. A language whose
toolchain is missing here is skipped with the reason (`scripts/setup --for-tests` installs them).
Each starter is made and validated once per session (a compiled one builds in about a minute).
Its unit test (choose on the fixtures `arena new-bot` writes) passes, and fails a choose that
answers out of range."""

import json
import re
import shutil
import subprocess
import sys

import pytest

from arena.bot_tree import directory_hash
from arena.new_bot import LANGUAGES, missing_tools
from arena.sandbox import bwrap_problem
from engine.registry import game_names, get_game
from tests.support.node import NPM_MISSING, npm_ready
from tests.tournament.helpers import run_cli

pytestmark = pytest.mark.slow  # compiles, then plays a dozen games per language


def skip_reason(language: str) -> str:
    if problem := bwrap_problem():
        return f"no sandbox on this machine: {problem}"
    if language == "node" and not npm_ready():
        return NPM_MISSING
    if missing := missing_tools(language):
        return (
            f"{', '.join(missing)} not on PATH: scripts/setup --for-tests installs "
            f"{LANGUAGES[language].packages}"
        )
    return ""


@pytest.fixture(scope="session", params=list(LANGUAGES))
def validated(request, tmp_path_factory):
    """(language, the starter's directory, validate's JSON report, its exit code)."""
    language = request.param
    if reason := skip_reason(language):
        pytest.skip(reason)
    directory = tmp_path_factory.mktemp("starters") / f"{language}-starter"
    made = run_cli("new-bot", f"{language}-starter", "--lang", language, "--dir", str(directory))
    assert made.exit_code == 0, made.stderr
    # an author's valid TOML: the compiled starters read bot.toml themselves, and a games array
    # over several lines gave an empty handshake list (outside review G)
    manifest = directory / "bot.toml"
    games = ", ".join(f'"{game}"' for game in game_names())
    text = manifest.read_text()
    assert f"games = [{games}]" in text, text
    multi_line = "".join(f'  "{game}",  # plays it\n' for game in game_names())
    manifest.write_text(text.replace(f"games = [{games}]", f"games = [\n{multi_line}]"))
    checked = run_cli("validate", str(directory), "--json", "--seed", "7")
    return language, directory, json.loads(checked.stdout), checked.exit_code


def test_the_starter_passes_every_check_in_the_sandbox(validated):
    language, _, report, exit_code = validated
    failed = [check for check in report["checks"] if check["status"] == "FAIL"]
    assert exit_code == 0 and report["passed"], failed
    assert report["sandbox"] == "bwrap"
    statuses = {check["name"]: check["status"] for check in report["checks"]}
    expected = ["manifest", "handshake", "token", "clean exit", "same seed, same game"]
    if LANGUAGES[language].compiled:
        expected.append("build")
    for name in expected:
        assert statuses[name] == "PASS", (name, report["checks"])
    # timed against a limit, they warn past half of it, which a loaded machine can reach
    for name in ("start to ready", "reply times"):
        assert statuses[name] in ("PASS", "WARN"), (name, report["checks"])


def test_the_starter_plays_all_three_games_to_the_end(validated):
    _, _, report, _ = validated
    statuses = {check["name"]: check["status"] for check in report["checks"]}
    for game in game_names():
        for seats in sorted({2, get_game(game).max_players}):
            for opponent in ("vs random", "vs itself"):
                assert statuses[f"{game}, {seats} seats, {opponent}"] == "PASS"
        # every decision kind reached, the ones its games missed from constructed positions
        assert statuses[f"{game}, decision kinds"] == "PASS"


def test_a_compiled_starter_is_built_by_validate_in_the_sandbox(validated):
    language, directory, report, _ = validated
    if not LANGUAGES[language].compiled:
        pytest.skip(f"a {language} bot needs no build")
    build = next(check for check in report["checks"] if check["name"] == "build")
    assert "in the sandbox" in build["detail"]
    program = LANGUAGES[language].command[0]
    built = directory / ("classes/Bot.class" if language == "java" else program)
    assert built.is_file()


# choose's last line, and what makes it fail with the line a CRASH reason should quote
FAILING = {
    "python": (
        "return rng.randrange(len(request.legal_actions))",
        'raise ValueError(f"no plan for {request.decision_kind}")',
        "error: ValueError: no plan for",
    ),
    "node": (
        "return Math.floor(random() * request.legal_actions.length);",
        'throw new Error("no plan for " + request.decision_kind);',
        "error: Error: no plan for",
    ),
    "go": (
        "return rng.Intn(len(request.LegalActions))",
        'panic("no plan for " + request.DecisionKind)',
        "error: panic: no plan for",
    ),
    "java": (
        "return random.nextInt(request.getLegalActionsCount());",
        'throw new IllegalStateException("no plan for " + request.getDecisionKind());',
        "error: java.lang.IllegalStateException: no plan for",
    ),
    "cpp": (
        "return std::uniform_int_distribution<int>(0, request.legal_actions_size() - 1)(rng);",
        'throw std::runtime_error("no plan for " + request.decision_kind());',
        "error: no plan for",
    ),
}


def test_a_starter_whose_choose_fails_crashes_with_the_cause_in_its_reason(validated):
    """The starter, edited to fail in choose and validated again (rebuilt: Java and C++ only
    what changed): the CRASH reason quotes the line that names the cause."""
    language, directory, _, _ = validated
    failing = directory.parent / f"{language}-failing"  # beside it: relative links still hold
    shutil.copytree(directory, failing, symlinks=True)
    code = failing / LANGUAGES[language].code
    line, failure, reason = FAILING[language]
    assert line in code.read_text()
    code.write_text(code.read_text().replace(line, failure))
    checked = run_cli("validate", str(failing), "--json", "--game", "oregon", "--seed", "3")
    report = json.loads(checked.stdout)
    failed = [check for check in report["checks"] if check["status"] == "FAIL"]
    assert checked.exit_code == 1 and failed, report
    assert failed[0]["name"] == "oregon, 2 seats, vs random"
    assert "CRASH" in failed[0]["detail"] and reason in failed[0]["detail"], failed[0]


def run_unit_test(language: str, directory) -> subprocess.CompletedProcess:
    """The starter's unit test, run as its README says (Python: the arena's interpreter)."""
    command = list(LANGUAGES[language].test)
    if command[0] == "python":
        command[0] = sys.executable
    return subprocess.run(
        command, cwd=directory, capture_output=True, text=True, timeout=900, check=False
    )


def test_the_starters_unit_test_passes_on_the_fixtures_new_bot_wrote(validated):
    language, directory, _, _ = validated
    assert (directory / LANGUAGES[language].test_file).is_file()
    validated_code = directory_hash(directory)
    ran = run_unit_test(language, directory)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    # the same code as validated (and submitted): running the unit test makes no new version
    assert directory_hash(directory) == validated_code


# choose's last line made to answer one past the last legal action
OUT_OF_RANGE = {
    "python": "return len(request.legal_actions)",
    "node": "return request.legal_actions.length;",
    "go": "return len(request.LegalActions)",
    "java": "return request.getLegalActionsCount();",
    "cpp": "return request.legal_actions_size();",
}


def test_the_starters_unit_test_fails_a_choose_that_answers_out_of_range(validated):
    language, directory, _, _ = validated
    wrong = directory.parent / f"{language}-out-of-range"  # beside it: relative links hold
    shutil.copytree(directory, wrong, symlinks=True)
    code = wrong / LANGUAGES[language].code
    line = FAILING[language][0]
    code.write_text(code.read_text().replace(line, OUT_OF_RANGE[language]))
    ran = run_unit_test(language, wrong)
    assert ran.returncode != 0, ran.stdout + ran.stderr
    assert "merkator" in ran.stdout + ran.stderr  # names the fixture (merkator's sort first)


def test_the_starters_unit_test_names_the_fixture_a_failing_choose_failed_on(validated):
    """A choose that throws: Node, Go, Java and C++ stopped at the first fixture without naming
    it (a bare stack trace, "Aborted"); each now names its GAME/KIND (outside review)."""
    language, directory, _, _ = validated
    wrong = directory.parent / f"{language}-throws"  # beside it: relative links hold
    shutil.copytree(directory, wrong, symlinks=True)
    code = wrong / LANGUAGES[language].code
    line, failure, _ = FAILING[language]
    code.write_text(code.read_text().replace(line, failure))
    ran = run_unit_test(language, wrong)
    shown = ran.stdout + ran.stderr
    assert ran.returncode != 0, shown
    assert "no plan for" in shown and re.search(r"merkator[/\\ ]\w+", shown), shown
