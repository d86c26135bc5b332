"""Schema versions. A database records its version in ``schema_version``; opening an older one
runs the missing steps of ``MIGRATIONS`` in one transaction, so data is never dropped.

To change the schema: edit the models, bump ``CURRENT_VERSION`` and add the step from the previous
version (plain SQL such as ``ALTER TABLE ... ADD COLUMN``) to ``MIGRATIONS``.

The same steps run on SQLite and PostgreSQL (``--db postgresql://``); a step must be SQL both
speak, or ask ``is_sqlite``. (PostgreSQL databases start at schema 7: the steps before it were
written for SQLite alone and never run there.)
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, Table, inspect
from sqlmodel import SQLModel

from arena.errors import StorageError
from arena.storage import models
from leaderboard.boards import EloBoards
from leaderboard.results import GameResult, SeatResult

# Stamped into the SQLite header (PRAGMA application_id) to tell our files from foreign ones.
APPLICATION_ID = 0x4152_4E41  # "ARNA"
# What stands for it on PostgreSQL, which has no header: the comment on ``schema_version``.
POSTGRES_MARKER = f"game-bot arena database (application id {APPLICATION_ID:#x})"
CURRENT_VERSION = 10


def known_version(target: object, version: int | None) -> int:
    """``version``, as the database at ``target`` names it, if this arena can read it; a
    StorageError for none (damage) or a newer arena's (its tables may mean something else)."""
    if version is None:
        raise StorageError(f"{target}: arena database without a schema version (damaged)")
    if version > CURRENT_VERSION:
        raise StorageError(
            f"{target}: written by a newer arena (schema {version}, this arena "
            f"knows up to {CURRENT_VERSION})"
        )
    return int(version)


def _table(model: type[SQLModel]) -> Table:
    """A table model's table. SQLModel sets ``__table__`` on these classes without declaring it
    to type checkers; the mapper's ``local_table`` is that same object, typed."""
    table = inspect(model).local_table
    assert isinstance(table, Table), f"{model.__name__} is a table model"
    return table


def _decision_details(connection: Connection) -> None:
    """Schema 2: each game keeps every decision's time taken and the bot's comment (for the
    replay viewer); games stored before keep NULL there and still replay."""
    connection.exec_driver_sql("ALTER TABLE game ADD COLUMN decision_seconds JSON")
    connection.exec_driver_sql("ALTER TABLE game ADD COLUMN comments JSON")


def _boards_and_seals(connection: Connection) -> None:
    """Schema 3: Elo is kept per board, (game type, player count), and each game gets a seal for
    ``arena replay --verify``. The Elo tables are derived data: they are rebuilt by rating every
    finished game again, in the order the games were rated (id order), one board at a time.
    Games stored before keep no seal and replay as unverified."""
    connection.exec_driver_sql("ALTER TABLE game ADD COLUMN verification JSON")
    connection.exec_driver_sql("DROP TABLE elo_rating")
    connection.exec_driver_sql("DROP TABLE rating_history")
    _table(models.EloRating).create(connection)
    _table(models.RatingHistory).create(connection)
    rows = connection.exec_driver_sql(
        "SELECT g.id, g.game, s.bot_version_id, s.rank, s.score, s.outcome FROM seat s "
        "JOIN game g ON g.id = s.game_id WHERE g.status = ? ORDER BY g.id, s.seat",
        (models.GameStatus.FINISHED.value,),
    ).fetchall()
    boards = EloBoards()
    history = []
    for i, (game_id, game, version, rank, score, outcome) in enumerate(rows):
        if i == 0 or rows[i - 1][0] != game_id:
            seats: list[SeatResult] = []
        seats.append(
            SeatResult(str(version), rank, score, "" if outcome == "FINISHED" else outcome)
        )
        if i + 1 == len(rows) or rows[i + 1][0] != game_id:
            for player, (before, after) in boards.apply(game, GameResult(tuple(seats))).items():
                history.append(
                    {
                        "game_id": game_id,
                        "game": game,
                        "players": len(seats),
                        "bot_version_id": int(player),
                        "before": before,
                        "after": after,
                    }
                )
    if history:
        connection.execute(_table(models.RatingHistory).insert(), history)
    played: dict[tuple[str, int, int], int] = {}
    for entry in history:
        key = (entry["game"], entry["players"], entry["bot_version_id"])
        played[key] = played.get(key, 0) + 1
    ratings = [
        {
            "game": game,
            "players": players,
            "bot_version_id": int(player),
            "rating": rating,
            "games": played[game, players, int(player)],
        }
        for (game, players), table in boards.tables.items()
        for player, rating in table.ratings.items()
    ]
    if ratings:
        connection.execute(_table(models.EloRating).insert(), ratings)


