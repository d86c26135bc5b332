"""Ratings and leaderboard views, computed from plain game results.

Depends on nothing else of the project: the arena turns its stored games into
``leaderboard.results.GameResult`` values and asks this package for Elo ratings
(``leaderboard.elo``), the batch maximum-likelihood fit (``leaderboard.batch``) and
table rows (``leaderboard.tables``).
"""
