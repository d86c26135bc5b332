"""The arena's benchmarks, each a module with ``main(argv)``, run with ``python -m arena.bench
NAME [options]``: ``protocol`` (what the referee adds to a bare gRPC round trip, how fast bots
start), ``tournament`` (a tournament against the referee's matches and the no-referee ceiling),
``gaps`` (a bot's CPU per call by the pause between calls), ``threads`` (the referee's CPU per
decision by thread), ``calls`` (its CPU per call of each kind), ``storage`` (the leaderboard over
games stored in SQLite), ``cluster`` (a tournament on a local Ray cluster of 1 and 2 nodes),
``web`` (the web pages over many games), ``ladder`` (the ladder's matchmaking against a round
robin, simulated) and ``live`` (writing the games in play for spectators). The engines' and the
leaderboard's own benchmarks stay in their packages (``python -m engine.bench``, ``python -m
leaderboard.bench``), which depend on nothing of the arena."""

from __future__ import annotations

import argparse


def bench_parser(name: str, doc: str | None) -> argparse.ArgumentParser:
    """The argument parser of benchmark ``name``, its module docstring ``doc`` as its help."""
    return argparse.ArgumentParser(
        prog=f"python -m arena.bench {name}",
        description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
