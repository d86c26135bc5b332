"""A random bot that records every request it receives, for the leak test.

Each line of the file named by ARENA_SPY_FILE is ``<message type> <base64 of the serialized
message>``; the file's first line is ``Environment <ARENA_BOT_SEED>``.
"""

import base64
import os

from arena import sdk

rng = sdk.seeded_random()
log = open(os.environ["ARENA_SPY_FILE"], "w", buffering=1)  # noqa: SIM115 - open for the bot's life
log.write(f"Environment {os.environ['ARENA_BOT_SEED']}\n")


def record(message) -> None:
    payload = base64.b64encode(message.SerializeToString()).decode()
    log.write(f"{type(message).__name__} {payload}\n")


def choose(request) -> int:
    record(request)
    return rng.randrange(len(request.legal_actions))


sdk.run(choose, on_start=record, on_end=record)
