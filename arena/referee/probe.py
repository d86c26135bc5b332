"""What a bot's socket says when it did not answer the handshake: a look at its first bytes.

gRPC keeps trying a channel that fails until the handshake's deadline (``wait_for_ready``), so a
bot that listens but speaks something else than gRPC's HTTP/2 (an HTTP/1 or TLS server, a
server that never answers) ends as "did not answer the handshake within 10 s", which tells its
author nothing. So shortly before that deadline, while the handshake still waits, the arena opens
a connection of its own to the bot's socket (the bot's own, not the frame filter before it),
sends HTTP/2's client preface and reads at most a few dozen bytes: enough to name the protocol.
A server that refuses the preface may be a TLS server (which closes, or answers in HTTP/1 as Go's
does): a second connection offers it a TLS ClientHello. Nothing else of the bot's answers is
used, and the look is bounded in bytes and time (``LOOK_SECONDS`` in all).
"""

from __future__ import annotations

import os
import ssl
from functools import cache

import trio

LOOK_SECONDS = 1.0  # both tries
PROTOCOL_MISMATCH = "its socket"  # how every finding begins (the validator's hint keys on it)
_TRY_SECONDS = 0.5  # to connect, and then to read
_CLIENT_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes(9)  # and an empty SETTINGS frame
_ENOUGH = 64  # bytes read at most
_SETTINGS = 0x4
_SMALLEST_MAX_FRAME = 16_384
_SHOWN = 40  # characters of a text answer quoted
_TLS_HANDSHAKE, _TLS_ALERT = b"\x16\x03", b"\x15\x03"  # a TLS record's first bytes
_IN_TLS = f"{PROTOCOL_MISMATCH} answers in TLS: the arena calls gRPC without TLS (insecure)"


async def socket_answer(address: str, *, quote: bool = True) -> str | None:
    """What the bot at ``address`` (``unix:PATH`` or ``HOST:PORT``) answers HTTP/2's client
    preface, said for its author; None where that tells nothing (HTTP/2 as it should be, or no
    connection: the caller's own reason stands). Without ``quote`` none of its bytes are quoted:
    at an address the operator typed, another service than a bot may answer (outside review E3:
    an SSH server's banner in a seat's reason, which the web shows)."""
    with trio.move_on_after(LOOK_SECONDS):
        answer, closed = await _first_bytes(address, _CLIENT_PREFACE)
        if answer is None:
            return None
        finding = describe(answer, closed=closed, quote=quote)
        if finding is not None and (closed or answer.startswith(b"HTTP/")):
            hello_answer, _ = await _first_bytes(address, _client_hello())
            if hello_answer and hello_answer.startswith((_TLS_HANDSHAKE, _TLS_ALERT)):
                return _IN_TLS
        return finding
    return None


async def _first_bytes(address: str, sent: bytes) -> tuple[bytes | None, bool]:
    """The first bytes the server at ``address`` answers ``sent`` with (None: no connection),
    and whether it then closed."""
    try:
        with trio.fail_after(_TRY_SECONDS):
            stream = await _connect(address)
        # a Unix socket whose listener's queue is full comes back unconnected (outside review
        # E3: a server that never accepts read as one that closes every connection)
        stream.socket.getpeername()
    except (OSError, trio.TooSlowError, ValueError):
        return None, False
    answer = b""
    closed = False
    async with stream:
        with trio.move_on_after(_TRY_SECONDS):
            try:
                await stream.send_all(sent)
                while len(answer) < _ENOUGH:
                    chunk = await stream.receive_some(_ENOUGH - len(answer))
                    if not chunk:
                        closed = True
                        break
                    answer += chunk
            except (OSError, trio.BrokenResourceError):
                closed = True
    return answer, closed


@cache
def _client_hello() -> bytes:
    """A TLS ClientHello, as any TLS client opens with."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    outgoing = ssl.MemoryBIO()
    tls = context.wrap_bio(ssl.MemoryBIO(), outgoing)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass  # it waits for the server's answer: the hello is written
    return outgoing.read()


async def unreachable(address: str, seconds: float = _TRY_SECONDS) -> str:
    """Why no connection to ``address`` can be made ("cannot connect: Connection refused"), or
    "" if one can: a handshake that found nobody listening says only that it timed out."""
    try:
        with trio.fail_after(seconds):
            stream = await _connect(address)
    except OSError as exc:
        return f"cannot connect: {_first_cause(exc)}"
    except trio.TooSlowError:
        return f"cannot connect: no answer in {seconds:g} s"
    await stream.aclose()
    return ""


def _first_cause(exc: OSError) -> str:
    """The system's words for a failed connection: trio's TCP connect wraps every attempt's
    error ("all attempts to connect to ... failed") in one of its own."""
    cause = exc.__cause__
    while isinstance(cause, BaseExceptionGroup):
        cause = cause.exceptions[0]
    found = cause if isinstance(cause, OSError) else exc
    return os.strerror(found.errno) if found.errno else str(found)


async def _connect(address: str) -> trio.SocketStream:
    if address.startswith("unix:"):
        return await trio.open_unix_socket(address.removeprefix("unix:"))
    host, port = address.rsplit(":", 1)
    return await trio.open_tcp_stream(host.strip("[]"), int(port))


def describe(answer: bytes, *, closed: bool, quote: bool = True) -> str | None:
    """Name what ``answer`` (a server's first bytes, ``closed`` if it then closed) is, if it is
    not the start of an HTTP/2 server's reply."""
    if not answer:
        if closed:
            return "its socket closes each connection without a byte"
        return (
            f"its socket takes connections but sent nothing in {_TRY_SECONDS:g} s (an HTTP/2 "
            "server sends its SETTINGS at once): is a gRPC server listening there?"
        )
    if answer.startswith(b"HTTP/"):
        line = answer.split(b"\r\n", 1)[0].decode("ascii", "replace")[:_SHOWN]
        return (
            f"its socket answers in HTTP/1{f' ({line!r})' if quote else ''}, not HTTP/2: a gRPC "
            "server must listen there"
        )
    if answer.startswith((_TLS_HANDSHAKE, _TLS_ALERT)):
        return _IN_TLS
    if len(answer) >= 9:
        length, kind, stream = int.from_bytes(answer[:3], "big"), answer[3], answer[5:9]
        if length > _SMALLEST_MAX_FRAME or kind != _SETTINGS or any(stream):
            return (
                f"its socket answers, but not in HTTP/2{_shown(answer, quote)}: "
                "a gRPC server must listen there"
            )
        return None  # HTTP/2's server preface: the bot's gRPC is there, its handler is not
    if closed:
        return f"its socket answers, but not in HTTP/2{_shown(answer, quote)}, and closed"
    return None


def _shown(answer: bytes, quote: bool) -> str:
    return f" (its first bytes: {answer[:_SHOWN]!r})" if quote else ""
