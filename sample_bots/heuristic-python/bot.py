"""Heuristic bot: one hand-written evaluation per game (heuristics/<game>.py), no search.

Each heuristics module offers ``choose(view, actions, rng) -> index``: the seat's view and the
legal actions decoded into the engine's own dataclasses.
"""

import importlib

import arena_sdk as sdk
from arena.wire.codec import decode_action, decode_view

rng = sdk.seeded_random()


def choose(request):
    name = sdk.game_of(request)
    strategy = importlib.import_module(f"heuristics.{name}")
    view = decode_view(name, request.view)
    actions = [decode_action(name, action) for action in request.legal_actions]
    return strategy.choose(view, actions, rng)


if __name__ == "__main__":
    sdk.run(choose)
