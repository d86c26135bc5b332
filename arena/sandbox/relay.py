"""A sandboxed bot's HTTP/2, filtered before the referee reads it: a small relay process between
the referee's gRPC client and the bot's socket, in the bot's own cgroup.

gRPC parses every frame a bot sends in the referee's process, and HTTP/2 obliges a client to take
frames that need no answer (PRIORITY, WINDOW_UPDATE, RST_STREAM, PING acknowledgements, frames of
unknown types) in any number. A bot that flooded them made the referee spend up to a core per
connection (3 to 26 times the bot's own CPU), read other bots' replies late and charge the delay
to their clocks: at short move times honest bots lost on time (outside review E). Here the bot's
frames are read by a process that the arena starts in the bot's cgroup, so a flood spends the
bot's own CPU, and only what the referee needs passes:

* header blocks (HEADERS and their CONTINUATIONs), DATA, RST_STREAM and a stream's WINDOW_UPDATE
  pass only for the calls the referee opened (its HEADERS, seen on their way to the bot), at
  most two header blocks each (a reply's headers and trailers), nothing after the call ended;
* PRIORITY (advisory, deprecated by RFC 9113), unknown frame types and empty DATA frames that do
  not end their stream are dropped: a receiver ignores them;
* the WINDOW_UPDATEs of one read are summed into one per stream, and a read's DATA frames of a
  stream joined up to 16 KiB;
* a SETTINGS frame keeps the last value of each setting (the values it would leave in force),
  and few settings that HTTP/2 does not define (a receiver ignores them);
* PINGs, their acknowledgements and RST_STREAM frames pass at most ``_BURST`` per second each
  (more means a flood; a lost one harms the bot alone: a reset call waits for its deadline, a
  ping goes unanswered). A PING passed costs the referee its answer: 100,000 a second took 7% of
  the referee's core and the bot's filter a quarter of one, the bot playing on (outside review);
* a reply's second message (every call of the arena takes one) ends its call with trailers of
  the filter's own (INTERNAL, ``SECOND_REPLY``): a unary call given two waited for its deadline
  in grpcio, and the bot was blamed for not answering at all;
* the connection ends, what broke HTTP/2 passed on first so that gRPC reports its own error as
  it would without the relay, at a first frame that is not SETTINGS (the server preface: an
  HTTP/1 or TLS answer is not), a frame longer than the referee takes (its
  SETTINGS_MAX_FRAME_SIZE) and a frame on the wrong kind of stream (DATA on stream 0: a flood of
  zero bytes); and, with nothing more passed, past ``_MOST_ABSORBED`` frames dropped or merged
  away in a second (each costs the relay, which runs beside the arena for a remote bot);
* everything else (SETTINGS, which want an answer, their acknowledgements, GOAWAY) passes as
  it is; the referee's own frames pass to the bot unchanged.

    python -m arena.sandbox.relay LISTEN_FD UPSTREAM

``LISTEN_FD``: a listening Unix socket (inherited) on which the referee connects; each connection
gets one of its own to ``UPSTREAM``: the bot's socket (a path), or a remote bot's address
(``NAME@HOST:PORT``, whose relay runs beside the arena: no cgroup of the bot's, but its flood is
spent outside the referee's interpreter, and a stalled call to it ends when the arena kills the
relay). It stops with the bot's cgroup (or when the arena kills it); nothing in it trusts the
bot's bytes beyond their frame headers.
"""

from __future__ import annotations

import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

