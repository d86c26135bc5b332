"""A sandboxed bot's HTTP/2, filtered before the referee reads it: a small relay process between
the referee's gRPC client and the bot's socket, in the bot's own cgroup.

gRPC parses every frame a bot sends in the referee's process, and HTTP/2 obliges a client to take
frames that need no answer (PRIORITY, WINDOW_UPDATE, RST_STREAM, PING acknowledgements, frames of
unknown types) in any number. A bot that flooded them made the referee spend up to a core per
connection (3 to 26 times the bot's own CPU), read other bots' replies late and charge the delay
to their clocks: at short move times honest bots lost on time (outside review E). Here the bot's
frames are read by a process that the arena starts in the bot's cgroup, so a flood spends the
bot's own CPU, and only what the referee needs passes:

* PRIORITY (advisory, deprecated by RFC 9113), unknown frame types and empty DATA frames that do
  not end their stream are dropped: a receiver ignores them;
* the WINDOW_UPDATEs of one read are summed into one per stream;
* a SETTINGS frame keeps the last value of each setting (the values it would leave in force);
* PING acknowledgements and RST_STREAM frames pass at most ``_BURST`` per second each (more means
  a flood; a lost one harms the bot alone: a reset call waits for its deadline);
* everything else (HEADERS, DATA, CONTINUATION, GOAWAY, PINGs, SETTINGS acknowledgements) passes
  as it is; the referee's own frames pass to the bot unread.

    python -m arena.sandbox.relay LISTEN_FD UPSTREAM_PATH

``LISTEN_FD``: a listening Unix socket (inherited) on which the referee connects; each connection
gets one of its own to ``UPSTREAM_PATH``, the bot's socket. It stops with the bot's cgroup (or
when the arena kills it); nothing in it trusts the bot's bytes beyond their frame headers.
"""

from __future__ import annotations

import socket
import struct
import sys
import threading
import time

_HEADER = 9
_DATA, _PRIORITY, _RST_STREAM, _SETTINGS, _PING, _WINDOW_UPDATE = 0x0, 0x2, 0x3, 0x4, 0x6, 0x8
_LAST_KNOWN_TYPE = 0x9  # CONTINUATION
_END_STREAM, _ACK, _PADDED = 0x1, 0x1, 0x8
_BURST = 100  # PING acknowledgements, and RST_STREAMs, let through per second
_READ_BYTES = 1 << 16
_MAX_WINDOW = 2**31 - 1


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
    """The bot's side of one connection, frame by frame: ``feed`` takes the bytes as read and
    returns what the referee is to receive."""

    def __init__(self) -> None:
        self._pending = b""
        self._acks = _Rate(_BURST)
        self._resets = _Rate(_BURST)

    def feed(self, data: bytes) -> bytes:
        buffer = self._pending + data
        out: list[bytes] = []
        windows: dict[int, int] = {}  # stream -> its WINDOW_UPDATEs of this read, summed
        at = 0
        while len(buffer) - at >= _HEADER:
            length = int.from_bytes(buffer[at : at + 3], "big")
            end = at + _HEADER + length
            if end > len(buffer):
                break  # the rest of the frame comes with a later read
            kind, flags = buffer[at + 3], buffer[at + 4]
            stream = int.from_bytes(buffer[at + 5 : at + 9], "big") & 0x7FFFFFFF
            frame = buffer[at:end]
            at = end
            if kind == _WINDOW_UPDATE and length == 4:
                increment = int.from_bytes(frame[_HEADER:], "big") & 0x7FFFFFFF
                windows[stream] = min(_MAX_WINDOW, windows.get(stream, 0) + increment)
            elif kind == _SETTINGS and not flags & _ACK and length % 6 == 0:
                out.append(_last_settings(frame))
            elif kind == _PRIORITY or kind > _LAST_KNOWN_TYPE:
                continue
            elif kind == _DATA and length == 0 and not flags & (_END_STREAM | _PADDED):
                continue
            elif kind == _PING and flags & _ACK and not self._acks.allows():
                continue
            elif kind == _RST_STREAM and not self._resets.allows():
                continue
            else:
                out.append(frame)
        self._pending = buffer[at:]
        for stream, increment in windows.items():
            if increment:  # an increment of 0 is the bot's protocol error: passed on as one
                out.append(_frame(_WINDOW_UPDATE, 0, stream, struct.pack(">I", increment)))
            else:
                out.append(_frame(_WINDOW_UPDATE, 0, stream, b"\0\0\0\0"))
        return b"".join(out)


def _frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return (
        len(payload).to_bytes(3, "big")
        + bytes((kind, flags))
        + struct.pack(">I", stream)
        + (payload)
    )


def _last_settings(frame: bytes) -> bytes:
    """A SETTINGS frame with each setting once, at its last value, in order of first mention."""
    values: dict[int, bytes] = {}
    for at in range(_HEADER, len(frame), 6):
        values[int.from_bytes(frame[at : at + 2], "big")] = frame[at + 2 : at + 6]
    payload = b"".join(struct.pack(">H", key) + value for key, value in values.items())
    return _frame(_SETTINGS, frame[4], int.from_bytes(frame[5:9], "big"), payload)


def _pump(source: socket.socket, sink: socket.socket, filtered: FrameFilter | None) -> None:
    """Copy ``source`` to ``sink`` (through ``filtered`` if given) until either end closes; a
    blocked ``sink`` stops the reading, so the bot's flood waits on the referee's pace."""
    try:
        while data := source.recv(_READ_BYTES):
            if filtered is not None:
                data = filtered.feed(data)
            if data:
                sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (sink, source):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _relay(referee: socket.socket, upstream: str) -> None:
    bot = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        bot.connect(upstream)
    except OSError:
        referee.close()
        bot.close()
        return
    to_bot = threading.Thread(target=_pump, args=(referee, bot, None), daemon=True)
    to_bot.start()
    _pump(bot, referee, FrameFilter())
    to_bot.join()
    referee.close()
    bot.close()


def main(argv: list[str]) -> None:
    listen_fd, upstream = int(argv[0]), argv[1]
    listener = socket.socket(fileno=listen_fd)
    while True:
        referee, _ = listener.accept()
        threading.Thread(target=_relay, args=(referee, upstream), daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1:])
