"""gRPC's settings for the arena's own processes, made by their entry points.

gRPC core reads ``GRPC_EXPERIMENTS`` once, when ``grpc`` is imported, so the setting is made
first thing by the ``arena`` command (``arena.launcher``) and ``python -m arena.bench``, before
grpc is imported; the processes they start (workers, a local Ray cluster) inherit it. Not on
importing ``arena``: a Python bot that imports the arena's generated messages (``arena.bot.v1``)
is its author's program and keeps gRPC's defaults. ``-event_engine_client`` turns off
the EventEngine client that grpcio 1.85 uses by default: with it, a reply is read by one of
gRPC's poller threads and handed to the thread waiting for the call, one more thread wake-up per
call; without it, the calling thread polls its channel itself. Measured on the referee's calls
(docs/scale.md, "The referee's CPU per decision: where it goes"): a quarter less CPU per call,
both for a bare blocking call and through the referee's trio bridge.

An operator's own ``GRPC_EXPERIMENTS`` is left as it is. Bots are the authors' programs, not the
arena's: ``for_bots`` takes the arena's setting out of the environment an unconfined bot
inherits (a sandboxed bot inherits none).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

VARIABLE = "GRPC_EXPERIMENTS"
ARENA_VALUE = "-event_engine_client"


def apply() -> None:
    """Set the arena's gRPC experiments unless the environment already names some."""
    os.environ.setdefault(VARIABLE, ARENA_VALUE)


def for_bots(environment: Mapping[str, str]) -> dict[str, str]:
    """``environment`` without the arena's own gRPC setting (an operator's other value stays)."""
    return {
        name: value
        for name, value in environment.items()
        if not (name == VARIABLE and value == ARENA_VALUE)
    }
