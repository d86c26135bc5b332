"""The filter of a sandboxed bot's HTTP/2 (``arena.sandbox.relay``): frames that need no answer
are dropped, summed or rationed before the referee's gRPC parses them, and the relay runs in the
bot's own cgroup, so a flood spends the bot's CPU (outside review E: the referee spent up to a core
per flooding connection and honest bots lost on time)."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import struct
import subprocess
import threading
from pathlib import Path

import pytest

from arena.manifest import load_manifest
from arena.records import Outcome, TimeControl
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from arena.sandbox import SandboxPolicy, cgroups, start_relay
from arena.sandbox.relay import EXIT_FLOODED, FLOODED, SECOND_REPLY, ConnectionEnds, FrameFilter
from tests.sandbox.conftest import marked, needs_bwrap, opponent
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS
from tests.support.relays import running_relays
from tests.tournament.helpers import query, renamed_bot, run_cli

DATA, HEADERS, PRIORITY, RST, SETTINGS, PING, WINDOW = 0, 1, 2, 3, 4, 6, 8


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return (
        len(payload).to_bytes(3, "big")
        + bytes([kind, flags])
        + struct.pack(">I", stream)
        + (payload)
    )


def window(stream: int, increment: int) -> bytes:
    return frame(WINDOW, 0, stream, struct.pack(">I", increment))


PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def fresh() -> FrameFilter:
    """A filter past the bot's server preface (a SETTINGS frame, which must come first)."""
    relay = FrameFilter()
    assert relay.feed(frame(SETTINGS, 0, 0)) == frame(SETTINGS, 0, 0)
    return relay


def calls(*streams: int) -> FrameFilter:
    """A filter that has seen the referee open ``streams`` (its calls), a byte at a time."""
    relay = fresh()
    sent = PREFACE + b"".join(
        frame(HEADERS, 0x4, s, b"\x83" * 40) + frame(DATA, 0x1, s, b"\0" * 300) for s in streams
    )
    for byte in sent:
        relay.sent(bytes([byte]))
    return relay


REPLY = (
    frame(HEADERS, 0x4, 3, b"\x88")
    + frame(DATA, 0, 3, b"\0\0\0\0\x02\x08\x01")
    + frame(HEADERS, 0x5, 3, b"\x89")
)


def test_a_reply_passes_unchanged_even_split_anywhere():
    for cut in range(len(REPLY) + 1):
        relay = calls(3)
        assert relay.feed(REPLY[:cut]) + relay.feed(REPLY[cut:]) == REPLY


def test_a_replys_second_message_ends_the_call_wherever_it_begins():
    """Every call of the arena takes one reply: a unary Decide given two waited for its
    deadline in grpcio (the bot lost on time). The first message goes on, then trailers of
    the filter's own end the call (INTERNAL, ``SECOND_REPLY``); the bot's frames after them on
    that stream are dropped. Messages split across DATA frames anyhow, padded or not."""
    first, second = b"\0\0\0\0\x02\x08\x01", b"\0\0\0\0\x03\x08\x02\x10"
    data = first + second
    trailers = frame(
        HEADERS, 0x5, 3,
        b"\x00\x0bgrpc-status\x0213\x00\x0cgrpc-message" + bytes([len(SECOND_REPLY)])
        + SECOND_REPLY.encode(),
    )  # fmt: skip
    for cut in range(len(data) + 1):
        for padded in (False, True):
            relay = calls(3)
            pieces = [data[:cut], data[cut:]]
            sent = frame(HEADERS, 0x4, 3, b"\x88") + b"".join(
                frame(DATA, 0x8, 3, b"\x02" + piece + b"\0\0")
                if padded
                else frame(DATA, 0, 3, piece)
                for piece in pieces
            )
            got = relay.feed(sent + frame(HEADERS, 0x5, 3, b"\x89"))  # the bot's own trailers
            assert got.endswith(trailers), (cut, padded)
            head = frame(HEADERS, 0x4, 3, b"\x88")
            passed = got[len(head) : -len(trailers)]
            assert got.startswith(head) and _data_payloads(passed) == first, (cut, padded)
            assert relay.feed(frame(DATA, 0, 3, b"x")) == b""  # the call is over


