"""The referee's own matches, measured: time and CPU per decision in sequential matches, and the
decisions/s of concurrent matches, in one process (each slot with bots that stay up) or on a
tournament's backend (``--workers``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import trio

from arena.bench.bots import TIME_CONTROL, bot_cpu_seconds
from arena.manifest import BotSpec
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from arena.sandbox import SandboxPolicy
from arena.tournament.playing import GameSetup
from arena.tournament.runner import backend
from arena.tournament.settings import TournamentSettings
from engine.core import GameState


class _Timeline(MatchObserver):
    """Records when play began and when each decision was applied, and the referee process's CPU
    time (all its threads) over the play."""

    def __init__(self) -> None:
        self.play_started = 0.0
        self.decision_times: list[float] = []
        self.cpu_started = self.cpu_ended = 0.0

    def match_started(self, state: GameState, players: Any) -> None:
        self.play_started = time.perf_counter()
        self.cpu_started = time.process_time()

    def decision_made(self, *args: Any) -> None:
        self.decision_times.append(time.perf_counter())
        self.cpu_ended = time.process_time()


class _Barrier:
    """Opens when ``parties`` matches have all their bots ready."""

    def __init__(self, parties: int) -> None:
        self.waiting = parties
        self.opened = trio.Event()
        self.opened_at = 0.0

    async def wait(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.opened_at = time.perf_counter()
            self.opened.set()
        await self.opened.wait()


async def referee_per_decision(
    spec: BotSpec, game: str, players: int, matches: int, first_seed: int = 0
) -> tuple[float, float]:
    """Wall time and referee CPU time per decision during the play of sequential matches (of
    the seeds from ``first_seed`` on)."""
    play_seconds, cpu_seconds, decisions = 0.0, 0.0, 0
    for seed in range(first_seed, first_seed + matches):
        timeline = _Timeline()
        record = await play_match(
            game, [spec] * players, seed, time_control=TIME_CONTROL, observer=timeline
        )
        assert not record.voided, record.void_reason
        play_seconds += timeline.decision_times[-1] - timeline.play_started
        cpu_seconds += timeline.cpu_ended - timeline.cpu_started
        decisions += len(timeline.decision_times)
    return play_seconds / decisions, cpu_seconds / decisions


@dataclass
class MatchesRun:
    """Decisions/s of concurrent matches, and what a decision cost in CPU time over whole
    rounds: the referee process's (all its threads) and the bots'."""

    decisions_per_second: float
    counted: int  # decisions while all matches were playing
    referee_ms_per_decision: float
    bots_ms_per_decision: float


async def concurrent_throughput(
    bots: Sequence[BotSpec], game: str, concurrent: int, rounds: int
) -> MatchesRun:
    """Decisions/s while ``concurrent`` matches of ``bots`` (one per seat) all play: from the
    moment they begin together until the first of them ends. As a tournament or ladder plays
    them by default: each match in a game slot of its own with bots that stay up
    (``arena.referee.pool``), warmed by one unmeasured game per slot as the ceiling's clients
    are by their first calls."""
    window_seconds, window_decisions = 0.0, 0
    async with BotPool(game, game_seed=1) as pool:
        async with trio.open_nursery() as nursery:
            for slot in range(concurrent):
                nursery.start_soon(
                    partial(
                        play_match,
                        game,
                        bots,
                        -1 - slot,
                        time_control=TIME_CONTROL,
                        lender=pool.lender(slot),
                    )
                )
        referee_cpu, bots_cpu, decisions = -time.process_time(), 0.0, 0
        for round_number in range(rounds):
            bots_cpu -= sum(bot_cpu_seconds(leased.bot) for leased in pool.idle)
            barrier = _Barrier(concurrent)
            timelines = [_Timeline() for _ in range(concurrent)]
            async with trio.open_nursery() as nursery:
                for slot, timeline in enumerate(timelines):
                    nursery.start_soon(
                        partial(
                            play_match,
                            game,
                            bots,
                            round_number * concurrent + slot,
                            time_control=TIME_CONTROL,
                            observer=timeline,
                            ready_gate=barrier.wait,
                            lender=pool.lender(slot),
                        )
                    )
            window_end = min(t.decision_times[-1] for t in timelines)
            window_seconds += window_end - barrier.opened_at
            window_decisions += sum(
                1 for t in timelines for at in t.decision_times if at <= window_end
            )
            bots_cpu += sum(bot_cpu_seconds(leased.bot) for leased in pool.idle)
            decisions += sum(len(t.decision_times) for t in timelines)
        referee_cpu += time.process_time()
    return MatchesRun(
        window_decisions / window_seconds,
        window_decisions,
        1000 * referee_cpu / decisions,
        1000 * bots_cpu / decisions,
    )


async def backend_throughput(
    bots: Sequence[BotSpec], game: str, concurrent: int, games: int, workers: int, pin_cpus: bool
) -> float:
    """Decisions/s of ``concurrent`` game slots each playing ``games`` games back to back with
    its kept-up bots on a tournament's backend (``arena.tournament.runner.backend``): this
    process (``workers`` = 1) or ``workers`` processes (``--workers``, ``pin_cpus`` as
    ``--pin-cpus``), after one unmeasured game per slot. Timed to the last game's end: the tail
    where fewer slots play counts against it."""
    settings = TournamentSettings(
        players=len(bots),
        concurrency=concurrent,
        move_time=TIME_CONTROL.move_seconds,
        sandbox=SandboxPolicy(tool="none"),
    )
    seats = tuple(range(len(bots)))
    decisions = 0
    async with backend(GameSetup(game, 1, list(bots), settings, None), workers, None, pin_cpus) as (
        player
    ):

        async def play(slot: int, seeds: Sequence[int]) -> None:
            nonlocal decisions
            for seed in seeds:
                record = await player.play(slot, seats, seed)
                assert not record.voided, record.void_reason
                decisions += len(record.actions)

        async with trio.open_nursery() as nursery:
            for slot in range(concurrent):
                nursery.start_soon(play, slot, [-1 - slot])
        decisions, began = 0, time.perf_counter()
        async with trio.open_nursery() as nursery:
            for slot in range(concurrent):
                nursery.start_soon(play, slot, range(slot * games, (slot + 1) * games))
        return decisions / (time.perf_counter() - began)
