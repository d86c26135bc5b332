"""The referee's side of a bot connection: grpcio's sync client.

Decide, the call made thousands of times a game, is a plain blocking call (``decide``), made by
the thread that plays the game's decisions (``arena.referee.match``): no thread hands it on. The
calls made once a game (Handshake, StartGame, EndGame) are bridged into trio: each bot connection
has one worker thread that makes them with a gRPC deadline and hands each result back to the
waiting trio task through the trio token, so nothing blocks the trio thread. If the waiting trio
task is cancelled, the channel is closed, which ends its calls at once, and the worker thread
exits. Measured (docs/scale.md): the bridge is faster than ``.future()``, which starts a new
polling thread for each call on an otherwise idle channel; a Decide made on the decision thread
costs a third less CPU than one through the bridge.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

import grpc
import grpc.experimental
import trio
from google.protobuf.message import DecodeError, Message

from arena.bot.v1 import bot_pb2, bot_pb2_grpc
from arena.errors import ClosedClientError, ExtraReplyError, MalformedReplyError
from arena.protocol import DECIDE_METHOD, PROTOCOL_VERSION, TOKEN_METADATA_KEY
from arena.referee import stall_guard
from arena.referee.stall_guard import STALLS

# gRPC waits about 1 s before reconnecting to a just-started bot by default; a low back-off makes
# start-to-ready fast.
ChannelOptions = tuple[tuple[str, int | str], ...]
# A bot's replies are small (a DecisionReply keeps 200 characters of comment); a larger limit let a
# bot make the referee inflate 16 MiB of gzip per decision for 16 KB sent, about 41 ms of the
# referee's CPU each (outside review). Over it a reply is ILLEGAL.
RECEIVE_LIMIT_BYTES = 1 << 20
CHANNEL_OPTIONS: ChannelOptions = (
    ("grpc.initial_reconnect_backoff_ms", 10),
    ("grpc.min_reconnect_backoff_ms", 10),
    ("grpc.max_reconnect_backoff_ms", 20),
    ("grpc.enable_retries", 0),
    ("grpc.max_receive_message_length", RECEIVE_LIMIT_BYTES),
    # StartGame, read as a stream (``_single``), is then read by the thread that waits for it,
    # as a unary call is; by default grpcio starts a polling thread for it on every game (the
    # channel has no other streaming call), which made a StartGame cost the referee half as much
    # CPU again (docs/scale.md, seventh pass).
    (grpc.experimental.ChannelOptions.SingleThreadedUnaryStream, 1),
    # A connection of each client's own: gRPC shares one among the channels to an address, so a
    # remote bot's connection left stalled (a call given up, ``BotClient._given_up_past``) was
    # handed to the client of its next game, whose handshake then waited 10 s in vain.
    ("grpc.use_local_subchannel_pool", 1),
)
# On a Unix socket grpcio sends the socket's path as HTTP/2's :authority, which stricter HTTP/2
# servers refuse (Rust's h2, under tonic: every call reset with PROTOCOL_ERROR); a host name is
# what other gRPC clients send there (grpc-go sends "localhost").
UNIX_SOCKET_AUTHORITY = "localhost"
_STOP = None
# gRPC's longest deadline: a call with a longer timeout (a --move-time of 1e10 s) failed at once
# with DEADLINE_EXCEEDED, and the bot was blamed. About three years is as good as forever.
_LONGEST_TIMEOUT = 1e8
_START_GAME_METHOD = f"/{bot_pb2.DESCRIPTOR.services_by_name['Bot'].full_name}/StartGame"


def _parsed(call: Callable[..., bytes | None], reply_type: type[Message]) -> Callable[..., Any]:
    """``call`` (which returns the reply's bytes) made to return the parsed reply, or raise
    MalformedReplyError: a bot's garbage is told apart from a transport failure by type."""

    def parse(*args: Any, **kwargs: Any) -> Message:
        raw = call(*args, **kwargs)
        if raw is None:  # an OK status without a message (a server that streams its answer)
            raise MalformedReplyError(f"no {reply_type.DESCRIPTOR.name}, only an OK status")
        try:
            return reply_type.FromString(raw)
        except DecodeError:
            size = "1 byte" if len(raw) == 1 else f"{len(raw)} bytes"
            name = reply_type.DESCRIPTOR.name
            raise MalformedReplyError(f"not a {name} ({size} that protobuf cannot parse)") from None

    return parse


def _single(call: Callable[..., Any]) -> Callable[..., bytes | None]:
    """``call`` (a response-streaming call) made to return its one reply's bytes (None for none),
    or raise ExtraReplyError at a second reply. A unary call given two replies by a bot waits
    for its deadline (grpcio), which blamed the bot for not answering at all; read as a stream,
    the second reply shows."""

    def single(*args: Any, **kwargs: Any) -> bytes | None:
        replies = call(*args, **kwargs)
        first = next(replies, None)
        if first is not None and next(replies, None) is not None:
            replies.cancel()
            raise ExtraReplyError("a second reply")
        return first

    return single


class _Call:
    """One call handed to the worker; ``outcome`` is set before ``done`` fires."""

    __slots__ = ("function", "args", "kwargs", "done", "outcome", "error")

    def __init__(self, function: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        self.function, self.args, self.kwargs = function, args, kwargs
        self.done = trio.Event()
        self.outcome: Any = None
        self.error: BaseException | None = None


class GivenUpError(grpc.RpcError):
    """A remote bot's call given up past its deadline (``BotClient._given_up_past``): the
    timeout it is, as gRPC's own deadline would have said."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no reply within {seconds:.3g} s, and the call did not end")

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.DEADLINE_EXCEEDED

    def details(self) -> str:
        return str(self)


class BotClient:
    """One channel to one bot. Calls raise ``grpc.RpcError`` on failure (deadline, lost bot)."""

    def __init__(
        self,
        address: str,
        token: str,
        options: ChannelOptions = CHANNEL_OPTIONS,
        on_stall: Callable[[], None] | None = None,
    ) -> None:
        """``options``: the channel's; the arena's own unless a benchmark compares others.
        ``on_stall``: what ends a call that outlives its deadline (``arena.referee.stall_guard``:
        a local bot's client kills the bot), also run when the client is closed mid-call."""
        self.address = address
        self._on_stall = on_stall
        self._in_flight: set[int] = set()  # the stall guard's keys of the calls under way
        # A bot elsewhere (NAME@HOST:PORT) is no process of ours to kill: a call of its that
        # outlives its deadline is given up instead (``_given_up_past``).
        self._remote = on_stall is None and not address.startswith("unix:")
        self._waiting: set[threading.Event] = set()  # the remote calls waited for now
        if address.startswith("unix:"):
            options = (*options, ("grpc.default_authority", UNIX_SOCKET_AUTHORITY))
        self._channel = grpc.insecure_channel(address, options=options)
        self._stub = bot_pb2_grpc.BotStub(self._channel)
        # The replies the referee judges are parsed here, not by gRPC: a reply that does not
        # parse is then a MalformedReplyError, not an INTERNAL status like a transport fault's.
        # Decide takes the request already serialized (arena.wire.requests builds it as bytes).
        self._decide = _parsed(
            self._channel.unary_unary(
                DECIDE_METHOD,
                request_serializer=None,
                response_deserializer=None,
                _registered_method=True,  # type: ignore[call-arg]  # grpc's own stubs pass it
            ),
            bot_pb2.DecisionReply,
        )
        # StartGame, once per game, is read as a stream so that a second reply is told apart.
        self._start_game = _parsed(
            _single(
                self._channel.unary_stream(
                    _START_GAME_METHOD,
                    request_serializer=bot_pb2.StartGameRequest.SerializeToString,
                    response_deserializer=None,
                    _registered_method=True,  # type: ignore[call-arg]
                )
            ),
            bot_pb2.StartGameReply,
        )
        self._metadata = ((TOKEN_METADATA_KEY, token),)
        self._token = trio.lowlevel.current_trio_token()
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._worker = threading.Thread(
            target=self._work, name=f"arena-bot-client {address}", daemon=True
        )
        self._worker.start()
        self._closed = False

    def _work(self) -> None:
        while (call := self._calls.get()) is not _STOP:
            try:
                call.outcome = self._watched(
                    call.kwargs["timeout"], call.function, *call.args, **call.kwargs
                )
            except BaseException as exc:  # noqa: BLE001 - handed to the trio task
                call.error = exc
            try:
                self._token.run_sync_soon(call.done.set)
            except trio.RunFinishedError:
                return  # the trio run is gone; nobody waits any more

    def _check_open(self) -> None:
        if self._closed:
            raise ClosedClientError(f"client of {self.address} is closed")

    async def _call(
        self, function: Callable[..., Any], request: Any, timeout: float, **kwargs: Any
    ) -> Any:
        self._check_open()
        call = _Call(
            function,
            (request,),
            {"timeout": min(timeout, _LONGEST_TIMEOUT), "metadata": self._metadata, **kwargs},
        )
        self._calls.put(call)
        try:
            await call.done.wait()
        except BaseException:
            self.close()  # ends the call in flight; the worker then stops
            raise
        if call.error is not None:
            raise call.error
        return call.outcome

    async def handshake(self, timeout: float) -> bot_pb2.HandshakeReply:
        """Wait up to ``timeout`` seconds for the bot to listen and answer."""
        request = bot_pb2.HandshakeRequest(protocol_version=PROTOCOL_VERSION)
        return await self._call(self._stub.Handshake, request, timeout, wait_for_ready=True)

    async def start_game(
        self, request: bot_pb2.StartGameRequest, timeout: float
    ) -> bot_pb2.StartGameReply:
        """Raises MalformedReplyError for a reply that does not parse, ExtraReplyError for a
        second reply."""
        return await self._call(self._start_game, request, timeout)

    def decide(self, request: bytes, timeout: float) -> bot_pb2.DecisionReply:
        """A blocking call, made on the calling thread: the referee's decisions are played in a
        thread of their own (``arena.referee.match``), so a decision costs no hand-off between
        threads. ``request`` is a serialized DecisionRequest. Raises MalformedReplyError for a
        reply that does not parse, ClosedClientError once the client is closed (closing it
        ends a call in flight)."""
        self._check_open()
        timeout = min(timeout, _LONGEST_TIMEOUT)
        return self._watched(
            timeout, self._decide, request, timeout=timeout, metadata=self._metadata
        )

    def _watched(
        self, seconds: float, function: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Any:
        """``function(*args, **kwargs)``, a blocking call of ``seconds`` at most, watched for a
        stall (a bot that stops reading its socket holds it past any deadline) if it can be
        ended."""
        if self._on_stall is None:
            if self._remote:
                return self._given_up_past(seconds, function, *args, **kwargs)
            return function(*args, **kwargs)
        key = STALLS.watch(seconds, self._on_stall)
        self._in_flight.add(key)
        try:
            return function(*args, **kwargs)
        finally:
            self._in_flight.discard(key)
            STALLS.done(key)

    def _given_up_past(
        self, seconds: float, function: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Any:
        """A remote bot's blocking call, made on a thread of its own and given up
        ``GRACE_SECONDS`` past its deadline (a bot that stops reading its socket holds it for
        ever, and there is no process to kill), or at once when the client is closed. A call
        given up is left to gRPC: its thread ends if the call ever does."""
        ended, box = threading.Event(), {}

        def call() -> None:
            try:
                box["outcome"] = function(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                box["error"] = exc
            finally:
                ended.set()

        self._waiting.add(ended)
        try:
            threading.Thread(
                target=call, name=f"arena-remote-call {self.address}", daemon=True
            ).start()
            ended.wait(seconds + stall_guard.GRACE_SECONDS)
        finally:
            self._waiting.discard(ended)
        if "error" in box:
            raise box["error"]
        if "outcome" in box:
            return box["outcome"]
        if self._closed:
            raise ClosedClientError(f"client of {self.address} is closed")
        raise GivenUpError(seconds)

    async def end_game(
        self, request: bot_pb2.EndGameRequest, timeout: float
    ) -> bot_pb2.EndGameReply:
        return await self._call(self._stub.EndGame, request, timeout)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close the channel (ending any call in flight) and let the worker thread exit. A call
        that closing does not end (a stalled bot's) ends by ``on_stall``: the game is over."""
        if not self._closed:
            self._closed = True
            self._calls.put(_STOP)
            self._channel.close()
            if self._in_flight and self._on_stall is not None:
                self._on_stall()
            for waiting in list(self._waiting):  # remote calls closing did not end
                waiting.set()
