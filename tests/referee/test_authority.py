"""What the referee's calls tell a bot's HTTP/2 server as ``:authority`` on a Unix socket: a host
name, not the socket's path, which stricter servers refuse (Rust's h2 under tonic reset every
call, so no Rust bot could play as a local bot). Seen by another HTTP/2 implementation than
gRPC's: Node's own ``http2`` module, listening on the socket as a bot would."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import trio

from arena.referee.client import UNIX_SOCKET_AUTHORITY, BotClient

# An HTTP/2 server that prints the :authority of each request and answers it with a gRPC error.
_SERVER = """
const http2 = require("http2");
const server = http2.createServer();
server.on("stream", (stream, headers) => {
  console.log(JSON.stringify(headers[":authority"]));
  stream.respond({":status": 200, "content-type": "application/grpc", "grpc-status": "12"},
                 {endStream: true});
});
server.listen(process.argv[1], () => console.log("listening"));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js (the Node bot's runtime)")
async def test_the_referee_names_a_host_not_the_socket_path_as_authority(tmp_path: Path):
    socket = tmp_path / "bot.sock"
    server = subprocess.Popen(
        ["node", "-e", _SERVER, str(socket)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None and server.stdout.readline() == "listening\n"
        client = BotClient(f"unix:{socket}", "token")
        try:
            with pytest.raises(Exception, match="UNIMPLEMENTED"):
                await client.handshake(timeout=10)
        finally:
            client.close()
        assert server.stdout.readline().strip() == f'"{UNIX_SOCKET_AUTHORITY}"'
    finally:
        server.kill()
        server.wait()
    await trio.lowlevel.checkpoint()
