"""Plays random legal actions and says on stderr when each game starts and ends, with the game's
id for its seat: a test finds each game's part of a kept log by these lines. Its first line says
which cores it may run on (``arena.tournament.cpus``)."""

import os
import sys

import arena_sdk as sdk

rng = sdk.seeded_random()


def start(request):
    print(f"start {request.game_id}", file=sys.stderr, flush=True)


def end(request):
    print(f"end {request.game_id}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    cores = ",".join(map(str, sorted(os.sched_getaffinity(0))))
    print(f"chatty up on cores {cores}", file=sys.stderr, flush=True)
    sdk.run(lambda request: rng.randrange(len(request.legal_actions)), on_start=start, on_end=end)
