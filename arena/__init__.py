"""The referee: bot processes, match runner, clocks, tournaments, storage and the CLI."""

from arena import grpc_settings

grpc_settings.apply()  # before any arena module imports grpc (it reads them at import)
