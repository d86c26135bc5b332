"""Ratings and leaderboard views, computed from plain game results.

Depends on nothing else of the project: the arena turns its stored games into
``leaderboard.results.GameResult`` values, splits them into boards per player count
(``leaderboard.boards``) and asks this package for Elo ratings (``leaderboard.elo``), the batch
Plackett-Luce fit with honest intervals, pool by pool (``leaderboard.batch``), table rows
(``leaderboard.tables``) and SPRT decisions on paired games (``leaderboard.sprt``). The model,
its prior and its limits: ``leaderboard/README.md``.
"""

import numpy as np  # noqa: F401 - loaded first, so that the limit below finds its BLAS
from threadpoolctl import threadpool_limits

# The fits solve many small systems (a bootstrap's samples x players x players); BLAS's own
# threads gain nothing there and, on a machine whose cores bots and other processes share, spin
# while they wait: a 127-bot board's fit took 37 s at load 9-15 instead of about 1 s (outside
# review K). One thread for the process; a bot is another process and keeps its own setting.
threadpool_limits(limits=1, user_api="blas")
