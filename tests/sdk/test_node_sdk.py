"""The Node SDK (sdk/node), called as the arena calls a bot: the handshake comes from bot.toml,
a wrong token is refused with UNAUTHENTICATED, the decision number is echoed (int64 intact), and
a decision knows its game from StartGame and its history from the events so far. The Node sample
bot and the Node starter play through it in tests/referee, tests/cli and tests/starters."""

import os
import subprocess
import time

import grpc
import pytest

from arena_sdk import TOKEN_METADATA_KEY
from arena_sdk.v1 import bot_pb2, bot_pb2_grpc

pytestmark = pytest.mark.slow  # a real Node.js bot process

# Everything a manifest may hold around the three keys the SDK reads.
MANIFEST = """# a comment
name = 'node-test'          # a literal string
version = "2.0.\\u0031"      # a basic string with an escape
command = ["node", "bot.js"]
games = [
  "oregon",   # one per line
  "merkator",
]

[env]
name = "not the bot's name"
"""
BOT = """
const sdk = require(process.env.NODE_SDK);
// merkator: the last action; ogallala: nothing (a return forgotten); else as many as the
// events of the game so far (at most the last)
sdk.run((request) => {
  const last = request.legal_actions.length - 1;
  if (sdk.gameOf(request) === "ogallala") return;
  return sdk.gameOf(request) === "merkator" ? last : Math.min(sdk.historyOf(request).length, last);
});
"""


@pytest.fixture
def stub(tmp_path, node_sdk):
    (tmp_path / "bot.toml").write_text(MANIFEST)
    (tmp_path / "bot.js").write_text(BOT)
    address = f"unix:{tmp_path}/bot.sock"
    env = {
        **os.environ,
        "ARENA_BOT_ADDRESS": address,
        "ARENA_BOT_TOKEN": "s3cret",
        "NODE_SDK": str(node_sdk),
    }
    process = subprocess.Popen(["node", "bot.js"], cwd=tmp_path, env=env)
    deadline = time.monotonic() + 10
    while not (tmp_path / "bot.sock").exists():
        assert process.poll() is None and time.monotonic() < deadline, "the bot did not start"
        time.sleep(0.01)
    channel = grpc.insecure_channel(address)
    # The socket's file appears when it is bound, a moment before it listens: wait until it does
    grpc.channel_ready_future(channel).result(timeout=max(1.0, deadline - time.monotonic()))
    yield bot_pb2_grpc.BotStub(channel)
    channel.close()
    process.terminate()
    assert process.wait(timeout=5) == 0, "SIGTERM ends a Node SDK bot cleanly"


TOKEN = [(TOKEN_METADATA_KEY, "s3cret")]


def test_the_handshake_comes_from_the_manifests_top_level(stub):
    reply = stub.Handshake(bot_pb2.HandshakeRequest(), metadata=TOKEN)
    assert (reply.name, reply.version, list(reply.games)) == (
        "node-test",
        "2.0.1",
        ["oregon", "merkator"],
    )
    assert reply.protocol_version == bot_pb2.PROTOCOL_VERSION_1


@pytest.mark.parametrize("metadata", [[], [(TOKEN_METADATA_KEY, "wrong")]])
def test_a_wrong_token_is_refused_with_unauthenticated(stub, metadata):
    with pytest.raises(grpc.RpcError) as error:
        stub.Handshake(bot_pb2.HandshakeRequest(), metadata=metadata)
    assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_decide_echoes_the_decision_number_and_knows_the_game(stub):
    stub.StartGame(bot_pb2.StartGameRequest(game_id="g1", game="merkator"), metadata=TOKEN)
    stub.StartGame(bot_pb2.StartGameRequest(game_id="g2", game="oregon"), metadata=TOKEN)
    three = [bot_pb2.Action()] * 3
    number = 2**62 + 3  # beyond the integers a JavaScript number holds exactly
    merkator = stub.Decide(
        bot_pb2.DecisionRequest(game_id="g1", decision_number=number, legal_actions=three),
        metadata=TOKEN,
    )
    oregon = stub.Decide(
        bot_pb2.DecisionRequest(game_id="g2", decision_number=7, legal_actions=three),
        metadata=TOKEN,
    )
    assert (merkator.decision_number, merkator.action_index) == (number, 2)
    assert (oregon.decision_number, oregon.action_index) == (7, 0)


def test_a_choice_that_is_no_index_fails_the_call_saying_so(stub):
    """undefined (a return forgotten) was sent as index 0: the bot played the first legal action
    at every decision, and `arena validate` passed it (outside review)."""
    stub.StartGame(bot_pb2.StartGameRequest(game_id="g3", game="ogallala"), metadata=TOKEN)
    request = bot_pb2.DecisionRequest(game_id="g3", legal_actions=[bot_pb2.Action()] * 2)
    with pytest.raises(grpc.RpcError) as failed:
        stub.Decide(request, metadata=TOKEN)
    assert "choose returned undefined, not an index into request.legal_actions" in (
        failed.value.details()
    )


def test_a_game_is_forgotten_after_its_end(stub):
    # A bot that stays up plays many games: what StartGame told it must not pile up.
    stub.StartGame(bot_pb2.StartGameRequest(game_id="g1", game="merkator"), metadata=TOKEN)
    stub.EndGame(bot_pb2.EndGameRequest(game_id="g1"), metadata=TOKEN)
    three = [bot_pb2.Action()] * 3
    after = stub.Decide(
        bot_pb2.DecisionRequest(game_id="g1", decision_number=1, legal_actions=three),
        metadata=TOKEN,
    )
    assert after.action_index == 0, "gameOf no longer names merkator"


def test_history_of_holds_every_event_of_its_game_so_far(stub):
    stub.StartGame(bot_pb2.StartGameRequest(game_id="h1", game="oregon"), metadata=TOKEN)
    stub.StartGame(bot_pb2.StartGameRequest(game_id="h2", game="oregon"), metadata=TOKEN)
    nine = [bot_pb2.Action()] * 9

    def decide(game_id, events):
        request = bot_pb2.DecisionRequest(
            game_id=game_id, legal_actions=nine, events=[bot_pb2.GameEvent()] * events
        )
        return stub.Decide(request, metadata=TOKEN).action_index

    assert decide("h1", 2) == 2
    assert decide("h2", 1) == 1  # another game, its own history
    assert decide("h1", 3) == 5
    stub.EndGame(bot_pb2.EndGameRequest(game_id="h1"), metadata=TOKEN)
    assert decide("h1", 0) == 0, "forgotten after its end"
