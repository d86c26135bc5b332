"""A bot that listens but does not speak gRPC's HTTP/2 is told so (``arena.referee.probe``):
gRPC retries such a channel until the handshake's deadline, which alone said only "did not answer
the handshake within 10 s". A frame larger than the referee takes ends the connection at once,
through the sandbox's frame filter too, as gRPC ends it without one."""

from __future__ import annotations

import dataclasses
import socket

import pytest
import trio

from arena.records import Outcome, TimeControl
from arena.referee.match import play_match
from arena.referee.probe import PROTOCOL_MISMATCH, describe, socket_answer
from arena.sandbox import SandboxPolicy, bwrap_problem
from tests.support.bots import misbehaving_bot, sample_bot

SHORT_READY = TimeControl(move_seconds=5.0, ready_seconds=3.0)
SANDBOXES = [
    pytest.param(None, id="unconfined"),
    pytest.param(
        SandboxPolicy(),
        id="sandboxed",
        marks=pytest.mark.skipif(bwrap_problem() is not None, reason="no bubblewrap here"),
    ),
]


def not_grpc(mode: str):
    spec = misbehaving_bot("not-grpc")
    return dataclasses.replace(spec, env={**spec.env, "NOT_GRPC": mode})


async def crash_reason(mode: str, sandbox: SandboxPolicy | None) -> str:
    with trio.fail_after(60):  # guard only: the bot is judged at its ready time
        record = await play_match(
            "oregon",
            [not_grpc(mode), sample_bot("random-python")],
            7,
            time_control=SHORT_READY,
            sandbox=sandbox,
        )
    assert not record.voided, record.void_reason
    assert record.seats[1].outcome is Outcome.FINISHED
    assert record.seats[0].outcome is Outcome.CRASH
    return record.seats[0].reason


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize(
    "mode, said",
    [
        ("http1", "its socket answers in HTTP/1 ('HTTP/1.1 400 Bad Request'), not HTTP/2"),
        ("silent", "its socket takes connections but sent nothing"),
        ("tls", "its socket answers in TLS: the arena calls gRPC without TLS"),
    ],
)
async def test_a_bot_that_speaks_no_http2_is_told_what_its_socket_said(mode, said, sandbox):
    reason = await crash_reason(mode, sandbox)
    assert f"did not answer the handshake within 3 s: {said}" in reason


@pytest.mark.parametrize("sandbox", SANDBOXES)
async def test_a_frame_larger_than_the_referee_takes_fails_the_handshake_at_once(sandbox):
    """Before the filter ended the connection it buffered the frame's 16 MiB: the handshake
    waited for its deadline instead of failing with gRPC's reason."""
    started = trio.current_time()
    reason = await crash_reason("oversized", sandbox)
    assert "Frame size 16777215 is larger than max frame size 16384" in reason
    assert trio.current_time() - started < SHORT_READY.ready_seconds


@pytest.mark.parametrize(
    "answer, closed, said",
    [
        (b"HTTP/1.0 505 HTTP Version Not Supported\r\n\r\n", True, "HTTP/1 ('HTTP/1.0 505"),
        (b"\x15\x03\x03\x00\x02\x02\x46", True, "answers in TLS"),
        (b"", True, "closes each connection without a byte"),
        (b"", False, "sent nothing"),
        (b"SSH-2.0-OpenSSH_9.2\r\n", False, "not in HTTP/2 (its first bytes: b'SSH-2.0"),
        (bytes(3) + b"\x01\x04" + bytes(4), False, "not in HTTP/2"),  # HEADERS first
        (b"\x00\x40\x01\x04" + bytes(5), False, "not in HTTP/2"),  # SETTINGS over 16 KiB
        (b"ok", True, "not in HTTP/2 (its first bytes: b'ok'), and closed"),
    ],
)
def test_a_first_answer_that_is_not_http2_is_named(answer, closed, said):
    description = describe(answer, closed=closed)
    assert description is not None and description.startswith(PROTOCOL_MISMATCH)
    assert said in description


def test_a_remote_bots_bytes_are_not_quoted():
    """At an address the operator typed, another service may answer: its banner is not quoted."""
    banner = b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n"
    said = describe(banner, closed=False, quote=False)
    assert said == "its socket answers, but not in HTTP/2: a gRPC server must listen there"
    http1 = describe(b"HTTP/1.1 200 SECRET\r\n", closed=True, quote=False)
    assert http1 is not None and "SECRET" not in http1


def test_an_http2_server_preface_names_nothing():
    settings = b"\x00\x00\x06\x04\x00\x00\x00\x00\x00" + b"\x00\x03\x00\x00\x00\x64"
    assert describe(settings, closed=False) is None
    assert describe(settings[:5], closed=False) is None  # the rest still to come


async def test_a_socket_that_never_accepts_is_not_said_to_close(tmp_path):
    """Its listener's queue full, a connection came back unconnected and read as closed
    (outside review E3)."""
    path = str(tmp_path / "full.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(0)
    waiting = []
    try:
        while True:  # fill its queue: it accepts nothing
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.setblocking(False)
            waiting.append(client)
            try:
                client.connect(path)
            except BlockingIOError:
                break
        said = await socket_answer(f"unix:{path}")
    finally:
        for client in waiting:
            client.close()
        listener.close()
    assert said is None  # the handshake's own reason stands
