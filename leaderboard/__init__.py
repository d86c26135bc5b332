"""Ratings and leaderboard views, computed from plain game results.

Depends on nothing else of the project: the arena turns its stored games into
``leaderboard.results.GameResult`` values, splits them into boards per player count
(``leaderboard.boards``) and asks this package for Elo ratings (``leaderboard.elo``), the batch
Plackett-Luce fit with honest intervals, pool by pool (``leaderboard.batch``), table rows
(``leaderboard.tables``) and SPRT decisions on paired games (``leaderboard.sprt``). The model,
its prior and its limits: ``leaderboard/README.md``.
"""
