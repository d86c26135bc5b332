"""The arena's benchmarks, each a module with ``main(argv)``: ``protocol`` (what the referee adds
to a bare gRPC round trip, how fast bots start) and ``storage`` (the leaderboard over games stored
in SQLite). Run one with ``python -m arena.bench NAME [options]``. The engines' and the
leaderboard's own benchmarks stay in their packages (``python -m engine.bench``,
``python -m leaderboard.bench``), which depend on nothing of the arena."""
