"""The arena's own failures, as one hierarchy: callers decide by type, never by message text, and
``str(exc)`` is always one line that says what went wrong and where.

    ArenaError
    ├── InputError              the user asked for something that cannot be done: the CLI prints
    │   │                       "error: ..." and exits 2
    │   ├── ManifestError       a missing or malformed bot.toml
    │   ├── SetupError          a match or tournament cannot be set up as asked
    │   ├── SubmitError         a bot cannot be registered
    │   ├── StorageError        the database file cannot be used
    │   ├── UnknownBotError     no registered bot of that name
    │   ├── UnknownTournamentError
    │   ├── UnknownGameError    no stored game of that id
    │   └── ReplayError         a stored game cannot be replayed
    ├── BotError                a bot broke the protocol: the referee makes it a forfeit
    │   ├── NotReadyError       never answered the handshake
    │   ├── HandshakeMismatchError
    │   └── MalformedReplyError a reply that does not parse
    └── WireError               a dataclass and its proto message do not fit (the arena's fault)
"""

from __future__ import annotations


class ArenaError(Exception):
    """Any failure of the arena's own; ``str(exc)`` is one line."""


class InputError(ArenaError):
    """Something the user gave or asked for cannot be used; reported as one line, exit code 2."""


class ManifestError(InputError):
    """A missing or malformed bot.toml; the message names the file and the problem."""


class SetupError(InputError):
    """A match or tournament cannot be set up as asked (unknown game, wrong player count, bad
    options or limits, an entrant that does not fit)."""


class SubmitError(InputError):
    """The bot cannot be registered."""


class StorageError(InputError):
    """The database cannot be used; the message names the file."""


class UnknownBotError(InputError, LookupError):
    """No registered bot of that name."""


class UnknownTournamentError(InputError, LookupError):
    """No tournament of that name."""


class UnknownGameError(InputError, LookupError):
    """No stored game of that id."""


class ReplayError(InputError):
    """A stored game cannot be replayed (its engine is missing or refuses its actions)."""


class BotError(ArenaError):
    """A bot broke the protocol; the referee turns this into the seat's forfeit."""


class NotReadyError(BotError):
    """The bot never answered the handshake (it died, hung or refused); the message says why."""


class HandshakeMismatchError(BotError):
    """The bot answered the handshake, but for another protocol version or other games."""


class MalformedReplyError(BotError):
    """A bot's reply is not a valid message of the expected type."""


class WireError(ArenaError):
    """A dataclass and its proto message do not fit each other."""
