"""The referee: bot processes, match runner, clocks, tournaments, storage and the CLI."""

import os

# gRPC's core logs at INFO when a bot's server goes away mid-call ("Got goaway ..."): a bot
# could write on the operator's terminal, past the progress bar. Its errors still show; an
# operator who sets GRPC_VERBOSITY keeps that. It is read as grpc is imported: hence here,
# before any module of the arena imports it. A bot importing the SDK by its old name
# (``arena.sdk``) keeps the environment it was given.
if "ARENA_BOT_ADDRESS" not in os.environ:
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