_HEADER = 9
_DATA, _HEADERS, _PRIORITY, _RST_STREAM, _SETTINGS = 0x0, 0x1, 0x2, 0x3, 0x4
_PING, _WINDOW_UPDATE, _CONTINUATION = 0x6, 0x8, 0x9  # the last type HTTP/2 defines
_END_STREAM, _ACK, _END_HEADERS, _PADDED = 0x1, 0x1, 0x4, 0x8
_MAX_FRAME_SIZE = 0x5  # the SETTINGS parameter
_SMALLEST_MAX_FRAME = 16_384  # its least value, and where it starts
_MOST_SETTINGS = 16  # in one SETTINGS frame (HTTP/2 defines 8; gRPC adds a few)
_MOST_OPEN = 10_000  # streams tracked at once (the referee has a call or two in flight)
_BURST = 100  # PINGs, their acknowledgements, and RST_STREAMs, let through per second
# Frames dropped or merged away, per second, before the connection ends: a gRPC server sends a
# handful (a flood of them cost a remote bot's relay a core, at 170 times the bot's own CPU)
_MOST_ABSORBED = 10_000
# Frames of a stream only, and of the connection (stream 0) only: one on the other is an error
# HTTP/2 ends the connection for (WINDOW_UPDATE and unknown types may be on either)
_STREAM_ONLY = frozenset((_DATA, _HEADERS, _PRIORITY, _RST_STREAM, 0x5, _CONTINUATION))
_CONNECTION_ONLY = frozenset((_SETTINGS, _PING, 0x7))  # 0x5: PUSH_PROMISE, 0x7: GOAWAY
_READ_BYTES = 1 << 16
_CONNECT_SECONDS = 5.0  # to a remote bot
_CLOSING_SECONDS = 2.0  # for the referee to close a connection the filter ended
_MAX_WINDOW = 2**31 - 1
# Once it has ended a connection for a flood the relay takes no more and exits with this: gRPC
# would connect again at the next call, and the flooder play on with a new budget per connection
# (a flood cut between two calls did). The arena adds ``FLOODED`` to the seat's reason, and a fresh
# process (and relay) takes the bot's place at its next game. A frame that broke HTTP/2 ends its
# connection only, as gRPC itself would: its call fails with gRPC's own reason.
EXIT_FLOODED = 3
SECOND_REPLY = "the bot answered twice: the call takes one reply"  # the trailers' grpc-message
FLOODED = (
    "the arena's filter of its HTTP/2 ended its connection: "
    f"over {_MOST_ABSORBED:,} frames in a second that need no answer"
)


