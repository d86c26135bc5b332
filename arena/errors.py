"""The arena's own failures, as one hierarchy: callers decide by type, never by message text, and
``str(exc)`` is always one line that says what went wrong and where.

    ArenaError
    ├── InputError              the user asked for something that cannot be done: the CLI prints
    │   │                       "error: ..." and exits 2
    │   ├── ManifestError       a missing or malformed bot.toml
    │   ├── SetupError          a match or tournament cannot be set up as asked
    │   │   └── BotChangedError a registered bot's code changed: its games are not played
    │   ├── SubmitError         a bot cannot be registered
    │   ├── DatabasePathError   no arena database at that path (nor can one be made there)
    │   ├── UnknownBotError     no registered bot of that name
    │   ├── UnknownTournamentError
    │   ├── UnknownGameError    no stored game of that id
    │   └── ReplayError         a stored game cannot be replayed
    ├── StorageError            the database file is there but cannot be used (corrupt, another
    │                           program's, locked, read-only, disk full): "error: ...", exit 4
    ├── BotError                a bot broke the protocol: the referee makes it a forfeit
    │   ├── NotReadyError       never answered the handshake
    │   ├── HandshakeMismatchError
    │   ├── MalformedReplyError a reply that does not parse
    │   └── ExtraReplyError     a second reply to a call that takes one
    ├── WireError               a dataclass and its proto message do not fit (the arena's fault)
    └── ClosedClientError       a call on a bot connection the arena closed (the arena's fault)
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


class BotChangedError(SetupError):
    """A registered version's directory no longer holds its code: its game is not played."""


class SubmitError(InputError):
    """The bot cannot be registered."""


class DatabasePathError(InputError):
    """No arena database at the path given (missing or empty file), or none can be created there;
    the message names the path."""


class StorageError(ArenaError):
    """The database cannot be read or written: corrupt, another program's, of a newer arena,
    locked, read-only, the disk is full, or its PostgreSQL server cannot be reached. Not the
    user's input: the CLI exits 4, so scripts can tell a broken or busy database from a typo. The
    message names the database."""


class DamagedDatabaseError(StorageError):
    """SQLite found the database file corrupt: it must be repaired or restored, waiting will not
    help."""


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


class AnsweredTwiceError(NotReadyError):
    """The bot answered the handshake twice, which the sandbox's frame filter cut off: a broken
    protocol (ILLEGAL), not a bot that failed to start (CRASH)."""


class HandshakeMismatchError(BotError):
    """The bot answered the handshake, but for another protocol version or other games."""


class MalformedReplyError(BotError):
    """A bot's reply is not a valid message of the expected type."""


class ExtraReplyError(BotError):
    """A bot sent a second reply to a call that takes one (a server that streams its answer)."""


class WireError(ArenaError):
    """A dataclass and its proto message do not fit each other."""


class ClosedClientError(ArenaError):
    """A call on a bot connection the arena already closed: the arena's own fault (the game is
    voided), never the bot's."""
