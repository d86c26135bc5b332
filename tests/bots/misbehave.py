"""Test bots that break the protocol on purpose, one behaviour per bot directory next to this file.

    python ../misbehave.py MODE

Each plays random legal actions until its third decision, then: ``sleep`` hangs past any limit,
``exit`` quits the process, ``out-of-range`` answers an index past the legal list, ``stale``
answers with the previous decision number. ``slow`` takes 0.15 s over every decision.
``second-game-exit`` plays its process's first game well and quits at the third decision of its
second (a bot that stays up across games and then breaks).
``never-ready`` never listens (and starts a grandchild
that would outlive it unless the arena stops the whole process group).
"""

import os
import subprocess
import sys
import time

from arena import sdk
from arena.bot.v1 import bot_pb2

MISBEHAVE_AT = 3
GRANDCHILD_MARKER = "arena-test-grandchild"  # tests look for it in the process table

mode = sys.argv[1]
rng = sdk.seeded_random()
decisions = 0
games: list[str] = []  # the game ids this process has seen, in order


def choose(request: bot_pb2.DecisionRequest) -> int:
    global decisions
    if request.game_id not in games:
        games.append(request.game_id)
        if mode == "second-game-exit":
            decisions = 0
    decisions += 1
    if mode == "second-game-exit" and len(games) == 2 and decisions == MISBEHAVE_AT:
        print("misbehave: exiting in my second game", file=sys.stderr, flush=True)
        os._exit(3)
    if mode == "slow":
        time.sleep(0.15)
    if decisions == MISBEHAVE_AT:
        if mode == "sleep":
            time.sleep(3600)
        elif mode == "exit":
            print("misbehave: exiting on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        elif mode == "out-of-range":
            return len(request.legal_actions) + 5
    return rng.randrange(len(request.legal_actions))


if mode == "never-ready":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", GRANDCHILD_MARKER])
    time.sleep(3600)
elif mode == "stale":
    def reply(request: bot_pb2.DecisionRequest) -> bot_pb2.DecisionReply:
        global decisions
        decisions += 1
        number = request.decision_number - (decisions == MISBEHAVE_AT)
        return bot_pb2.DecisionReply(decision_number=number,
                                     action_index=rng.randrange(len(request.legal_actions)))
    sdk.run_replies(reply)
else:
    sdk.run(choose)
