"""A call that outlives its deadline: a bot that stops reading its socket held a call to it for
ever (grpcio ends a unary call only once its request is sent), so neither the move clock nor
Ctrl-C stopped its game (outside review). The stall guard kills such a local bot, which ends the
call; a client closed mid-call (a cancelled game) does the same at once. Here the stall is made
by a call that ignores its deadline until its bot is stopped, as grpcio's does."""

from __future__ import annotations

import threading
import time

import grpc
import pytest
import trio

from arena.errors import ClosedClientError
from arena.referee import stall_guard
from arena.referee.client import BotClient, GivenUpError
from arena.referee.stall_guard import StallGuard


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(stall_guard, "GRACE_SECONDS", 0.2)
    monkeypatch.setattr(stall_guard, "LOOK_SECONDS", 0.02)


def test_a_call_past_its_deadline_and_grace_is_stalled_and_one_done_is_not():
    guard, stalled = StallGuard(), threading.Event()
    finished = guard.watch(0.05, lambda: pytest.fail("a finished call was taken for stalled"))
    guard.done(finished)
    started = time.monotonic()
    guard.watch(0.1, stalled.set)
    assert stalled.wait(5)
    assert time.monotonic() - started >= 0.3  # deadline 0.1 s + grace 0.2 s


class _Stopped(grpc.RpcError):
    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.DEADLINE_EXCEEDED


def stalling_client() -> tuple[BotClient, threading.Event]:
    """A client whose Decide blocks, past any deadline, until its bot is stopped."""
    stopped = threading.Event()
    client = BotClient("unix:/nonexistent/bot.sock", "token", on_stall=stopped.set)

    client._decide = _stalled_until(stopped)  # type: ignore[method-assign]
    return client, stopped


def _stalled_until(ended: threading.Event):
    """A blocking call that ignores its deadline until ``ended``, as a stalled grpcio call."""

    def stalled_call(request, timeout, metadata):
        ended.wait()
        raise _Stopped()

    return stalled_call


async def test_a_stalled_decide_ends_once_its_deadline_and_grace_are_past():
    client, stopped = stalling_client()
    started = time.monotonic()
    with pytest.raises(_Stopped):
        await trio.to_thread.run_sync(client.decide, b"", 0.1)
    assert stopped.is_set() and time.monotonic() - started >= 0.3
    client.close()


async def test_closing_a_client_mid_call_stops_its_bot_at_once():
    client, stopped = stalling_client()
    async with trio.open_nursery() as nursery:

        async def call() -> None:
            with pytest.raises(_Stopped):
                await trio.to_thread.run_sync(client.decide, b"", 3600.0)

        nursery.start_soon(call)
        await trio.sleep(0.2)
        assert not stopped.is_set()
        started = time.monotonic()
        client.close()  # a cancelled game: Ctrl-C waited on the call for ever
        assert stopped.is_set() and time.monotonic() - started < 1


async def test_a_client_without_a_way_to_stop_its_bot_is_not_watched(monkeypatch):
    watched = []
    monkeypatch.setattr(stall_guard.STALLS, "watch", lambda *args: watched.append(args) or 0)
    remote = BotClient("unix:/nonexistent/bot.sock", "token")  # a remote bot: no process
    with pytest.raises(grpc.RpcError):
        await trio.to_thread.run_sync(remote.decide, b"", 0.1)
    remote.close()
    assert watched == []
    local = BotClient("unix:/nonexistent/bot.sock", "token", on_stall=lambda: None)
    with pytest.raises(grpc.RpcError):
        await trio.to_thread.run_sync(local.decide, b"", 0.1)
    local.close()
    assert [seconds for seconds, _ in watched] == [0.1]


def remote_stalling_client() -> tuple[BotClient, threading.Event]:
    """A remote bot's client (no process to stop) whose Decide blocks until ``released``."""
    released = threading.Event()
    client = BotClient("127.0.0.1:9", "token")
    client._decide = _stalled_until(released)  # type: ignore[method-assign]
    return client, released


async def test_a_remote_bots_stalled_call_is_given_up_past_its_deadline_and_grace():
    client, released = remote_stalling_client()
    started = time.monotonic()
    try:
        with pytest.raises(GivenUpError) as given_up:
            await trio.to_thread.run_sync(client.decide, b"", 0.1)
        assert time.monotonic() - started >= 0.3  # deadline 0.1 s + grace 0.2 s
        assert given_up.value.code() is grpc.StatusCode.DEADLINE_EXCEEDED  # a TIMEOUT
    finally:
        released.set()  # the call's own thread ends with it
        client.close()


async def test_closing_a_remote_bots_client_mid_call_gives_the_call_up_at_once():
    client, released = remote_stalling_client()
    try:
        async with trio.open_nursery() as nursery:

            async def call() -> None:
                with pytest.raises(ClosedClientError):
                    await trio.to_thread.run_sync(client.decide, b"", 3600.0)

            nursery.start_soon(call)
            await trio.sleep(0.2)
            started = time.monotonic()
            client.close()  # a cancelled game
        assert time.monotonic() - started < 1
    finally:
        released.set()
