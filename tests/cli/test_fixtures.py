"""`arena fixtures`: the requests of every decision kind, as wire bytes and JSON, for a bot's
unit tests (the layout of docs/bots.md, "Unit-testing your bot offline")."""

import json

from google.protobuf import json_format

from arena.bot.v1 import bot_pb2
from arena.fixtures import FILES
from arena.positions import decision_kinds, position
from engine.registry import game_names, get_game
from tests.tournament.helpers import run_cli


def test_every_kind_of_a_game_gets_its_requests_in_both_forms(tmp_path):
    result = run_cli("fixtures", "merkator", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merkator"]
    kinds = decision_kinds("merkator")
    assert sorted(p.name for p in (tmp_path / "merkator").iterdir()) == sorted(kinds)
    for kind in kinds:
        folder = tmp_path / "merkator" / kind
        assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)
        start = bot_pb2.StartGameRequest.FromString((folder / "start_game.binpb").read_bytes())
        decide = bot_pb2.DecisionRequest.FromString((folder / "decide.binpb").read_bytes())
        # the JSON says the same as the bytes
        assert decide == json_format.Parse(
            (folder / "decide.json").read_text(), bot_pb2.DecisionRequest()
        )
        assert start == json_format.Parse(
            (folder / "start_game.json").read_text(), bot_pb2.StartGameRequest()
        )
        assert '"decision_kind": "' + kind + '"' in (folder / "decide.json").read_text()
        # a real decision of the position's seat, as the bot would receive it
        where = position("merkator", kind)
        state = where.state()
        assert decide.decision_kind == kind
        assert decide.seat == start.seat == state.current_seat
        assert decide.game_id == start.game_id
        assert decide.decision_number == len(where.actions)
        assert len(decide.legal_actions) == len(state.legal_actions()) >= 2
        assert decide.view.WhichOneof("game") == "merkator"
        assert start.game == "merkator" and start.num_players == where.num_players
        assert start.rules_version == get_game("merkator").rules_version
        # the first Decide of the seat: every event it may see since the start
        assert len(decide.events) == len(state.events_for(state.current_seat, 0))
        recorded = json.loads((folder / "position.json").read_text())
        assert recorded["seed"] == where.seed and recorded["actions"] == list(where.actions)


def test_the_option_a_kind_needs_is_in_its_start_game(tmp_path):
    assert run_cli("fixtures", "merkator", "--out", str(tmp_path)).exit_code == 0
    start = bot_pb2.StartGameRequest.FromString(
        (tmp_path / "merkator" / "PERMIT_JOIN" / "start_game.binpb").read_bytes()
    )
    options = {option.name: option for option in start.options}
    assert options["join_needs_permission"].bool_value is True


def test_without_a_game_every_game_is_written(tmp_path):
    result = run_cli("fixtures", "--out", str(tmp_path / "all"))
    assert result.exit_code == 0, result.stdout
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(game_names())
    written = sum(len(decision_kinds(game)) for game in game_names())
    assert result.stdout.count("wrote ") == written


def test_an_unknown_game_is_one_line_and_exit_code_2(tmp_path):
    result = run_cli("fixtures", "chess", "--out", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.stderr
    assert not (tmp_path / "out").exists()
