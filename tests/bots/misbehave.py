"""Test bots that break the protocol on purpose, one behaviour per bot directory next to this file.

    python ../misbehave.py MODE

Each plays random legal actions until its third decision (or the decision numbered by the
environment variable ``MISBEHAVE_AT``, counting from 1; a test sets it in a bot.toml's ``[env]``
to misbehave at the first or the last decision), then: ``sleep`` hangs past any limit, ``exit``
quits the process, ``out-of-range`` answers an index past the legal list, ``index-len`` answers
exactly ``len(legal)`` (one past the end), ``index-minus-one`` answers -1, ``raise`` raises an
exception in its Decide handler (gRPC reports it to the arena; ``MISBEHAVE_MESSAGE`` sets its
text), ``stale`` answers with the previous decision number. ``slow`` takes 0.15 s over every
decision. ``protocol-2`` answers the handshake with protocol version 2 (the arena speaks 1).
``second-game-exit`` plays its process's first game well and quits at the third decision of its
second (a bot that stays up across games and then breaks). ``never-ready`` never listens (and
starts a grandchild that would outlive it unless the arena stops the whole process group).
``sleep`` says on stderr when it starts hanging, so a test can wait for that moment.
``stall-once`` hangs as ``sleep`` does, but only in the first of the bot processes that share
the file named by ``MISBEHAVE_ONCE`` (which it creates): a host that paused once.

Modes that break the calls around the decisions: ``start-game-raise`` raises in its StartGame
handler, ``start-game-sleep`` hangs in StartGame, ``start-game-garbage`` answers StartGame with
bytes that are no StartGameReply, ``start-game-twice`` answers StartGame with two replies (a server
that streams its answer), ``decide-twice`` every Decide, ``handshake-twice`` the handshake,
``end-game-sleep`` plays well and hangs in EndGame, and ``abort-silently`` fails its decision
(``MISBEHAVE_AT``) with the status INTERNAL and no details, ``forged-deadline`` at once with
DEADLINE_EXCEEDED (a timeout that is not the arena's), ``forged-too-large`` with RESOURCE_EXHAUSTED
in gRPC's words for a reply over the limit, ``garbage-decide`` answers it with bytes that are no
DecisionReply, ``server-stop`` stops its gRPC server in the middle of it, ``zip-bomb`` answers it
with 2 MiB that gzip makes 2 KiB, ``huge-metadata`` with 32 KiB of trailing metadata (past gRPC's
limit), ``huge-reply`` with a reply of 17 MiB (over the arena's receive limit). ``MISBEHAVE_DELAY``
(seconds, in a bot.toml's ``[env]``) makes every decision of the sdk-based modes and these two take
at least that long.

``gated`` plays well, but lets a test decide how many games may finish: in seat 0, before its first
decision in each game, it takes one ticket file from the directory named by
``ARENA_TEST_TURNSTILE`` (inherited from the arena's environment), waiting until there is one; so
one ticket lets one game of gated bots finish. Without that variable it never waits.
"""

import os
import subprocess
import sys
import threading
import time
import tomllib
from concurrent import futures
from pathlib import Path

import grpc

from arena import sdk
from arena.bot.v1 import bot_pb2, bot_pb2_grpc

MISBEHAVE_AT = int(os.environ.get("MISBEHAVE_AT", "3"))
# Seconds every decision takes at least (a test's lower bound on the time a seat used).
MISBEHAVE_DELAY = float(os.environ.get("MISBEHAVE_DELAY", "0"))
GRANDCHILD_MARKER = "arena-test-grandchild"  # tests look for it in the process table

mode = sys.argv[1]
rng = sdk.seeded_random()
decisions = 0
games: list[str] = []  # the game ids this process has seen, in order
seat = None  # from StartGame


def remember_seat(request: bot_pb2.StartGameRequest) -> None:
    global seat
    seat = request.seat


def take_a_ticket(turnstile: Path) -> None:
    """Wait for a ticket and take it: removing the file is the claim (no two bots share one)."""
    while True:
        for ticket in sorted(turnstile.glob("ticket-*")):
            try:
                ticket.unlink()
                return
            except FileNotFoundError:
                continue  # another bot took it first
        time.sleep(0.02)


def first_stall() -> bool:
    """True once for every bot process sharing the file named by ``MISBEHAVE_ONCE``."""
    try:
        Path(os.environ["MISBEHAVE_ONCE"]).touch(exist_ok=False)
    except FileExistsError:
        return False
    return True


def delay() -> None:
    if MISBEHAVE_DELAY:
        time.sleep(MISBEHAVE_DELAY)