def _data_payloads(frames: bytes) -> bytes:
    """The data of the DATA frames in ``frames``, padding removed."""
    data, at = b"", 0
    while at < len(frames):
        length, flags = int.from_bytes(frames[at : at + 3], "big"), frames[at + 4]
        assert frames[at + 3] == DATA
        payload = frames[at + 9 : at + 9 + length]
        data += payload[1 : len(payload) - payload[0]] if flags & 0x8 else payload
        at += 9 + length
    return data


def test_one_message_in_many_frames_passes_as_it_is():
    message = b"\0\0\0\0\x05" + b"abcde"
    for cut in range(1, len(message)):
        relay = calls(3)
        reply = (
            frame(HEADERS, 0x4, 3, b"\x88")
            + frame(DATA, 0, 3, message[:cut])
            + frame(DATA, 0, 3, message[cut:])
            + frame(HEADERS, 0x5, 3, b"\x89")
        )
        got = relay.feed(reply)
        assert _data_payloads(got[10:-10]) == message and got.endswith(
            frame(HEADERS, 0x5, 3, b"\x89")
        )


def test_frames_that_need_no_answer_are_dropped():
    junk = (
        frame(PRIORITY, 0, 1, b"\0" * 5)
        + frame(0xFA, 0, 0, b"x" * 16)  # an unknown type
        + frame(DATA, 0, 3)  # empty, not ending its stream
    )
    assert calls(3).feed(junk * 1000 + REPLY) == REPLY
    ends = frame(DATA, 0x1, 3)  # empty but ending its stream: kept
    assert calls(3).feed(ends) == ends


def test_header_blocks_pass_only_as_a_calls_reply():
    """Headers and trailers, on a stream the referee opened: each header block elsewhere cost
    the referee's HPACK decoding (16,000 fields a frame; outside review E2)."""
    relay = calls(3, 5)
    block = frame(HEADERS, 0x4, 1, b"\x83" * 16_000)  # stream 1: never opened
    unfinished = frame(HEADERS, 0, 7, b"\x83") + frame(0x9, 0x4, 7, b"\x83")  # + CONTINUATION
    assert relay.feed(block * 10 + unfinished + REPLY) == REPLY
    assert relay.feed(REPLY) == b""  # stream 3 is closed: its trailers ended it
    first = frame(HEADERS, 0, 5, b"\x88") + frame(0x9, 0x4, 5, b"\x83")
    third = frame(HEADERS, 0x4, 5, b"\x83")
    assert relay.feed(first + third + third) == first + third  # the third block: dropped
    relay = calls(9)
    relay.sent(frame(RST, 0, 9, b"\0\0\0\x08"))  # the referee cancels its call
    assert relay.feed(frame(HEADERS, 0x4, 9, b"\x88") + frame(DATA, 0, 9, b"x")) == b""


def test_the_window_updates_of_a_read_are_summed_per_stream():
    out = calls(3).feed(window(0, 1) * 5000 + window(3, 7) + window(0, 2**31 - 1) + window(5, 1))
    assert out == window(0, 2**31 - 1) + window(3, 7)  # stream 5: not a call


def test_a_settings_frame_keeps_each_settings_last_value():
    entries = b"".join(struct.pack(">HI", 4, n) for n in range(2729)) + struct.pack(">HI", 1, 9)
    out = fresh().feed(frame(SETTINGS, 0, 0, entries))  # as large as a frame may be
    assert out == frame(SETTINGS, 0, 0, struct.pack(">HI", 4, 2728) + struct.pack(">HI", 1, 9))
    ack = frame(SETTINGS, 0x1, 0)
    assert fresh().feed(ack) == ack


