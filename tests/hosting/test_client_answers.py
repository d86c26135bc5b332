"""``arena submit --to URL``'s client against a server that is not an arena (or a hostile one):
whatever it answers, the author gets one line, never a traceback."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from arena.errors import SubmitError
from arena.submissions import client

ANSWERS = {
    "/html": (200, b"<html>an ordinary web site</html>"),
    "/deep": (200, b"[" * 200_000 + b"]" * 200_000),  # a RecursionError in json.loads
    "/deep-error": (500, b'{"error": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"),
}


@pytest.fixture
def server() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
            status, body = ANSWERS[self.path.split("/api/")[0]]
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.mark.parametrize("path", ["/html", "/deep", "/deep-error"])
def test_an_answer_that_is_no_arenas_is_one_line(server: str, path: str):
    with pytest.raises(SubmitError) as refused:
        client.mine(server + path, "arena_x_y")
    message = str(refused.value)
    assert "\n" not in message and message.startswith(server + path)