def choose(request: bot_pb2.DecisionRequest) -> int:
    global decisions
    first_in_game = request.game_id not in games
    if first_in_game:
        games.append(request.game_id)
        if mode == "second-game-exit":
            decisions = 0
    decisions += 1
    if mode == "second-game-exit" and len(games) == 2 and decisions == MISBEHAVE_AT:
        print("misbehave: exiting in my second game", file=sys.stderr, flush=True)
        os._exit(3)
    if mode == "slow":
        time.sleep(0.15)
    delay()
    # Each game's first decision, not the process's: a bot that stays up plays many games.
    if mode == "gated" and first_in_game and seat == 0 and "ARENA_TEST_TURNSTILE" in os.environ:
        take_a_ticket(Path(os.environ["ARENA_TEST_TURNSTILE"]))
    if decisions == MISBEHAVE_AT:
        if mode == "sleep" or (mode == "stall-once" and first_stall()):
            print("misbehave: hanging on purpose", file=sys.stderr, flush=True)
            time.sleep(3600)
        elif mode == "exit":
            print("misbehave: exiting on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        elif mode == "out-of-range":
            return len(request.legal_actions) + 5
        elif mode == "index-len":
            return len(request.legal_actions)
        elif mode == "index-minus-one":
            return -1
        elif mode == "raise":
            raise RuntimeError(os.environ.get("MISBEHAVE_MESSAGE", "misbehave: raising on purpose"))
    return rng.randrange(len(request.legal_actions))


class _OtherProtocolVersion(bot_pb2_grpc.BotServicer):
    """Answers the handshake as a bot of a future protocol version would."""

    def Handshake(self, request, context):
        return bot_pb2.HandshakeReply(
            name="protocol-2",
            version="1.0.0",
            protocol_version=2,
            games=["oregon", "ogallala", "merkator"],
        )


def hang(where: str) -> None:
    print(f"misbehave: hanging in {where} on purpose", file=sys.stderr, flush=True)
    time.sleep(3600)


def raise_in_start_game(request: bot_pb2.StartGameRequest) -> None:
    raise RuntimeError("misbehave: raising in StartGame on purpose")


def _unary(handler, request_type, reply_type=None) -> grpc.RpcMethodHandler:
    """A method handler; without ``reply_type`` the handler returns the reply's raw bytes."""
    return grpc.unary_unary_rpc_method_handler(
        handler,
        request_deserializer=request_type.FromString,
        response_serializer=reply_type.SerializeToString if reply_type else None,
    )


def identity() -> bot_pb2.HandshakeReply:
    """A well-formed handshake from the bot.toml in the working directory."""
    manifest = tomllib.loads(Path("bot.toml").read_text())
    return bot_pb2.HandshakeReply(
        name=manifest["name"],
        version=manifest["version"],
        protocol_version=bot_pb2.PROTOCOL_VERSION_1,
        games=manifest["games"],
    )


def serve_raw(start_game, decide, handshake=None) -> None:
    """Serve the Bot service with these StartGame and Decide handlers (gRPC's method handlers,
    whose functions see the call's context), a well-formed handshake (unless ``handshake``),
    and EndGame."""
    reply = identity()
    handlers = {
        "Handshake": handshake
        or _unary(lambda request, context: reply, bot_pb2.HandshakeRequest, bot_pb2.HandshakeReply),
        "StartGame": start_game,
        "Decide": decide,
        "EndGame": _unary(
            lambda request, context: bot_pb2.EndGameReply(),
            bot_pb2.EndGameRequest,
            bot_pb2.EndGameReply,
        ),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("arena.bot.v1.Bot", handlers)]
    )
    server.add_insecure_port(os.environ["ARENA_BOT_ADDRESS"])
    servers.append(server)
    server.start()
    server.wait_for_termination()


servers: list[grpc.Server] = []  # serve_raw's, for server-stop


# A truncated varint: no reply message parses from it.
GARBAGE = b"\x08"


def decide_or_break(request: bot_pb2.DecisionRequest, context) -> bytes:
    """A random decision, except the one numbered ``MISBEHAVE_AT``: ``abort-silently`` fails that
    call with no details, ``garbage-decide`` answers it with bytes that are no DecisionReply."""
    global decisions
    decisions += 1
    delay()
    if decisions == MISBEHAVE_AT:
        if mode == "abort-silently":
            context.abort(grpc.StatusCode.INTERNAL, "")
        if mode == "forged-deadline":  # at once: as if the arena's deadline had passed
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded")
        if mode == "server-stop":  # the referee's call ends with the server's GOAWAY
            threading.Thread(target=lambda: servers[0].stop(0), daemon=True).start()
            time.sleep(0.5)
        if mode == "huge-metadata":  # past gRPC's hard limit of 16 KiB of metadata
            context.set_trailing_metadata((("x-padding", "x" * (32 << 10)),))
        if mode == "zip-bomb":  # 2 MiB that gzip makes 2 KiB: over the limit once unpacked
            context.set_compression(grpc.Compression.Gzip)
            return bot_pb2.DecisionReply(
                decision_number=request.decision_number, comment="x" * (2 << 20)
            ).SerializeToString()
        if mode == "forged-too-large":  # gRPC's words for a reply over the receive limit
            context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "Stream removed (CLIENT: Received message larger than max (31337 vs. 7))",
            )
        return GARBAGE
    return bot_pb2.DecisionReply(
        decision_number=request.decision_number,
        action_index=rng.randrange(len(request.legal_actions)),
    ).SerializeToString()


