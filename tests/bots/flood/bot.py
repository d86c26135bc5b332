"""A bot that plays (the first legal action) while it floods the referee with HTTP/2 frames
that need no answer: PRIORITY, RST_STREAM on a closed stream, WINDOW_UPDATE, unsolicited PING
acknowledgements and frames of an unknown type (outside review E: the referee's gRPC parsed them
all, up to a core per connection). Raw HTTP/2 from the standard library, as tests/bots/stall-socket
(a copy of its framing: a sandboxed bot sees its own directory only).

    python bot.py

Each connection's first call is the handshake; a later call whose request parses as a decision
(it has legal actions) is answered with the first action, any other (StartGame, EndGame) with an
empty reply. ``FLOOD_SECONDS`` (default: for ever) bounds the flood, ``FLOOD_PER_SECOND`` (default:
as fast as it can) paces it in frames per second.
"""

import os
import socket
import struct
import threading
import time
import tomllib

from arena.bot.v1 import bot_pb2

DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PING, WINDOW_UPDATE = 0, 1, 2, 3, 4, 6, 8
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1

JUNK_FRAMES = [
    struct.pack(">I", 5)[1:] + bytes([PRIORITY, 0]) + struct.pack(">I", 1) + b"\0" * 5,
    struct.pack(">I", 4)[1:] + bytes([RST_STREAM, 0]) + struct.pack(">I", 1) + b"\0" * 4,
    struct.pack(">I", 4)[1:] + bytes([WINDOW_UPDATE, 0]) + b"\0" * 4 + struct.pack(">I", 1),
    struct.pack(">I", 8)[1:] + bytes([PING, ACK]) + b"\0" * 4 + b"flooding",
    struct.pack(">I", 16)[1:] + bytes([0xFA, 0]) + b"\0" * 4 + b"x" * 16,
] * 200
JUNK = b"".join(JUNK_FRAMES)


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        len(payload).to_bytes(3, "big") + bytes([kind, flags]) + struct.pack(">I", stream) + payload
    )


def headers(pairs: list[tuple[str, str]]) -> bytes:
    """HPACK 'literal header field without indexing, new name' for each pair (lengths < 127)."""
    return b"".join(
        b"\x00" + bytes([len(n)]) + n.encode() + bytes([len(v)]) + v.encode() for n, v in pairs
    )


def reply(stream: int, message: bytes) -> bytes:
    return (
        frame(
            HEADERS,
            END_HEADERS,
            stream,
            headers([(":status", "200"), ("content-type", "application/grpc")]),
        )
        + frame(DATA, 0, stream, b"\x00" + struct.pack(">I", len(message)) + message)
        + frame(HEADERS, END_HEADERS | END_STREAM, stream, headers([("grpc-status", "0")]))
    )


class Connection:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""
        self.sending = threading.Lock()
        self.bodies: dict[int, bytes] = {}

    def send(self, data: bytes) -> None:
        with self.sending:
            self.sock.sendall(data)

    def read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def flood(self) -> None:
        until = time.monotonic() + float(os.environ.get("FLOOD_SECONDS", "inf"))
        pause = len(JUNK_FRAMES) / float(os.environ.get("FLOOD_PER_SECOND", "inf"))
        while time.monotonic() < until:
            self.send(JUNK)
            if pause:  # unpaced, no sleep(0) either: its yield let the replies overtake the flood
                time.sleep(pause)

    def serve(self) -> None:
        self.read_exact(24)  # the client's preface
        self.send(frame(SETTINGS, 0, 0))
        calls = 0
        while True:
            head = self.read_exact(9)
            kind, flags = head[3], head[4]
            stream = struct.unpack(">I", head[5:9])[0] & 0x7FFFFFFF
            payload = self.read_exact(int.from_bytes(head[:3], "big"))
            if kind == SETTINGS and not flags & ACK:
                self.send(frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                self.send(frame(PING, ACK, 0, payload))
            elif kind == DATA:
                self.bodies[stream] = self.bodies.get(stream, b"") + payload
            if kind in (HEADERS, DATA) and flags & END_STREAM:  # a whole request
                calls += 1
                self.send(reply(stream, self.answer(calls, self.bodies.pop(stream, b"")[5:])))
                if calls == 1:  # the handshake's stream 1 is closed: the junk names it
                    threading.Thread(target=self.flood, daemon=True).start()

    def answer(self, calls: int, body: bytes) -> bytes:
        if calls == 1:
            manifest = tomllib.loads(open("bot.toml", encoding="utf-8").read())
            return bot_pb2.HandshakeReply(
                name=manifest["name"],
                version=manifest["version"],
                protocol_version=bot_pb2.PROTOCOL_VERSION_1,
                games=["*"],
            ).SerializeToString()
        try:
            request = bot_pb2.DecisionRequest.FromString(body)
        except Exception:
            return b""
        if not request.legal_actions:
            return b""  # StartGame, EndGame
        return bot_pb2.DecisionReply(
            decision_number=request.decision_number, action_index=0
        ).SerializeToString()


def serve(sock: socket.socket) -> None:
    try:
        Connection(sock).serve()
    except (EOFError, OSError):
        sock.close()


def main() -> None:
    address = os.environ["ARENA_BOT_ADDRESS"]
    if address.startswith("unix:"):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(address.removeprefix("unix:"))
    else:  # serving elsewhere, as a remote bot (NAME@HOST:PORT)
        host, port = address.rsplit(":", 1)
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind((host, int(port)))
    server.listen(8)
    while True:
        sock, _ = server.accept()
        threading.Thread(target=serve, args=(sock,), daemon=True).start()


if __name__ == "__main__":
    main()
