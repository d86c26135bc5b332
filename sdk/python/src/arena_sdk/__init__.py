"""The Python bot SDK: a bot is a function that picks the index of one legal action.

    import arena_sdk as sdk

    rng = sdk.seeded_random()                 # seeded from ARENA_BOT_SEED: games reproduce

    def choose(request):                      # an arena.bot.v1.DecisionRequest
        return rng.randrange(len(request.legal_actions))

    sdk.run(choose)

``run`` serves the ``arena.bot.v1.Bot`` gRPC service on ``ARENA_BOT_ADDRESS``, answers the
handshake with the name, version and games of the ``bot.toml`` in the working directory (the arena
starts a bot in its directory), refuses calls without ``ARENA_BOT_TOKEN`` (when one is set) with
UNAUTHENTICATED and echoes the decision number. Requests reach ``choose`` and the hooks as they
came, so fields added to the protocol appear without a new SDK. ``game_of(request)`` names the game
of a decision; ``history_of(request)`` is every event its seat has received in that game so far
(``request.events`` holds only those since the seat's previous decision): the game's public
history as that seat may see it. A game_id names one game and seat, so a process playing several
games, or several seats of one game, keeps them apart by it. The generated protobuf code is
``arena_sdk.v1`` (``bot_pb2``, ``oregon_pb2``, ...).

Depends on grpcio and protobuf only: ``pip install ./sdk/python``.
"""

from __future__ import annotations

import io
import logging
import operator
import os
import random
import sys
import tomllib
from collections.abc import Callable
from concurrent import futures
from pathlib import Path

import grpc

from arena_sdk.v1 import bot_pb2, bot_pb2_grpc

__all__ = [
    "PROTOCOL_VERSION",
    "TOKEN_METADATA_KEY",
    "TOKEN_REFUSED",
    "bot_pb2",
    "game_of",
    "history_of",
    "load_fixture",
    "replying_with",
    "run",
    "run_replies",
    "seeded_random",
    "serve",
]

PROTOCOL_VERSION = bot_pb2.PROTOCOL_VERSION_1
# Request metadata key of the arena token (bot.proto): the referee sends it, a bot checks it.
TOKEN_METADATA_KEY = "x-arena-token"
# The status a bot answers a call with a wrong or missing token (docs/bots.md, "Remote bots").
TOKEN_REFUSED = grpc.StatusCode.UNAUTHENTICATED

Choose = Callable[[bot_pb2.DecisionRequest], int]
Reply = Callable[[bot_pb2.DecisionRequest], bot_pb2.DecisionReply]
StartHook = Callable[[bot_pb2.StartGameRequest], None]
EndHook = Callable[[bot_pb2.EndGameRequest], None]


_games: dict[str, str] = {}  # game_id -> game name, filled by StartGame
# game_id -> the events received so far; dropped after EndGame (address bots play on for days)
_histories: dict[str, list[bot_pb2.GameEvent]] = {}


def game_of(request: bot_pb2.DecisionRequest) -> str:
    """The name of the game a decision belongs to ("oregon", ...), as its StartGame said."""
    return _games[request.game_id]


def history_of(
    request: bot_pb2.DecisionRequest | bot_pb2.EndGameRequest,
) -> list[bot_pb2.GameEvent]:
    """Every event the request's seat has received in its game, oldest first, the request's own
    included (in an ``on_end`` hook: the whole game)."""
    return _histories.get(request.game_id, [])


def _started(request: bot_pb2.StartGameRequest) -> None:
    _games[request.game_id] = request.game
    _histories[request.game_id] = []


def _received(request: bot_pb2.DecisionRequest | bot_pb2.EndGameRequest) -> None:
    _histories.setdefault(request.game_id, []).extend(request.events)


def load_fixture(folder: str | Path) -> bot_pb2.DecisionRequest:
    """The DecisionRequest of a fixture that ``arena fixtures`` wrote (``folder`` holds its
    start_game.binpb and decide.binpb), received as from the arena: its StartGame first, so
    ``game_of`` and ``history_of`` answer for it. For unit tests of ``choose`` (docs/bots.md,
    "Unit-testing your bot offline")."""
    folder = Path(folder)
    _started(bot_pb2.StartGameRequest.FromString((folder / "start_game.binpb").read_bytes()))
    request = bot_pb2.DecisionRequest.FromString((folder / "decide.binpb").read_bytes())
    _received(request)
    return request