def test_a_reply_in_one_byte_frames_reaches_the_referee_in_few():
    message = b"\0\0\0\0\x10" + bytes(range(16))
    pieces = b"".join(frame(DATA, 0, 3, message[i : i + 1]) for i in range(len(message)))
    relay = calls(3)
    out = relay.feed(frame(HEADERS, 0x4, 3, b"\x88") + pieces + frame(HEADERS, 0x5, 3, b"\x89"))
    assert out == frame(HEADERS, 0x4, 3, b"\x88") + frame(DATA, 0, 3, message) + frame(
        HEADERS, 0x5, 3, b"\x89"
    )


def test_a_settings_frame_keeps_few_settings_a_receiver_does_not_know():
    entries = b"".join(struct.pack(">HI", 0x100 + n, 1) for n in range(2730))
    out = fresh().feed(frame(SETTINGS, 0, 0, entries))
    assert len(out) == 9 + 16 * 6


def test_pings_their_acknowledgements_and_resets_are_rationed():
    """A PING passed costs the referee its answer: they passed in any number, and 100,000 a
    second took 7% of the referee's core, the bot playing on (outside review)."""
    ack, reset = frame(PING, 0x1, 0, b"12345678"), frame(RST, 0, 3, b"\0\0\0\x08")
    out = calls(3).feed((ack + reset) * 3_000)
    assert 0 < out.count(ack) <= 200 and out.count(reset) == 1  # a call is reset once
    ping = frame(PING, 0, 0, b"12345678")  # a PING the referee must answer
    assert fresh().feed(ping * 50) == ping * 50  # a gRPC server's few: all passed
    out = fresh().feed(ping * 5_000)
    assert 50 <= out.count(ping) <= 200
    with pytest.raises(ConnectionEnds) as ended:  # a flood of them: the connection ends
        fresh().feed(ping * 20_000)
    assert ended.value.flooded


def test_a_flood_of_frames_the_referee_would_not_get_ends_the_connection():
    """Dropped or merged away, each still cost the relay: a remote bot's flood took a core of the
    arena's machine, 170 times the bot's own CPU (outside review E3)."""
    junk = frame(PRIORITY, 0, 1, b"\0" * 5)
    relay = calls(3)
    assert relay.feed(junk * 9_000 + REPLY) == REPLY  # a burst of them passes
    with pytest.raises(ConnectionEnds) as ended:
        relay.feed(junk * 2_000)  # over 10,000 in a second
    assert ended.value.data == b""
    with pytest.raises(ConnectionEnds):
        calls(3).feed(window(0, 1) * 20_000)  # merged into one, but each was read


@pytest.mark.parametrize(
    "bad",
    [
        frame(DATA, 0, 0),  # on stream 0: a flood of zero bytes is one, nine bytes each
        frame(HEADERS, 0x4, 0, b"\x88"),
        frame(SETTINGS, 0, 3),  # on a stream
        frame(PING, 0, 5, b"12345678"),
    ],
)
def test_a_frame_that_is_a_connection_error_ends_the_connection(bad):
    """Passed on, so that gRPC ends the connection with its own reason."""
    with pytest.raises(ConnectionEnds) as ended:
        calls(3).feed(REPLY[:10] + bad + REPLY[10:])
    assert ended.value.data == REPLY[:10] + bad


def test_a_first_frame_that_is_not_settings_ends_the_connection():
    """HTTP/2's server preface is a SETTINGS frame: a TLS record (1.4 MB read as a frame's
    length, under the referee's 4 MiB) was waited for (outside review E3)."""
    hello = b"\x16\x03\x03\x00\x31\x02\x00\x00\x2d"
    with pytest.raises(ConnectionEnds) as ended:
        FrameFilter().feed(hello)
    assert ended.value.data == hello
    with pytest.raises(ConnectionEnds):
        FrameFilter().feed(frame(PING, 0, 0, b"12345678"))


