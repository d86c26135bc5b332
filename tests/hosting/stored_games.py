"""Games stored straight into a hosted arena's database, with their seats' log slices: what the
web's author pages and log downloads are tested against."""

from __future__ import annotations

from pathlib import Path

from arena.manifest import BotSpec
from arena.records import LogSlice, MatchRecord, Outcome, SeatRecord
from arena.storage import bots
from arena.storage.database import open_database
from arena.storage.games import record_game
from arena.storage.target import DatabaseTarget


def stored_game(
    db: DatabaseTarget,
    seats: list[tuple[str, int | None, LogSlice | None]],
    tournament_id: int | None = None,
) -> int:
    """Store a game (voided, no decisions: the fastest a real record can be) whose seats are
    the bots ``(name, author id or None for the operator, log slice)``, of ``tournament_id`` if
    given; its id."""
    database = open_database(db, create=False)
    try:
        with database.write() as session:
            versions = []
            for name, author in ((name, author) for name, author, _ in seats):
                # a bot the arena runs (a remote bot's deals are its own: never held back)
                spec = BotSpec(name, "1.0.0", ("oregon",), Path("/nonexistent"), ("./bot",))
                registered, _ = bots.register(session, spec, name, author_id=author)
                versions.append(registered.version.id or 0)
        record = MatchRecord(
            game="oregon",
            rules_version="1",
            options={},
            seed=1,
            num_players=len(seats),
            actions=[],
            seats=[
                SeatRecord(i, name, 0.0, 0, Outcome.FINISHED, "", 0.0, 0, log)
                for i, (name, _, log) in enumerate(seats)
            ],
            voided=True,
            void_reason="arena fault: a test",
            duration=0.0,
        )
        game_id = record_game(
            database, record, versions, group_key="test", tournament_id=tournament_id
        )
    finally:
        database.close()
    assert game_id is not None
    return game_id


def log_file(tmp_path: Path, *parts: bytes) -> tuple[Path, list[LogSlice]]:
    """A kept log with ``parts`` written one after the other (games of one process), and the
    slice of each."""
    path = tmp_path / "logs" / f"process{len(list(tmp_path.glob('logs/*')))}.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(parts))
    slices, start = [], 0
    for part in parts:
        slices.append(LogSlice(str(path), start, start + len(part)))
        start += len(part)
    return path, slices
