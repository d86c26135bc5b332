"""The referee: bot processes, match runner, clocks, tournaments, storage and the CLI."""
