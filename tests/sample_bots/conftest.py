"""Make the Python sample bots' strategy code importable in tests (bots are directories, not
installed packages): ``import heuristics.oregon``, ``import search``."""

import sys
from pathlib import Path

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
for bot in ("heuristic-python", "search-python"):
    path = str(SAMPLE_BOTS / bot)
    if path not in sys.path:
        sys.path.insert(0, path)
