"""Keeps its first StartGame and Decide requests in its directory (start_game.binpb,
decide.binpb) and plays the first legal action."""

from pathlib import Path

import arena_sdk as sdk


def keep(name, request):
    path = Path(name)
    if not path.exists():
        path.write_bytes(request.SerializeToString())


def choose(request):
    keep("decide.binpb", request)
    return 0


sdk.run(choose, on_start=lambda request: keep("start_game.binpb", request))
