"""A bot that stops reading its socket: raw HTTP/2 from the standard library, no gRPC server.

    python bot.py

It answers Handshake and StartGame, then stops reading its socket and sends ``STALL_PINGS``
(default 20,000) HTTP/2 PING frames. The referee's gRPC owes it a PING ACK for each; once too
many wait unsent it stops reading too, and neither the ACKs nor the next request (Decide) can be
written to a bot that does not read. grpcio ends a unary call only once its request is written
(grpc/grpc#28434), so without the arena's stall guard that Decide never returned, past any
deadline, and held the game, its tournament and Ctrl-C (outside review, December 5).

The calls are told apart by their order on the connection (Handshake, then StartGame), so the
client's request headers are never decoded (HPACK with Huffman codes would need a library); the
replies' headers are HPACK literals, which need none.
"""

import os
import socket
import struct
import sys
import threading
import time
import tomllib

from arena.bot.v1 import bot_pb2

DATA, HEADERS, SETTINGS, PING = 0x0, 0x1, 0x4, 0x6
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        len(payload).to_bytes(3, "big") + bytes([kind, flags]) + struct.pack(">I", stream) + payload
    )


def headers(pairs: list[tuple[str, str]]) -> bytes:
    """HPACK 'literal header field without indexing, new name' for each pair (lengths < 127)."""
    out = b""
    for name, value in pairs:
        out += b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()
    return out


def reply(stream: int, message: bytes) -> bytes:
    """A whole gRPC reply: headers, one length-prefixed message, trailers."""
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

    def read_exact(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def serve(self) -> None:
        self.read_exact(24)  # the client's preface
        self.sock.sendall(frame(SETTINGS, 0, 0))
        calls = 0
        while True:
            head = self.read_exact(9)
            kind, flags = head[3], head[4]
            stream = struct.unpack(">I", head[5:9])[0] & 0x7FFFFFFF
            payload = self.read_exact(int.from_bytes(head[:3], "big"))
            if kind == SETTINGS and not flags & ACK:
                self.sock.sendall(frame(SETTINGS, ACK, 0))
            elif kind == PING and not flags & ACK:
                self.sock.sendall(frame(PING, ACK, 0, payload))
            elif kind in (HEADERS, DATA) and flags & END_STREAM:  # a whole request
                calls += 1
                if calls == 1:
                    manifest = tomllib.loads(open("bot.toml", encoding="utf-8").read())
                    answer = bot_pb2.HandshakeReply(
                        name=manifest["name"],
                        version=manifest["version"],
                        protocol_version=bot_pb2.PROTOCOL_VERSION_1,
                        games=["*"],
                    )
                    self.sock.sendall(reply(stream, answer.SerializeToString()))
                else:  # StartGame: answered, then the stall
                    self.sock.sendall(reply(stream, b""))
                    self.stall()

    def stall(self) -> None:
        count = int(os.environ.get("STALL_PINGS", "20000"))
        print(f"stalling: reading no more, sending {count} PINGs", file=sys.stderr, flush=True)
        one = frame(PING, 0, 0, b"12345678") * 100
        try:
            for _ in range(count // 100):
                self.sock.sendall(one)
        except OSError:
            pass
        time.sleep(3600)


def main() -> None:
    address = os.environ["ARENA_BOT_ADDRESS"]
    if address.startswith("unix:"):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(address.removeprefix("unix:"))
    else:
        host, port = address.rsplit(":", 1)
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind((host, int(port)))
    server.listen(8)
    while True:  # each connection in a thread: a client's new one is served while one stalls
        sock, _ = server.accept()
        threading.Thread(target=serve, args=(sock,), daemon=True).start()


def serve(sock: socket.socket) -> None:
    try:
        Connection(sock).serve()
    except (EOFError, OSError):
        sock.close()


if __name__ == "__main__":
    main()
