"""Leaderboards and rating histories from the stored games (``arena leaderboard``).

One board per (game type, player count): the batch Plackett-Luce fit (``leaderboard.batch``) over
every bot version that played on it, the stored incremental Elo of that board, and the rows of
the versions asked for: by default each bot's newest version that played on the board, plus any
version named. The fit always uses every game of the board (old versions connect the pools and
inform the scale); only the rows shown are filtered.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Hashable, Mapping, Sequence, Set
from typing import TYPE_CHECKING, Any

from arena.errors import InputError, UnknownBotError
from arena.storage import bots, games, tournaments
from arena.storage.database import Session
from leaderboard.elo import replay_elo
from leaderboard.tables import (
    HeadToHead,
    LeaderboardRow,
    cross_table,
    format_batch,
    leaderboard_rows,
    legend,
)

if TYPE_CHECKING:  # the batch module imports numpy and scipy, slow to load
    from leaderboard.batch import BatchRating


@dataclasses.dataclass
class Board:
    game: str
    players: int
    tournament: str | None  # its name, when the board is one tournament's games
    tournament_id: int | None
    games: int  # rated games on the board
    rows: list[LeaderboardRow]  # the rows shown, positions counted among them, pool by pool
    crosstable: dict[tuple[str, str], HeadToHead] | None  # only when asked for
    versions: dict[int, bots.RegisteredVersion]
    labels: dict[int, str]  # version labels that tell a bot's versions apart
    latest: set[int]  # ids of each bot's newest version

    def bot(self, player: str) -> str:
        return self.versions[int(player)].bot.name

    def version(self, player: str) -> str:
        return self.labels[int(player)]

    def shown(self, all_versions: bool = False, also: Set[int] = frozenset()) -> Board:
        """The board as shown: every version that played, or by default each bot's newest
        version that played on it plus the versions in ``also`` (``shown_on_board``)."""
        if all_versions:
            return self
        bot_of = {version_id: entry.bot.id for version_id, entry in self.versions.items()}
        return dataclasses.replace(self, rows=shown_on_board(self.rows, bot_of, also))


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
    tournament_id: int | None = None,
    with_crosstable: bool = False,
) -> Board:
    """The board of every version that played (``Board.shown`` filters it), from the stored
    games: the CLI, the web and ``--json`` all show this."""
    # Imported here: the batch fit needs numpy and scipy (0.3-0.5 s to import), which the
    # other commands do not.
    from leaderboard.batch import fit_batch

    results = games.finished_game_results(session, game, players, tournament_id)
    # The stored Elo rates every game of the board; a tournament's board replays its own games.
    elo = games.stored_elo(session, game, players) if tournament_id is None else replay_elo(results)
    everything = bots.all_versions(session)
    versions = {entry.version.id: entry for entry in everything if entry.version.id is not None}
    latest = {
        max(entry.version.id or 0 for entry in everything if entry.bot.id == bot_id)
        for bot_id in {entry.bot.id for entry in everything}
    }
    return Board(
        game,
        players,
        _tournament_name(session, tournament_id),
        tournament_id,
        len(results),
        leaderboard_rows(results, elo, fit_batch(results)),
        cross_table(results) if with_crosstable else None,
        versions,
        bots.version_labels(everything),
        latest,
    )


def _tournament_name(session: Session, tournament_id: int | None) -> str | None:
    return None if tournament_id is None else tournaments.name_of(session, tournament_id)


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
    tournament_id = None
    if tournament is not None:
        stored = tournaments.by_name(session, tournament)
        game, tournament_id = game or stored.game, stored.id
    keys = [
        (name, count)
        for name, count in games.boards_played(session, game)
        if players is None or count == players
    ]
    boards = [
        build_board(
            session, name, count, tournament_id=tournament_id, with_crosstable=with_crosstable
        ).shown(all_versions, also)
        for name, count in keys
    ]
    return [board for board in boards if board.rows]


def board_json(board: Board) -> dict[str, Any]:
    """The board as ``arena leaderboard --json`` and the web's /api/leaderboard give it
    (documented in leaderboard/README.md, "The board as JSON")."""
    rows = []
    for row in board.rows:
        version = board.versions[int(row.player)].version
        batch = row.batch
        rows.append(
            {
                "position": row.position,
                "version_id": int(row.player),
                "bot": board.bot(row.player),
                "version": board.version(row.player),
                "manifest_version": version.version,
                "content_hash": version.content_hash,
                "latest": int(row.player) in board.latest,
                "elo": round(row.elo, 2),
                "batch": None if batch is None else _batch_json(batch),
                "games": row.games,
                "average_rank": _number(row.average_rank),
                "average_score": _number(row.average_score),
                "forfeited": row.forfeited,
                "forfeits": row.forfeits,
            }
        )
    return {
        "game": board.game,
        "players": board.players,
        "tournament": board.tournament,
        "tournament_id": board.tournament_id,
        "games": board.games,
        "rows": rows,
        "legend": board_legend(board),
        "crosstable": None
        if board.crosstable is None
        else [
            {
                "version_id": int(a),
                "bot": board.bot(a),
                "version": board.version(a),
                "opponent_version_id": int(b),
                "opponent": board.bot(b),
                "opponent_version": board.version(b),
                "games": record.games,
                "points": record.score,
                "share": round(record.share, 4),
            }
            for (a, b), record in board.crosstable.items()
        ],
    }


def board_legend(board: Board) -> list[str]:
    """What the marks shown on the board mean (``leaderboard.tables.LEGEND``)."""
    return legend([row.batch for row in board.rows if row.batch])


def _batch_json(batch: BatchRating) -> dict[str, Any]:
    """A one-sided rating's open end is the prior's, not the games': null. Its point is given:
    it orders the rows."""
    return {
        "text": format_batch(batch),  # as the terminal writes it: "1764 [1413, ∞) ?", ...
        "rating": round(batch.rating, 2),
        "low": None if batch.bound == "upper" else round(batch.low, 2),
        "high": None if batch.bound == "lower" else round(batch.high, 2),
        "bound": batch.bound or None,
        "provisional": batch.provisional,
        "prior_set": batch.prior_set,
        "pool": batch.pool,
        "pools": batch.pools,
        "games": batch.games,
    }


def _number(value: float, digits: int = 2) -> float | None:
    return None if math.isnan(value) else round(value, digits)  # NaN: no finished game


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
    boards: dict[tuple[str, int], list[HistoryEntry]] = {}
    for entry, finished_at in games.rating_changes(session, ids, game, players):
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
