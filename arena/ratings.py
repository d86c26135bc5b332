"""Leaderboards and rating histories from the stored games (``arena leaderboard``).

One board per (game type, player count): the batch Plackett-Luce fit (``leaderboard.batch``) over
every bot version that played on it, the stored incremental Elo of that board, and the rows of
the versions asked for: by default each bot's newest version that played on the board, plus any
version named. The fit always uses every game of the board (old versions connect the pools and
inform the scale); only the rows shown are filtered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence, Set

from sqlmodel import Session, col, select

from arena.errors import InputError, UnknownBotError
from arena.storage import bots, games, tournaments
from arena.storage.models import GameRecord, RatingHistory
from leaderboard.elo import replay_elo
from leaderboard.tables import HeadToHead, LeaderboardRow, cross_table, leaderboard_rows


@dataclasses.dataclass
class Board:
    game: str
    players: int
    tournament: str | None
    rows: list[LeaderboardRow]  # the rows shown, positions counted among them, pool by pool
    crosstable: dict[tuple[str, str], HeadToHead] | None  # only when asked for
    versions: dict[int, bots.RegisteredVersion]
    labels: dict[int, str]  # version labels that tell a bot's versions apart
    latest: set[int]  # ids of each bot's newest version

    def bot(self, player: str) -> str:
        return self.versions[int(player)].bot.name

    def version(self, player: str) -> str:
        return self.labels[int(player)]


def resolve_versions(session: Session, texts: Sequence[str]) -> set[int]:
    """Version ids named by ``NAME`` (its newest version) or ``NAME@VERSION`` (a label such as
    1.0 or 1.0-r2, or a content-hash prefix: ``bots.versions_named``)."""
    everything = bots.all_versions(session)
    labels = bots.version_labels(everything)
    wanted: set[int] = set()
    for text in texts:
        name, _, version = text.partition("@")
        mine = [entry for entry in everything if entry.bot.name == name]
        if not mine:
            known = ", ".join(sorted({entry.bot.name for entry in everything})) or "none"
            raise UnknownBotError(f"unknown bot {name!r} (registered: {known})")
        if not version:
            found = [max(mine, key=lambda entry: entry.version.id or 0)]
        else:
            found = bots.versions_named(mine, labels, version)
        if not found:
            raise InputError(
                f"bot {name!r} has no version {version!r} (versions: "
                f"{', '.join(labels[e.version.id or 0] for e in mine)})"
            )
        wanted |= {entry.version.id for entry in found if entry.version.id is not None}
    return wanted


def shown_on_board(
    rows: Sequence[LeaderboardRow], bot_of: Mapping[int, Hashable], also: Set[int] = frozenset()
) -> list[LeaderboardRow]:
    """The rows a board shows by default: each bot's newest version among those that played on
    it (a bot whose newest version has not played here yet keeps its last row), plus the versions
    in ``also``; positions renumbered among them. ``bot_of`` maps a version id to its bot."""
    newest: dict[Hashable, int] = {}
    for row in rows:
        version_id = int(row.player)
        newest[bot_of[version_id]] = max(newest.get(bot_of[version_id], 0), version_id)
    shown = set(newest.values()) | set(also)
    return _renumbered([row for row in rows if int(row.player) in shown])


def _renumbered(rows: list[LeaderboardRow]) -> list[LeaderboardRow]:
    """Positions among the shown rows: 1 + the shown rows of the pool ranked strictly above."""
    return [
        dataclasses.replace(
            row,
            position=1
            + sum(other.position < row.position and _pool(other) == _pool(row) for other in rows),
        )
        for row in rows
    ]


def _pool(row: LeaderboardRow) -> int:
    return row.batch.pool if row.batch else 1


def build_board(
    session: Session,
    game: str,
    players: int,
    *,
    tournament: str | None = None,
    all_versions: bool = False,
    also: set[int] | None = None,
    with_crosstable: bool = False,
) -> Board:
    # Imported here: the batch fit needs numpy and scipy (0.3-0.5 s to import), which the
    # other commands do not.
    from leaderboard.batch import fit_batch

    tournament_id = None
    if tournament is not None:
        tournament_id = tournaments.by_name(session, tournament).id
    results = games.finished_game_results(session, game, players, tournament_id)
    # The stored Elo rates every game of the board; a tournament's board replays its own games.
    elo = games.stored_elo(session, game, players) if tournament_id is None else replay_elo(results)
    rows = leaderboard_rows(results, elo, fit_batch(results))
    everything = bots.all_versions(session)
    versions = {entry.version.id: entry for entry in everything if entry.version.id is not None}
    latest = {
        max(entry.version.id or 0 for entry in everything if entry.bot.id == bot_id)
        for bot_id in {entry.bot.id for entry in everything}
    }
    if not all_versions:
        bot_of = {version_id: entry.bot.id for version_id, entry in versions.items()}
        rows = shown_on_board(rows, bot_of, also or frozenset())
    return Board(
        game,
        players,
        tournament,
        rows,
        cross_table(results) if with_crosstable else None,
        versions,
        bots.version_labels(everything),
        latest,
    )


def load_boards(
    session: Session,
    game: str | None = None,
    players: int | None = None,
    *,
    tournament: str | None = None,
    all_versions: bool = False,
    bots_asked: Sequence[str] = (),
    with_crosstable: bool = False,
) -> list[Board]:
    """Every board with rated games (of ``game``, of ``players`` seats, of ``tournament``)."""
    also = resolve_versions(session, bots_asked)
    if tournament is not None:
        stored = tournaments.by_name(session, tournament)
        game = game or stored.game
    keys = [
        (name, count)
        for name, count in games.boards_played(session, game)
        if players is None or count == players
    ]
    boards = [
        build_board(
            session,
            name,
            count,
            tournament=tournament,
            all_versions=all_versions,
            also=also,
            with_crosstable=with_crosstable,
        )
        for name, count in keys
    ]
    return [board for board in boards if board.rows]


@dataclasses.dataclass(frozen=True)
class HistoryEntry:
    game_id: int
    finished_at: str
    version: str  # label
    before: float
    after: float


@dataclasses.dataclass
class History:
    bot: str
    game: str
    players: int
    entries: list[HistoryEntry]


def rating_history(
    session: Session, bot: str, game: str | None = None, players: int | None = None
) -> list[History]:
    """The Elo history of ``bot`` (``NAME``: every version; ``NAME@VERSION``: that version), one
    list per board, in the order the games were rated."""
    name, _, version = bot.partition("@")
    ids = (
        resolve_versions(session, [bot])
        if version
        else {
            entry.version.id
            for entry in bots.all_versions(session)
            if entry.bot.name == name and entry.version.id is not None
        }
    )
    if not ids:
        resolve_versions(session, [name])  # raises UnknownBotError with the known names
    labels = bots.version_labels(bots.all_versions(session))
    query = (
        select(RatingHistory, GameRecord.finished_at)
        .join(GameRecord, col(GameRecord.id) == RatingHistory.game_id)
        .where(col(RatingHistory.bot_version_id).in_(ids))
    )
    if game is not None:
        query = query.where(RatingHistory.game == game)
    if players is not None:
        query = query.where(RatingHistory.players == players)
    boards: dict[tuple[str, int], list[HistoryEntry]] = {}
    for entry, finished_at in session.exec(query.order_by(col(RatingHistory.id))):
        boards.setdefault((entry.game, entry.players), []).append(
            HistoryEntry(
                entry.game_id,
                f"{finished_at:%Y-%m-%d %H:%M:%S}",
                labels[entry.bot_version_id],
                entry.before,
                entry.after,
            )
        )
    return [
        History(name, board_game, count, entries)
        for (board_game, count), entries in sorted(boards.items())
    ]


SPARK = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float], width: int = 60) -> str:
    """A one-line chart of ``values`` (the last ``width`` of them, each a block of 8 heights)."""
    values = list(values)[-width:]
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low or 1.0
    return "".join(SPARK[min(len(SPARK) - 1, int((v - low) / span * len(SPARK)))] for v in values)
