"""A bot that listens on ARENA_BOT_ADDRESS but does not speak gRPC's HTTP/2 (standard library
only), as an author's misconfigured server would.

    NOT_GRPC=MODE python bot.py

``http1`` answers each connection as an HTTP/1.1 server does a request it cannot read (400) and
closes it; ``tls`` closes a connection that does not open with a TLS handshake record and answers
one that does with the start of a handshake record (as far as a TLS server's first bytes go);
``silent`` reads and never writes; ``oversized`` sends HTTP/2's server preface, then the header of
a 16 MiB frame (more than any HTTP/2 client takes unasked) and its bytes slowly.
"""

import os
import socket
import threading
import time

MODE = os.environ.get("NOT_GRPC", "http1")


def serve(connection: socket.socket) -> None:
    with connection:
        try:
            first = connection.recv(1 << 16)
            if MODE == "tls":
                if first.startswith(b"\x16\x03"):  # a ClientHello: a ServerHello's record begins
                    connection.sendall(b"\x16\x03\x03\x00\x31\x02")
                return
            if MODE == "http1":
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                return
            if MODE == "oversized":
                connection.sendall(bytes(3) + b"\x04" + bytes(5))  # an empty SETTINGS frame
                connection.sendall(b"\xff\xff\xff\x00\x00\x00\x00\x00\x01")  # DATA, stream 1
                for _ in range(600):
                    connection.sendall(b"x" * 1000)
                    time.sleep(0.01)
            while connection.recv(1 << 16):
                pass
        except OSError:
            pass


def main() -> None:
    # the same listening code as tests/bots/stall-socket and flood: a sandboxed bot sees its own
    # directory only, so each test bot carries its copy
    address = os.environ["ARENA_BOT_ADDRESS"]
    if address.startswith("unix:"):
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(address.removeprefix("unix:"))
    else:
        host, port = address.rsplit(":", 1)
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind((host, int(port)))
    server.listen(16)
    while True:
        connection, _ = server.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