if mode == "never-ready":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", GRANDCHILD_MARKER])
    time.sleep(3600)
elif mode == "protocol-2":
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    bot_pb2_grpc.add_BotServicer_to_server(_OtherProtocolVersion(), server)
    server.add_insecure_port(os.environ["ARENA_BOT_ADDRESS"])
    server.start()
    server.wait_for_termination()
elif mode == "stale":

    def reply(request: bot_pb2.DecisionRequest) -> bot_pb2.DecisionReply:
        global decisions
        decisions += 1
        number = request.decision_number - (decisions == MISBEHAVE_AT)
        return bot_pb2.DecisionReply(
            decision_number=number, action_index=rng.randrange(len(request.legal_actions))
        )

    sdk.run_replies(reply)
elif mode == "huge-reply":

    def reply(request: bot_pb2.DecisionRequest) -> bot_pb2.DecisionReply:
        global decisions
        decisions += 1
        return bot_pb2.DecisionReply(
            decision_number=request.decision_number,
            action_index=rng.randrange(len(request.legal_actions)),
            comment="x" * (17 << 20) if decisions == MISBEHAVE_AT else "",  # over 16 MiB
        )

    sdk.run_replies(reply)
elif mode == "start-game-raise":
    sdk.run(choose, on_start=raise_in_start_game)
elif mode == "start-game-sleep":
    sdk.run(choose, on_start=lambda request: hang("StartGame"))
elif mode == "end-game-sleep":
    sdk.run(choose, on_end=lambda request: hang("EndGame"))
elif mode == "start-game-twice":

    def answer_twice(request: bot_pb2.StartGameRequest, context):
        yield bot_pb2.StartGameReply()
        yield bot_pb2.StartGameReply()

    start_game = grpc.unary_stream_rpc_method_handler(
        answer_twice,
        request_deserializer=bot_pb2.StartGameRequest.FromString,
        response_serializer=bot_pb2.StartGameReply.SerializeToString,
    )
    serve_raw(start_game, _unary(decide_or_break, bot_pb2.DecisionRequest))
elif mode == "handshake-twice":

    def handshake_twice(request: bot_pb2.HandshakeRequest, context):
        yield identity()
        yield identity()

    handshake = grpc.unary_stream_rpc_method_handler(
        handshake_twice,
        request_deserializer=bot_pb2.HandshakeRequest.FromString,
        response_serializer=bot_pb2.HandshakeReply.SerializeToString,
    )
    serve_raw(
        _unary(lambda request, context: b"", bot_pb2.StartGameRequest),
        _unary(decide_or_break, bot_pb2.DecisionRequest),
        handshake,
    )
elif mode == "decide-twice":

    def decide_twice(request: bot_pb2.DecisionRequest, context):
        reply = bot_pb2.DecisionReply(
            decision_number=request.decision_number,
            action_index=rng.randrange(len(request.legal_actions)),
            comment="a reply in two messages",
        )
        yield reply
        yield reply

    decide = grpc.unary_stream_rpc_method_handler(
        decide_twice,
        request_deserializer=bot_pb2.DecisionRequest.FromString,
        response_serializer=bot_pb2.DecisionReply.SerializeToString,
    )
    serve_raw(_unary(lambda request, context: b"", bot_pb2.StartGameRequest), decide)
elif mode in (
    "start-game-garbage",
    "abort-silently",
    "forged-deadline",
    "forged-too-large",
    "garbage-decide",
    "server-stop",
    "zip-bomb",
    "huge-metadata",
):
    start_game = _unary(
        lambda request, context: (
            GARBAGE
            if mode == "start-game-garbage"
            else bot_pb2.StartGameReply().SerializeToString()
        ),
        bot_pb2.StartGameRequest,
    )
    serve_raw(start_game, _unary(decide_or_break, bot_pb2.DecisionRequest))
else:
    sdk.run(choose, on_start=remember_seat)