def test_a_frame_larger_than_the_referee_takes_ends_the_connection_at_once():
    """Its header goes on (gRPC reports its own error, as without the filter); the filter does
    not wait for up to 16 MiB. HTTP/1 or TLS bytes read as a frame header are such a frame."""
    relay = calls(3)
    head = (16_385).to_bytes(3, "big") + bytes([DATA, 0]) + struct.pack(">I", 3)
    with pytest.raises(ConnectionEnds) as ended:
        relay.feed(REPLY[:10] + head + b"x" * 100)  # the reply's headers, then
    assert ended.value.data == REPLY[:10] + head
    with pytest.raises(ConnectionEnds):
        fresh().feed(b"HTTP/1.1 400 Bad Request\r\n")
    biggest = frame(DATA, 0, 3, b"x" * 16_384)
    assert calls(3).feed(biggest) == biggest


class _Upstream:
    """A bot's socket that answers each connection with ``answer`` (after the server preface)
    and then waits for the relay to close it."""

    def __init__(self, path: Path, answer: bytes) -> None:
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(str(path))
        self.server.listen(4)
        self.answer = answer
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                bot, _ = self.server.accept()
            except OSError:
                return
            with bot, contextlib.suppress(OSError):  # the relay closes it as it likes
                bot.sendall(frame(SETTINGS, 0, 0) + self.answer)
                while bot.recv(1 << 16):
                    pass