def seeded_random() -> random.Random:
    """A random generator seeded from ``ARENA_BOT_SEED`` (0 when run by hand)."""
    return random.Random(int(os.environ.get("ARENA_BOT_SEED", "0")))


class _Servicer(bot_pb2_grpc.BotServicer):
    def __init__(
        self,
        identity: bot_pb2.HandshakeReply,
        token: str,
        reply: Reply,
        on_start: StartHook | None,
        on_end: EndHook | None,
    ) -> None:
        self._identity = identity
        self._token = token
        self._reply = reply
        self._on_start = on_start
        self._on_end = on_end

    def _check_token(self, context: grpc.ServicerContext) -> None:
        if self._token and (TOKEN_METADATA_KEY, self._token) not in context.invocation_metadata():
            context.abort(TOKEN_REFUSED, "wrong or missing arena token")

    def Handshake(self, request, context):
        self._check_token(context)
        return self._identity

    def StartGame(self, request, context):
        self._check_token(context)
        _started(request)
        if self._on_start:
            self._on_start(request)
        return bot_pb2.StartGameReply()

    def Decide(self, request, context):
        self._check_token(context)
        _received(request)
        return self._reply(request)

    def EndGame(self, request, context):
        self._check_token(context)
        _received(request)
        try:
            if self._on_end:
                self._on_end(request)
        finally:
            _histories.pop(request.game_id, None)
            _games.pop(request.game_id, None)
        return bot_pb2.EndGameReply()


def _identity_from_manifest(manifest: Path) -> bot_pb2.HandshakeReply:
    data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    return bot_pb2.HandshakeReply(
        name=data["name"],
        version=data["version"],
        protocol_version=PROTOCOL_VERSION,
        games=data["games"],
    )


def replying_with(choose: Choose) -> Reply:
    """The reply function of a bot that only picks an index: it echoes the decision number.
    An answer of ``choose`` that is no whole number fails the call (the arena records a CRASH
    with the error): ``None`` (a ``return`` forgotten) was sent as index 0, and the bot played
    the first legal action at every decision without a word."""

    def reply(request: bot_pb2.DecisionRequest) -> bot_pb2.DecisionReply:
        index = choose(request)
        try:
            index = operator.index(index)  # an int, or a NumPy integer
        except TypeError:
            raise TypeError(
                f"choose returned {index!r}, not an index into request.legal_actions"
            ) from None
        return bot_pb2.DecisionReply(decision_number=request.decision_number, action_index=index)

    return reply


def serve(
    reply: Reply,
    *,
    address: str,
    token: str = "",
    manifest: Path = Path("bot.toml"),
    on_start: StartHook | None = None,
    on_end: EndHook | None = None,
) -> grpc.Server:
    """Start serving on ``address`` and return the running server (for tests and embedding)."""
    servicer = _Servicer(_identity_from_manifest(manifest), token, reply, on_start, on_end)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(servicer, server)
    if not server.add_insecure_port(address):
        raise RuntimeError(f"cannot listen on {address}")
    server.start()
    return server


def run(
    choose: Choose,
    *,
    on_start: StartHook | None = None,
    on_end: EndHook | None = None,
    manifest: Path = Path("bot.toml"),
) -> None:
    """Serve until the arena stops the process. ``choose(request)`` returns the chosen index;
    ``on_start``/``on_end`` optionally see the StartGame and EndGame requests."""
    run_replies(replying_with(choose), on_start=on_start, on_end=on_end, manifest=manifest)


def run_replies(
    reply: Reply,
    *,
    on_start: StartHook | None = None,
    on_end: EndHook | None = None,
    manifest: Path = Path("bot.toml"),
) -> None:
    """Like ``run``, for bots that build the whole DecisionReply (e.g. to add a comment)."""
    if "ARENA_BOT_ADDRESS" not in os.environ:
        raise SystemExit(
            "ARENA_BOT_ADDRESS is not set: the arena starts bots and sets it "
            '(README, "Write a bot")'
        )
    # gRPC logs an exception raised by the bot's code (e.g. a MemoryError under the arena's
    # memory limit) but has no handler of its own: send it to stderr, the bot's log.
    logging.basicConfig()
    # What the bot prints reaches its log line by line, even where the arena did not set
    # PYTHONUNBUFFERED: a block buffer is lost when the arena stops the process (SIGTERM).
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    server = serve(
        reply,
        address=os.environ["ARENA_BOT_ADDRESS"],
        token=os.environ.get("ARENA_BOT_TOKEN", ""),
        manifest=manifest,
        on_start=on_start,
        on_end=on_end,
    )
    server.wait_for_termination()
