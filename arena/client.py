"""The referee's side of a bot connection: grpcio's sync client, its calls bridged into trio.

Each call is started with ``.future()`` and a gRPC deadline; its completion callback (on a grpcio
thread) wakes the waiting trio task through the trio token. Nothing blocks the trio thread, no
worker thread is used, and cancelling the trio scope cancels the RPC at once (DESIGN.md, technical
notes).
"""

from __future__ import annotations

from typing import Any

import grpc
import trio

from arena.bot.v1 import bot_pb2, bot_pb2_grpc

TOKEN_METADATA_KEY = "x-arena-token"

# gRPC waits about 1 s before reconnecting to a just-started bot by default; lower back-off makes
# start-to-ready fast.
_CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 10),
    ("grpc.min_reconnect_backoff_ms", 10),
    ("grpc.max_reconnect_backoff_ms", 100),
    ("grpc.enable_retries", 0),
    ("grpc.max_receive_message_length", 16 * 1024 * 1024),
)


async def await_future(future: grpc.Future) -> Any:
    """Wait in trio for a grpcio future; cancellation of the waiting task cancels the RPC."""
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def wake(_: grpc.Future) -> None:
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass  # the trio run is gone; nobody waits for this call any more

    future.add_done_callback(wake)
    try:
        await done.wait()
    except BaseException:
        future.cancel()
        raise
    return future.result()


class BotClient:
    """One channel to one bot. Calls raise ``grpc.RpcError`` on failure (deadline, lost bot)."""

    def __init__(self, address: str, token: str) -> None:
        self.address = address
        self._channel = grpc.insecure_channel(address, options=_CHANNEL_OPTIONS)
        self._stub = bot_pb2_grpc.BotStub(self._channel)
        self._metadata = ((TOKEN_METADATA_KEY, token),)

    async def handshake(self, timeout: float) -> bot_pb2.HandshakeReply:
        """Wait up to ``timeout`` seconds for the bot to listen and answer."""
        request = bot_pb2.HandshakeRequest(protocol_version=bot_pb2.PROTOCOL_VERSION_1)
        return await await_future(self._stub.Handshake.future(
            request, timeout=timeout, metadata=self._metadata, wait_for_ready=True))

    async def start_game(self, request: bot_pb2.StartGameRequest,
                         timeout: float) -> bot_pb2.StartGameReply:
        return await await_future(
            self._stub.StartGame.future(request, timeout=timeout, metadata=self._metadata))

    async def decide(self, request: bot_pb2.DecisionRequest,
                     timeout: float) -> bot_pb2.DecisionReply:
        return await await_future(
            self._stub.Decide.future(request, timeout=timeout, metadata=self._metadata))

    async def end_game(self, request: bot_pb2.EndGameRequest,
                       timeout: float) -> bot_pb2.EndGameReply:
        return await await_future(
            self._stub.EndGame.future(request, timeout=timeout, metadata=self._metadata))

    def close(self) -> None:
        self._channel.close()