def _through_relay(listen: Path) -> bytes:
    """What the referee reads through the relay at ``listen`` until the relay ends the
    connection, having sent HTTP/2's preface and then nothing more (as a referee between calls)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as referee:
        referee.settimeout(10)
        referee.connect(str(listen))
        referee.sendall(PREFACE + frame(SETTINGS, 0, 0))
        read = b""
        while chunk := referee.recv(1 << 16):
            read += chunk
            referee.sendall(frame(PING, 0, 0, b"stillhere"[:8]))  # writes meet no broken pipe
        return read


@pytest.fixture
def relay_before(tmp_path: Path):
    """A relay process (as the arena starts it, outside a sandbox) before a bot that answers with
    the given bytes; yields its listening path and process."""
    started = []

    def start(answer: bytes) -> tuple[Path, subprocess.Popen]:
        _Upstream(tmp_path / "bot.sock", answer)
        listen = tmp_path / "relay.sock"
        relay = start_relay(listen, str(tmp_path / "bot.sock"), lambda argv: argv)
        started.append(relay)
        return listen, relay

    yield start
    for relay in started:
        relay.kill()
        relay.wait()


def test_a_relay_that_ended_a_connection_for_a_flood_takes_no_more(relay_before):
    """A flood cut between two calls: gRPC connected again at the next call and the flooder
    played on, with a new budget per connection (CI, December 6). The relay now exits with
    ``EXIT_FLOODED`` (the arena names the flood in the seat's reason) and the next call fails."""
    listen, relay = relay_before(frame(PRIORITY, 0, 1, b"\0" * 5) * 30_000)
    assert _through_relay(listen) == frame(SETTINGS, 0, 0)  # and then the end of the stream
    assert relay.wait(timeout=10) == EXIT_FLOODED
    with pytest.raises(ConnectionRefusedError), socket.socket(socket.AF_UNIX) as again:
        again.connect(str(listen))


def test_a_frame_that_broke_http2_ends_its_connection_only(relay_before):
    """As gRPC itself would: the referee reads what broke HTTP/2 and the end of the stream (not a
    reset while it still writes, which failed its call with "Broken pipe" in place of gRPC's
    own reason: a flaky test); its next connection is relayed."""
    oversized = (16_385).to_bytes(3, "big") + bytes([DATA, 0]) + struct.pack(">I", 3)
    listen, relay = relay_before(oversized)
    for _ in range(2):
        assert _through_relay(listen) == frame(SETTINGS, 0, 0) + oversized
    assert relay.poll() is None


def test_the_referee_s_max_frame_size_is_the_limit():
    relay = calls()
    relay.sent(frame(SETTINGS, 0, 0, struct.pack(">HI", 5, 65_536)))
    big = frame(DATA, 0, 5, b"x" * 65_536)
    relay.sent(frame(HEADERS, 0x4, 5, b"\x83"))
    assert relay.feed(big) == big
    relay.sent(frame(SETTINGS, 0x1, 0))  # its acknowledgement of the bot's: no change
    assert relay.feed(big) == big


class _Relays(MatchObserver):
    """The cgroup of each relay this process started, looked for at every decision."""

    def __init__(self) -> None:
        self.cgroups: dict[str, str] = {}  # pid -> its cgroup

    def decision_made(self, decision, state) -> None:
        for pid in running_relays():
            try:
                self.cgroups[pid] = Path(f"/proc/{pid}/cgroup").read_text()
            except OSError:
                continue


@needs_bwrap
async def test_a_flooding_bot_plays_its_game_through_the_relay_in_its_own_cgroup():
    """A flood under the relay's budget (10,000 frames a second) is absorbed in the bot's own
    cgroup; the game goes on."""
    flood = flooder(per_second=3_000)
    relays = _Relays()
    record = await play_match(
        "oregon",
        [flood, opponent()],
        11,
        time_control=TimeControl(move_seconds=2.0),
        sandbox=SandboxPolicy(),
        observer=relays,
    )
    # the flooder may lose on time: its flood queues before its own replies
    assert record.seats[0].outcome in (Outcome.FINISHED, Outcome.TIMEOUT), record.seats[0]
    assert record.seats[1].outcome is Outcome.FINISHED
    assert len(relays.cgroups) == 2  # a relay per sandboxed seat
    own = Path("/proc/self/cgroup").read_text()
    if cgroups.cgroup_kind() is not None:
        assert own not in relays.cgroups.values()  # each in its bot's cgroup
    else:
        pytest.skip("no cgroups here: the relays run beside the arena")


def flooder(per_second: float | None = None):
    spec = marked(load_manifest(TEST_BOTS / "flood"))
    pace = {} if per_second is None else {"FLOOD_PER_SECOND": str(per_second)}
    return dataclasses.replace(spec, env={**spec.env, **pace})


@needs_bwrap
async def test_a_flood_past_the_relays_budget_ends_the_flooders_connection():
    """The flooder's call fails at once (CRASH), or its next one where the flood was cut between
    two (the filter takes no more connections: gRPC connected again, and the flooder played on);
    the other seat plays its game to the end."""
    record = await play_match(
        "oregon",
        [flooder(), opponent()],
        11,
        time_control=TimeControl(move_seconds=2.0),
        sandbox=SandboxPolicy(),
    )
    assert record.seats[0].outcome is Outcome.CRASH, record.seats[0]
    assert "UNAVAILABLE" in record.seats[0].reason
    assert FLOODED in record.seats[0].reason
    assert record.seats[1].outcome is Outcome.FINISHED


@needs_bwrap
def test_a_tournament_replacing_its_kept_up_bots_starts_every_one(tmp_path: Path):
    """A replaced bot's successor in the same slot found the filter's socket file of the one
    before: "cannot link its socket: Address already in use", seats lost (outside review E2)."""
    names = ("first", "second", "third")
    bots = [renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name) for name in names]
    result = run_cli(
        "tournament", "--db", str(tmp_path / "arena.db"), "--game", "oregon", "--deals", "2",
        "--bots", ",".join(map(str, bots)),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    outcomes = query(tmp_path / "arena.db", "SELECT outcome, count(*) FROM seat GROUP BY outcome")
    assert outcomes == [("FINISHED", 24)], outcomes


@needs_bwrap
async def test_a_kept_up_bot_whose_filter_has_ended_is_not_lent_again():
    """A filter that ended a connection for a flood takes no more: the bot it stood before
    would lose its next game at its first call, so the pool starts a fresh one (and filter)."""
    spec = opponent()
    async with BotPool("oregon", game_seed=11, sandbox=SandboxPolicy()) as pool:
        lender = pool.lender(0)
        first = await play_match("oregon", [spec, spec], 11, lender=lender)
        relay = pool.idle[0].bot.frame_filter
        assert relay is not None and relay.poll() is None
        relay.kill()
        relay.wait()
        second = await play_match("oregon", [spec, spec], 12, lender=lender)
        assert pool.started == 3, "the bot whose filter ended was replaced, the other kept"
    for record in (first, second):
        assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2, record.seats
