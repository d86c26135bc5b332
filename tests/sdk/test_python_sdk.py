"""The Python bot SDK answers the handshake from bot.toml, checks the arena's token and echoes the
decision number."""

import grpc
import pytest

import arena_sdk as sdk
from arena_sdk import TOKEN_METADATA_KEY
from arena_sdk.v1 import bot_pb2, bot_pb2_grpc

MANIFEST = 'name = "t"\nversion = "0.1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'


@pytest.fixture
def stub(tmp_path):
    (tmp_path / "bot.toml").write_text(MANIFEST)
    address = f"unix:{tmp_path}/bot.sock"
    server = sdk.serve(
        sdk.replying_with(lambda request: len(request.legal_actions) - 1),
        address=address,
        token="s3cret",
        manifest=tmp_path / "bot.toml",
    )
    channel = grpc.insecure_channel(address)
    yield bot_pb2_grpc.BotStub(channel)
    channel.close()
    server.stop(None).wait()


def test_handshake_comes_from_the_manifest(stub):
    reply = stub.Handshake(bot_pb2.HandshakeRequest(), metadata=[(TOKEN_METADATA_KEY, "s3cret")])
    assert (reply.name, reply.version, list(reply.games)) == ("t", "0.1", ["oregon"])
    assert reply.protocol_version == bot_pb2.PROTOCOL_VERSION_1


def test_decide_echoes_the_decision_number(stub):
    request = bot_pb2.DecisionRequest(
        decision_number=41, legal_actions=[bot_pb2.Action(), bot_pb2.Action()]
    )
    reply = stub.Decide(request, metadata=[(TOKEN_METADATA_KEY, "s3cret")])
    assert (reply.decision_number, reply.action_index) == (41, 1)


@pytest.mark.parametrize("answer", [None, 1.0, "1"])
def test_a_choice_that_is_no_index_fails_the_call_saying_so(answer):
    """None (a return forgotten) was sent as index 0: the bot played the first legal action at
    every decision, and `arena validate` passed it (outside review)."""
    reply = sdk.replying_with(lambda request: answer)
    with pytest.raises(TypeError, match=f"choose returned {answer!r}, not an index into"):
        reply(bot_pb2.DecisionRequest(legal_actions=[bot_pb2.Action()] * 2))


@pytest.mark.parametrize("metadata", [[], [(TOKEN_METADATA_KEY, "wrong")]])
def test_calls_without_the_token_are_refused(stub, metadata):
    with pytest.raises(grpc.RpcError) as error:
        stub.Handshake(bot_pb2.HandshakeRequest(), metadata=metadata)
    assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED  # documented in docs/bots.md


def test_a_decision_knows_its_game_from_the_start_of_that_game(stub):
    token = [(TOKEN_METADATA_KEY, "s3cret")]
    stub.StartGame(bot_pb2.StartGameRequest(game_id="g1", game="ogallala"), metadata=token)
    stub.StartGame(bot_pb2.StartGameRequest(game_id="g2", game="oregon"), metadata=token)
    assert sdk.game_of(bot_pb2.DecisionRequest(game_id="g1")) == "ogallala"
    assert sdk.game_of(bot_pb2.DecisionRequest(game_id="g2")) == "oregon"


def test_history_collects_the_events_of_one_game_and_seat_until_its_end(stub):
    token = [(TOKEN_METADATA_KEY, "s3cret")]
    event = bot_pb2.GameEvent()
    event.oregon.deck_rebuilt.size = 1
    other = bot_pb2.GameEvent()
    other.oregon.deck_rebuilt.size = 2
    for game_id in ("g-0", "g-1"):  # one game, two seats of this process
        stub.StartGame(bot_pb2.StartGameRequest(game_id=game_id, game="oregon"), metadata=token)
    one_action = [bot_pb2.Action()]
    stub.Decide(
        bot_pb2.DecisionRequest(game_id="g-0", events=[event], legal_actions=one_action),
        metadata=token,
    )
    stub.Decide(
        bot_pb2.DecisionRequest(game_id="g-1", events=[other], legal_actions=one_action),
        metadata=token,
    )
    stub.Decide(
        bot_pb2.DecisionRequest(game_id="g-0", events=[other], legal_actions=one_action),
        metadata=token,
    )
    assert sdk.history_of(bot_pb2.DecisionRequest(game_id="g-0")) == [event, other]
    assert sdk.history_of(bot_pb2.DecisionRequest(game_id="g-1")) == [other]
    stub.EndGame(bot_pb2.EndGameRequest(game_id="g-0", events=[event]), metadata=token)
    assert sdk.history_of(bot_pb2.DecisionRequest(game_id="g-0")) == []  # dropped after the end
