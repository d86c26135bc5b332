"""Test bots that exceed a resource limit on purpose, one behaviour per bot directory here.

    python ../hog.py MODE

Each plays random legal actions until its third decision, then: ``memory`` allocates 1 GiB at
once, ``output`` starts a thread that writes to stdout without end and plays on.
"""

import sys
import threading

from arena import sdk
from arena.bot.v1 import bot_pb2

HOG_AT = 3
CHUNK = "x" * 1023 + "\n"

mode = sys.argv[1]
rng = sdk.seeded_random()
decisions = 0
hoard = []  # keeps what was allocated alive


def flood() -> None:
    while True:
        sys.stdout.write(CHUNK)


def choose(request: bot_pb2.DecisionRequest) -> int:
    global decisions
    decisions += 1
    if decisions == HOG_AT:
        if mode == "memory":
            hoard.append(bytearray(1 << 30))
        elif mode == "output":
            threading.Thread(target=flood, daemon=True).start()
    return rng.randrange(len(request.legal_actions))


sdk.run(choose)
