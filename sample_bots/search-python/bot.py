"""Search bot: determinized Monte Carlo search with the engine as a library (see search.py).

It decodes its seat's view from the request, samples hidden information through the engine's own
sampler, and improves on the heuristic bot's pick with playouts of the heuristic bot's playout
policies (``heuristics/``, a link to ../heuristic-python/heuristics; per-game settings in
settings.py). SEARCH_ITERATIONS playouts per decision keep its games reproducible from its seed;
SEARCH_BUDGET_S caps the time per decision, and it never uses more than SEARCH_SHARE of the time
the referee's clock leaves (a safety margin for network and start-up).
"""

import os
import random

from search import choose as search
from settings import search_settings

import arena_sdk as sdk
from arena.wire.codec import decode_view
from engine import get_game

ITERATIONS = int(os.environ.get("SEARCH_ITERATIONS", "200"))
BUDGET_S = float(os.environ.get("SEARCH_BUDGET_S", "0.5"))
SHARE = float(os.environ.get("SEARCH_SHARE", "0.5"))
rng = sdk.seeded_random()


def choose(request):
    name = sdk.game_of(request)
    clock = request.clock
    budget = min(BUDGET_S, SHARE * (clock.move_seconds + clock.bank_seconds))
    return search(
        get_game(name),
        decode_view(name, request.view),
        random.Random(rng.getrandbits(64)),
        iterations=ITERATIONS,
        budget_s=budget,
        **search_settings(name),
    )


if __name__ == "__main__":
    sdk.run(choose)
