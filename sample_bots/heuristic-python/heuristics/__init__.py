"""Hand-written strategies, one module per game. Each module provides

- ``choose(view, actions, rng) -> int``: the heuristic bot's pick, from the seat's view and the
  decoded legal actions (engine dataclasses);
- ``rollout(state, rng) -> int``: a fast policy on a full engine state, used by the search bot
  (sample_bots/search-python links this package) to play games out during its search.

Optional, for the search bot's candidates and cut-off playouts (Oregon, Ogallala):
``ranking(view, actions, rng, k) -> list[int]`` (the k options the heuristic values most, best
first) and ``position_value(state, seat) -> float`` (a static evaluation of a full state).
"""
