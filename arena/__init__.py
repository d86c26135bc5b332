"""The referee: bot processes, match runner, clocks, tournaments, storage and the CLI."""

import os

# Both are read as grpc is imported: hence here, before any module of the arena imports it. A bot
# importing the SDK by its old name (``arena.sdk``) keeps the environment it was given, and an
# operator who sets either variable keeps theirs.
if "ARENA_BOT_ADDRESS" not in os.environ:
    # gRPC's core logs at INFO when a bot's server goes away mid-call ("Got goaway ..."): a bot
    # could write on the operator's terminal, past the progress bar. Its errors still show.
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    # The referee's calls wait for their replies on the calling thread (gRPC's iomgr client),
    # not through the threads of gRPC's EventEngine client (grpcio's default): a Decide then
    # costs the referee about a quarter less CPU and time (docs/scale.md, "December 7,
    # morning"). tests/referee/test_grpc_setup.py fails the day grpcio drops this setting.
    os.environ.setdefault("GRPC_EXPERIMENTS", "-event_engine_client")