class _Rate:
    """At most ``per_second`` a second (a token bucket of that size)."""

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self.tokens = float(per_second)
        self.at = time.monotonic()

    def allows(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.per_second, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class FrameFilter:
    """One connection, frame by frame: ``feed`` takes the bot's bytes as read and returns what the
    referee is to receive (or raises ConnectionEnds); ``sent`` sees the referee's bytes on their
    way to the bot, to know which streams (calls) it opened and the largest frame it takes."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._acks = _Rate(_BURST)
        self._pings = _Rate(_BURST)
        self._resets = _Rate(_BURST)
        self._absorbed = _Rate(_MOST_ABSORBED)
        self._first = True  # the bot's first frame (HTTP/2's server preface: a SETTINGS frame)
        self._lock = threading.Lock()  # ``sent`` and ``feed`` run in the two directions' threads
        # stream -> header blocks the bot may still send on it (a reply's headers and trailers):
        # only these, on streams the referee opened; a header block elsewhere was the referee's
        # HPACK work for nothing (16,000 fields a frame, outside review E2)
        self._open: dict[int, int] = {}
        self._continuing: int | None = None  # the stream of a header block passed, unfinished
        self.max_frame = _SMALLEST_MAX_FRAME  # the largest frame the referee takes, its SETTINGS
        self._client = _ClientFrames(self)
        self.ended = False  # ``feed`` ended the connection: nothing more reaches the bot
        self._replies: dict[int, _Reply] = {}  # stream -> where its reply's messages are
        self._then = b""  # what goes to the referee right after the frame just passed

    def sent(self, data: bytes) -> bytes | None:
        """None: ``data`` goes on to the bot as it is; b"": the connection ended, dropped."""
        if self.ended:
            return b""
        self._client.feed(data)
        return None

    def opened(self, stream: int) -> None:
        with self._lock:
            if len(self._open) < _MOST_OPEN:
                self._open.setdefault(stream, 2)

    def cancelled(self, stream: int) -> None:
        with self._lock:
            self._open.pop(stream, None)
            self._replies.pop(stream, None)

    def feed(self, data: bytes) -> bytes:
        self._pending += data
        buffer = self._pending
        out: list[bytes] = []
        windows: dict[int, int] = {}  # stream -> its WINDOW_UPDATEs of this read, summed
        at = 0
        with self._lock:
            while len(buffer) - at >= _HEADER:
                length = int.from_bytes(buffer[at : at + 3], "big")
                kind, flags = buffer[at + 3], buffer[at + 4]
                stream = int.from_bytes(buffer[at + 5 : at + 9], "big") & 0x7FFFFFFF
                if length > self.max_frame or (self._first and kind != _SETTINGS):
                    # not HTTP/2 (bytes of HTTP/1 or TLS read as a frame: a server's first frame
                    # is SETTINGS) or a frame the referee refuses: its header goes on at once, for
                    # gRPC's own precise error, instead of the relay waiting for up to the 16 MiB
                    # such a header announces, only to end the same way
                    out.append(bytes(buffer[at : at + _HEADER]))
                    raise self._ends(b"".join(out))
                end = at + _HEADER + length
                if end > len(buffer):
                    break  # the rest of the frame comes with a later read
                self._first = False
                frame = bytes(buffer[at:end])
                at = end
                if kind in (_STREAM_ONLY if stream == 0 else _CONNECTION_ONLY):
                    # an error HTTP/2 ends the connection for (DATA on stream 0, say: a flood of
                    # zero bytes): passed on, gRPC ends it with its own reason
                    raise self._ends(b"".join(out) + frame)
                passed = self._passed(kind, flags, stream, length, frame, windows)
                if passed is None or (kind == _DATA and out and _joins(out[-1], stream, passed)):
                    # a frame the referee does not get as sent: a flood of them ends the
                    # connection (its cost was the relay's, beside the arena for a remote bot)
                    if not self._absorbed.allows():
                        raise self._ends(b"".join(out), flooded=True)
                if passed is None:
                    continue
                if kind == _DATA and out and _joins(out[-1], stream, passed):
                    out[-1] = _joined(out[-1], passed)  # a reply in 1-byte frames: fewer
                else:
                    out.append(passed)
                if self._then:
                    out.append(self._then)
                    self._then = b""
        del buffer[:at]
        for stream, increment in windows.items():
            out.append(_frame(_WINDOW_UPDATE, 0, stream, struct.pack(">I", increment)))
        return b"".join(out)

    def _ends(self, data: bytes, flooded: bool = False) -> ConnectionEnds:
        self.ended = True
        return ConnectionEnds(data, flooded)

    def _passed(
        self, kind: int, flags: int, stream: int, length: int, frame: bytes, windows: dict
    ) -> bytes | None:
        """What goes on of ``frame``: itself, a shorter equivalent, or nothing (a WINDOW_UPDATE
        is summed into ``windows``, sent after the read's other frames)."""
        if kind == _CONTINUATION:
            if stream != self._continuing:
                return None
            if flags & _END_HEADERS:
                self._continuing = None
            return frame
        if kind == _HEADERS:
            if self._open.get(stream, 0) < 1:
                return None
            self._open[stream] -= 1
            self._continuing = None if flags & _END_HEADERS else stream
            if flags & _END_STREAM:
                del self._open[stream]
                self._replies.pop(stream, None)
            return frame
        if kind == _DATA:
            if stream not in self._open:
                return None
            data = _data_of(frame, flags)
            second = self._replies.setdefault(stream, _Reply()).second_at(data)
            if second is not None:  # the first reply's bytes go on, then the call's end
                del self._open[stream]
                del self._replies[stream]
                self._then = _frame(_HEADERS, _END_HEADERS | _END_STREAM, stream, _TRAILERS)
                return _frame(_DATA, 0, stream, data[:second])
            if flags & _END_STREAM:
                del self._open[stream]
                self._replies.pop(stream, None)
            return frame if length or flags & (_END_STREAM | _PADDED) else None
        if kind == _WINDOW_UPDATE and length == 4:
            if stream == 0 or stream in self._open:
                increment = int.from_bytes(frame[_HEADER:], "big") & 0x7FFFFFFF
                windows[stream] = min(_MAX_WINDOW, windows.get(stream, 0) + increment)
            return None
        if kind == _RST_STREAM:
            self._replies.pop(stream, None)
            known = self._open.pop(stream, None) is not None
            return frame if known and self._resets.allows() else None
        if kind == _SETTINGS and not flags & _ACK and length % 6 == 0:
            return _last_settings(frame)
        if kind == _PRIORITY or kind > _CONTINUATION:
            return None
        if kind == _PING:  # an acknowledgement, or a ping the referee's gRPC would answer
            return frame if (self._acks if flags & _ACK else self._pings).allows() else None
        return frame  # SETTINGS for an answer, GOAWAY, PUSH_PROMISE (an error: the bot's)


class _Reply:
    """Where a reply's gRPC messages begin and end in its DATA (each: a flag byte, a 4-byte
    length, the message), read as the DATA comes."""

    __slots__ = ("head", "left", "begun")

    def __init__(self) -> None:
        self.head = b""  # a message's prefix, read in part
        self.left = 0  # bytes of the current message still to come
        self.begun = False  # a first message

    def second_at(self, data: bytes) -> int | None:
        """Where in ``data`` (the next DATA's bytes) a second message begins, if it does."""
        at = 0
        while at < len(data):
            if self.left:
                taken = min(self.left, len(data) - at)
                self.left -= taken
                at += taken
            elif self.begun and not self.head:
                return at
            else:
                taken = min(5 - len(self.head), len(data) - at)
                self.head += data[at : at + taken]
                at += taken
                if len(self.head) == 5:
                    self.left = int.from_bytes(self.head[1:], "big")
                    self.head = b""
                    self.begun = True
        return None


def _data_of(frame: bytes, flags: int) -> bytes:
    """A DATA frame's data, without its padding."""
    payload = frame[_HEADER:]
    if not flags & _PADDED or not payload:
        return payload
    return payload[1 : max(1, len(payload) - payload[0])]


def _literal(name: bytes, value: bytes) -> bytes:
    """HPACK's literal header field without indexing (a new name, no Huffman; lengths < 127):
    the referee's decoding table is left as it was."""
    return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value


_TRAILERS = _literal(b"grpc-status", b"13") + _literal(b"grpc-message", SECOND_REPLY.encode())


class ConnectionEnds(Exception):
    """The bot broke HTTP/2: ``data`` is the last the referee receives before the connection
    closes; ``flooded``: for a flood (``FLOODED``), not a broken frame."""

    def __init__(self, data: bytes, flooded: bool = False) -> None:
        super().__init__(FLOODED if flooded else "the bot broke HTTP/2")
        self.data = data
        self.flooded = flooded


class _ClientFrames:
    """The referee's bytes to the bot, read for the streams it opens (HEADERS) and cancels
    (RST_STREAM), and the largest frame it takes (SETTINGS); other payloads are skipped, not
    kept."""

    def __init__(self, filtered: FrameFilter) -> None:
        self._filtered = filtered
        self._preface = 24  # "PRI * HTTP/2.0..." bytes still to skip
        self._head = bytearray()
        self._skip = 0  # payload bytes of the current frame still to skip
        self._settings: bytearray | None = None  # the payload of a SETTINGS frame, being read

    def feed(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            if self._preface:
                taken = min(self._preface, len(view))
                self._preface -= taken
                view = view[taken:]
            elif self._skip:
                taken = min(self._skip, len(view))
                self._skip -= taken
                if self._settings is not None:
                    self._settings += view[:taken]
                    if not self._skip:
                        self._settled(bytes(self._settings))
                view = view[taken:]
            else:
                taken = min(_HEADER - len(self._head), len(view))
                self._head += view[:taken]
                view = view[taken:]
                if len(self._head) == _HEADER:
                    head, self._head = bytes(self._head), bytearray()
                    self._skip = int.from_bytes(head[:3], "big")
                    stream = int.from_bytes(head[5:9], "big") & 0x7FFFFFFF
                    if head[3] == _HEADERS:
                        self._filtered.opened(stream)
                    elif head[3] == _RST_STREAM:
                        self._filtered.cancelled(stream)
                    self._settings = (
                        bytearray() if head[3] == _SETTINGS and not head[4] & _ACK else None
                    )
                    if self._settings is not None and not self._skip:
                        self._settled(b"")

    def _settled(self, payload: bytes) -> None:
        """The referee's SETTINGS: the bot may now send frames up to its MAX_FRAME_SIZE."""
        self._settings = None
        for at in range(0, len(payload) - 5, 6):
            if int.from_bytes(payload[at : at + 2], "big") == _MAX_FRAME_SIZE:
                self._filtered.max_frame = int.from_bytes(payload[at + 2 : at + 6], "big")


def _joins(before: bytes, stream: int, data: bytes) -> bool:
    """Whether the DATA frame ``data`` of ``stream`` may be merged into the frame ``before``:
    both DATA of that stream, neither padded, ``before`` not ending it, and no larger than the
    frame size every HTTP/2 peer takes."""
    return (
        before[3] == _DATA
        and not before[4] & (_END_STREAM | _PADDED)
        and not data[4] & _PADDED
        and int.from_bytes(before[5:9], "big") & 0x7FFFFFFF == stream
        and len(before) + len(data) - 2 * _HEADER <= _SMALLEST_MAX_FRAME
    )


def _joined(before: bytes, data: bytes) -> bytes:
    payload = before[_HEADER:] + data[_HEADER:]
    return _frame(_DATA, data[4] & _END_STREAM, int.from_bytes(data[5:9], "big"), payload)


def _frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return (
        len(payload).to_bytes(3, "big") + bytes((kind, flags)) + struct.pack(">I", stream) + payload
    )


def _last_settings(frame: bytes) -> bytes:
    """A SETTINGS frame with each setting once, at its last value, in order of first mention;
    of the settings a receiver does not know (which it ignores), the first few only."""
    values: dict[int, bytes] = {}
    for at in range(_HEADER, len(frame), 6):
        key = int.from_bytes(frame[at : at + 2], "big")
        if key in values or len(values) < _MOST_SETTINGS:
            values[key] = frame[at + 2 : at + 6]
    payload = b"".join(struct.pack(">H", key) + value for key, value in values.items())
    return _frame(_SETTINGS, frame[4], int.from_bytes(frame[5:9], "big"), payload)


def _pump(source: socket.socket, sink: socket.socket, through: Callable[[bytes], Any]) -> bool:
    """Copy ``source`` to ``sink`` until either end closes, the bytes read given to ``through``
    (what it returns is sent instead, unless None); a blocked ``sink`` stops the reading, so
    the bot's flood waits on the referee's pace. Returns whether ``through`` ended the
    connection for a flood."""
    try:
        while data := source.recv(_READ_BYTES):
            passed = through(data)
            data = data if passed is None else passed
            if data:
                sink.sendall(data)
    except ConnectionEnds as ends:
        # Ended as the bot's end of HTTP/2 would be by gRPC: what broke it read, then the end of
        # the stream, and the referee's own closing awaited (its bytes meanwhile read and dropped
        # by the other direction's pump). Closing both ways at once failed the referee's writes
        # first: "Broken pipe" in place of gRPC's own reason (a flaky test).
        try:
            sink.sendall(ends.data)
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            _close(sink, source)
        return ends.flooded
    except OSError:
        pass
    _close(sink, source)
    return False


def _close(*ends: socket.socket) -> None:
    for end in ends:
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _connect(upstream: str) -> socket.socket:
    """A connection to the bot: a Unix socket (its path, or unix:PATH), or HOST:PORT."""
    if upstream.startswith(("/", "unix:")):
        bot = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            bot.connect(upstream.removeprefix("unix:"))
        except OSError:
            bot.close()
            raise
        return bot
    host, port = upstream.rsplit(":", 1)
    # bounded: gRPC connects again every 0.1 s or so while a handshake waits, a thread each
    bot = socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_SECONDS)
    bot.settimeout(None)
    bot.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as gRPC's own connections
    return bot


def _relay(referee: socket.socket, upstream: str, flooded: Callable[[], None]) -> None:
    try:
        bot = _connect(upstream)
    except (OSError, ValueError):
        referee.close()
        return
    filtered = FrameFilter()
    to_bot = threading.Thread(target=_pump, args=(referee, bot, filtered.sent), daemon=True)
    to_bot.start()
    flood = _pump(bot, referee, filtered.feed)
    to_bot.join(_CLOSING_SECONDS if filtered.ended else None)
    _close(referee, bot)
    to_bot.join()
    referee.close()
    bot.close()
    if flood:
        flooded()


def main(argv: list[str]) -> None:
    listen_fd, upstream = int(argv[0]), argv[1]
    listener = socket.socket(fileno=listen_fd)
    ended = threading.Event()

    def flooded() -> None:
        ended.set()
        listener.shutdown(socket.SHUT_RDWR)  # wakes the accept below

    while True:
        try:
            referee, _ = listener.accept()
        except OSError:
            if ended.is_set():
                sys.exit(EXIT_FLOODED)
            raise
        if ended.is_set():  # accepted as the flood's connection ended
            sys.exit(EXIT_FLOODED)
        threading.Thread(target=_relay, args=(referee, upstream, flooded), daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1:])
