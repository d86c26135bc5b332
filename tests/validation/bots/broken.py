"""Bots that fail one check of `arena validate` each, one mode per bot directory next to this file.

    python ../broken.py MODE

``wrong-name`` answers the handshake with another name than its bot.toml's; ``open-door`` accepts
calls with any token; ``traceback`` raises an exception at its third decision; ``unseeded`` plays
from an unseeded generator; ``stuck-crash`` raises at Oregon's DISCARD_WHEN_STUCK (a kind random
play rarely reaches). Otherwise each plays random legal actions, seeded by the arena.
"""

import os
import random
import sys
from pathlib import Path

import arena_sdk as sdk

mode = sys.argv[1]
rng = random.Random() if mode == "unseeded" else sdk.seeded_random()
decisions = 0


def choose(request):
    global decisions
    decisions += 1
    if mode == "traceback" and decisions == 3:
        plan = {}
        return plan["no plan for " + request.decision_kind]  # KeyError, logged with a traceback
    if mode == "stuck-crash" and request.decision_kind == "DISCARD_WHEN_STUCK":
        raise ValueError("no plan for DISCARD_WHEN_STUCK")
    return rng.randrange(len(request.legal_actions))


if mode == "wrong-name":  # the handshake comes from another manifest than the arena reads
    sdk.run(choose, manifest=Path("impostor.toml"))
elif mode == "open-door":
    sdk.serve(
        sdk.replying_with(choose), address=os.environ["ARENA_BOT_ADDRESS"], token=""
    ).wait_for_termination()
else:
    sdk.run(choose)
