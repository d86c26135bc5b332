"""The Python sample bots answer every decision kind of every game with a legal index: their
choose, in this process, on the requests `arena fixtures` records (the constructed positions
`arena validate` plays for the kinds random play misses)."""

import importlib.util
from pathlib import Path

import pytest

import arena_sdk as sdk
from arena.fixtures import write_fixtures

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    out = tmp_path_factory.mktemp("fixtures")
    return write_fixtures([], out)


def load_bot(name: str):
    """The bot's bot.py as a module of its own (each sample bot has one)."""
    spec = importlib.util.spec_from_file_location(
        f"sample_{name.replace('-', '_')}", SAMPLE_BOTS / name / "bot.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["random-python", "heuristic-python", "search-python"])
def test_the_bot_answers_every_decision_kind_legally(name, fixtures, monkeypatch):
    monkeypatch.setenv("SEARCH_ITERATIONS", "8")  # few playouts: the same algorithm, quicker
    bot = load_bot(name)
    for folder in fixtures:
        request = sdk.load_fixture(folder)
        index = bot.choose(request)
        assert isinstance(index, int), (folder, index)
        assert 0 <= index < len(request.legal_actions), folder
