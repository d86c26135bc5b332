"""What a decision costs in process, without a bot: the engine's step and a request's encoding, by
today's encoder and by the previous one (``arena.wire.reference``), measured on the same
decisions."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from arena.wire.reference import MessageDecisionEncoder
from arena.wire.requests import DecisionEncoder
from engine.registry import get_game


@dataclass
class InProcess:
    """Seconds of CPU per decision, in process: the engine's step and a request's encoding by
    today's encoder and by the previous one (``arena.wire.reference``)."""

    engine: float
    encoding: float
    previous_encoding: float


def engine_and_encoding(game: str, players: int, games: int, warm_up: int = 0) -> InProcess:
    """The engine's CPU time per decision (legal actions, apply) and that of encoding the request
    (the seat's events and view, serialized with the legal actions) by both encoders, in random
    games: both encode every decision, in alternating order, so a busy machine slows both
    alike. ``warm_up`` other games are played first, unmeasured, as a referee that has played
    for a while has its caches filled (the engines' and the encoders')."""
    encoders: list[DecisionEncoder | MessageDecisionEncoder] = [
        DecisionEncoder(game),
        MessageDecisionEncoder(game),
    ]
    engine_seconds = 0.0
    encoding_seconds = [0.0, 0.0]
    decisions = 0
    # this thread's CPU only: the process's (time.process_time) counted, in the protocol bench,
    # the gRPC and trio threads its earlier measurements left running (43-61 us measured for
    # encodings that cost 20-26 us alone, December 6)
    clock = time.thread_time
    for seed in [*range(-warm_up, 0), *range(games)]:
        state = get_game(game).new_game(players, seed)
        rng = random.Random(seed)
        told = [0] * players
        measured = seed >= 0
        while (seat := state.current_seat) is not None:  # None once the game is over
            began = clock()
            legal = state.legal_actions()
            engine_seconds += (clock() - began) * measured
            since = told[seat]
            told[seat] = len(state.event_log)
            for which in (0, 1) if decisions % 2 else (1, 0):
                began = clock()
                encoders[which].request("bench", decisions, state, seat, legal, 1.0, 0.0, since)
                encoding_seconds[which] += (clock() - began) * measured
            began = clock()
            state.apply_index(rng.randrange(len(legal)))
            engine_seconds += (clock() - began) * measured
            decisions += measured
    return InProcess(
        engine_seconds / decisions,
        encoding_seconds[0] / decisions,
        encoding_seconds[1] / decisions,
    )