def _sealed_from(connection: Connection) -> None:
    """Schema 4: the database records from which game on every game is sealed, so that a seal
    removed later fails ``arena replay --verify`` instead of passing as "stored before seals".
    Games were sealed from the migration to schema 3 on: the first sealed game, or (none yet)
    the next game to be stored. (IF NOT EXISTS and REPLACE: a file whose version was set back by
    hand keeps the table and gets the value computed again.)"""
    connection.exec_driver_sql(
        "CREATE TABLE IF NOT EXISTS sealing "
        "(id INTEGER NOT NULL PRIMARY KEY, sealed_from_game INTEGER NOT NULL)"
    )
    connection.exec_driver_sql(
        "INSERT OR REPLACE INTO sealing (id, sealed_from_game) VALUES (1, COALESCE("
        "(SELECT MIN(id) FROM game WHERE verification IS NOT NULL AND verification != 'null'), "
        "(SELECT COALESCE(MAX(id), 0) + 1 FROM game)))"
    )


def _authors(connection: Connection) -> None:
    """Schema 5: authors own bots and submit them with tokens; every bot stored before belongs to
    the built-in author "operator" (who ran the host's CLI). The column stays NULL-able in SQL:
    SQLite adds a REFERENCES column to an existing table only with the default NULL. (Each part
    only where missing, as in schema 4: a file whose version was set back by hand keeps them.)"""
    for model in (models.Author, models.AuthorToken, models.Submission):
        _table(model).create(connection, checkfirst=True)
    operator = connection.exec_driver_sql(
        "SELECT id FROM author WHERE name = ?", (models.OPERATOR,)
    ).scalar()
    if operator is None:
        operator = _add_operator(connection)
    columns = {row[1] for row in connection.exec_driver_sql("PRAGMA table_info(bot)")}
    if "author_id" not in columns:
        connection.exec_driver_sql(
            "ALTER TABLE bot ADD COLUMN author_id INTEGER REFERENCES author(id)"
        )
    connection.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_bot_author_id ON bot (author_id)")
    connection.exec_driver_sql("UPDATE bot SET author_id = ? WHERE author_id IS NULL", (operator,))


def _add_operator(connection: Connection) -> int:
    result = connection.execute(
        _table(models.Author).insert().values(name=models.OPERATOR, created_at=models.utc_now())
    )
    (key,) = result.inserted_primary_key or (None,)
    assert isinstance(key, int), "the operator is stored"
    return key


def _running_games(connection: Connection) -> None:
    """Schema 6: the games being played now (``running_game``), which the web shows live."""
    _table(models.RunningGame).create(connection, checkfirst=True)


def _web_sessions(connection: Connection) -> None:
    """Schema 7: authors sign in on the web; their sessions are kept here (``web_session``)."""
    _table(models.WebSession).create(connection, checkfirst=True)


def _seat_logs(connection: Connection) -> None:
    """Schema 8: each seat's part of its bot's kept log (``seat_log``), for the bot's author.
    Games stored before have none."""
    _table(models.SeatLog).create(connection, checkfirst=True)


def _rate_events(connection: Connection) -> None:
    """Schema 9: the events the tokens' rate limits count (``rate_event``), in the database so
    that every web process of an arena shares the limits. Nothing to carry over: the limits
    were counted in each process's memory."""
    _table(models.RateEvent).create(connection, checkfirst=True)


def _withdrawals(connection: Connection) -> None:
    """Schema 10: the bots the operator withdrew from play (``bot_withdrawal``); none before."""
    _table(models.BotWithdrawal).create(connection, checkfirst=True)


# MIGRATIONS[v] turns a version-v database into a version-(v + 1) one.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    1: _decision_details,
    2: _boards_and_seals,
    3: _sealed_from,
    4: _authors,
    5: _running_games,
    6: _web_sessions,
    7: _seat_logs,
    8: _rate_events,
    9: _withdrawals,
}


def is_sqlite(connection: Connection) -> bool:
    """The one place a step tells the two databases apart."""
    return connection.dialect.name == "sqlite"


def create_schema(connection: Connection) -> None:
    SQLModel.metadata.create_all(connection)
    if is_sqlite(connection):
        connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
    else:
        connection.exec_driver_sql(f"COMMENT ON TABLE schema_version IS '{POSTGRES_MARKER}'")
    connection.execute(_table(models.SchemaVersion).insert().values(id=1, version=CURRENT_VERSION))
    connection.execute(_table(models.Sealing).insert().values(id=1, sealed_from_game=1))
    _add_operator(connection)


def migrate(connection: Connection, version: int) -> None:
    for step in range(version, CURRENT_VERSION):
        MIGRATIONS[step](connection)
    connection.execute(_table(models.SchemaVersion).update().values(version=CURRENT_VERSION))
