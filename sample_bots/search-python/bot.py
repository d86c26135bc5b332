"""Search bot: determinized Monte Carlo search with the engine as a library (see search.py).

It decodes its seat's view from the request, samples hidden information through the engine's own
sampler, and spends at most SEARCH_BUDGET_S seconds (bot.toml), never more than SEARCH_SHARE of
the time the referee's clock leaves for the decision.
"""

import os
import random

from arena import sdk
from arena.wire.codec import decode_view
from engine import get_game
from search import choose as search

BUDGET_S = float(os.environ.get("SEARCH_BUDGET_S", "0.5"))
SHARE = float(os.environ.get("SEARCH_SHARE", "0.5"))  # safety margin for network and start-up
rng = sdk.seeded_random()
games: dict[str, str] = {}  # game_id -> game name


def on_start(request):
    games[request.game_id] = request.game


def choose(request):
    if len(request.legal_actions) == 1:
        return 0
    name = games[request.game_id]
    clock = request.clock
    available = clock.move_seconds + clock.bank_seconds
    budget = min(BUDGET_S, SHARE * available) if available > 0 else BUDGET_S
    view = decode_view(name, request.view)
    return search(get_game(name), view, budget, random.Random(rng.getrandbits(64)))


if __name__ == "__main__":
    sdk.run(choose, on_start=on_start)
