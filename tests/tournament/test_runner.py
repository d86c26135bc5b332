"""The runner re-runs voided games with the same seed, and plays the games its pairing hands out.
A void is a fault on the arena's side, which real bots cannot cause, so ``play_match`` is
replaced by one that voids each game once."""

from pathlib import Path

import pytest
import trio

from arena.manifest import BotSpec
from arena.records import MatchRecord
from arena.storage import bots, tournaments
from arena.storage.database import open_database
from arena.tournament import playing, runner
from arena.tournament.pairing import RoundRobin
from arena.tournament.schedule import build_schedule
from tests.tournament.helpers import query
from tests.tournament.records import match_record


class RecordingObserver:
    def __init__(self) -> None:
        self.events: list[tuple] = []

    def tournament_started(self, name: str, total: int, done: int) -> None:
        self.events.append(("started", name, total, done))

    def game_started(self) -> None:
        self.events.append(("game",))

    def game_finished(self, *, recorded: bool, forfeit: bool, voided: bool) -> None:
        self.events.append(("voided" if voided else "finished", recorded, forfeit))

    def game_abandoned(self) -> None:
        self.events.append(("abandoned",))

    def tournament_ended(self) -> None:
        self.events.append(("ended",))


def _tournament(tmp_path: Path, deals: int = 2):
    database = open_database(tmp_path / "arena.db", create=True)
    with database.write() as session:
        entrants = [
            bots.register(
                session, BotSpec(name, "1", ("oregon",), tmp_path, ("python", "bot.py")), name
            )[0]
            for name in ("a", "b")
        ]
        tournament = tournaments.create(
            session,
            "t",
            "oregon",
            5,
            {"players": 2, "deals": deals, "concurrency": 2, "move_time": 1.0, "options": {}},
            entrants,
        )
    return database, tournament.id


async def test_voided_games_are_rerun_with_the_same_seed(tmp_path: Path, monkeypatch):
    tried: set[tuple] = set()

    async def voiding_play_match(game, specs, seed, **_) -> MatchRecord:
        seating = (seed, *(spec.name for spec in specs))
        first_try = seating not in tried
        tried.add(seating)
        return match_record([1, 2], seed=seed, voided=first_try)

    monkeypatch.setattr(playing, "play_match", voiding_play_match)
    database, tournament_id = _tournament(tmp_path)
    observer = RecordingObserver()
    summary = await runner.run_tournament(database, tournament_id, observer)
    database.close()

    assert (summary.total, summary.done, summary.voided, summary.stopped) == (4, 4, 4, False)
    rows = query(
        tmp_path / "arena.db",
        "SELECT schedule_key, seed, status FROM game ORDER BY schedule_key, id",
    )
    assert len(rows) == 8
    for voided, rerun in zip(rows[::2], rows[1::2]):
        assert voided[0] == rerun[0] and voided[1] == rerun[1]
        assert (voided[2], rerun[2]) == ("voided", "finished")
    assert query(tmp_path / "arena.db", "SELECT state FROM tournament") == [("finished",)]
    events = observer.events
    assert events[0] == ("started", "t", 4, 0) and events[-1] == ("ended",)
    assert events.count(("game",)) == 8
    assert events.count(("voided", True, False)) == events.count(("finished", True, False)) == 4


class EveryOtherGame(RoundRobin):
    """A pairing of its own (as a ladder's matchmaking would be): the schedule's even games."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[str, int]] = []

    def start(self, schedule, done) -> int:
        super().start(schedule[::2], done)
        return len(schedule[::2])

    def game_recorded(self, scheduled, record) -> None:
        self.told.append((scheduled.key, record.seed))


async def test_the_pairing_chooses_the_games_and_hears_of_each_recorded(
    tmp_path: Path, monkeypatch
):
    async def play_match(game, specs, seed, **_) -> MatchRecord:
        return match_record([1, 2], seed=seed)

    monkeypatch.setattr(playing, "play_match", play_match)
    database, tournament_id = _tournament(tmp_path)
    pairing = EveryOtherGame()
    observer = RecordingObserver()
    summary = await runner.run_tournament(database, tournament_id, observer, pairing=pairing)
    database.close()

    assert (summary.total, summary.done, summary.complete) == (4, 2, False)
    stored = query(tmp_path / "arena.db", "SELECT schedule_key, seed FROM game ORDER BY id")
    assert sorted(pairing.told) == sorted(stored)
    assert [key for key, _ in sorted(stored)] == [
        "pod 0+1 deal 0 rotation 0",
        "pod 0+1 deal 1 rotation 0",
    ]
    assert observer.events[0] == ("started", "t", 4, 2)
    assert query(tmp_path / "arena.db", "SELECT state FROM tournament") == [("stopped",)]


def test_a_slot_takes_the_next_game_whose_deal_its_bots_did_not_play():
    schedule = build_schedule(entrants=2, players=2, deals=3, seed=1)
    pairing, memory = RoundRobin(), runner.DealMemory()
    assert pairing.start(schedule, done={schedule[2].key}) == 5
    order = []
    while (game := pairing.next_game(memory.would_replace)) is not None:
        memory.played(game)
        order.append(game.key)
    # a game of every pending deal first, then (the bots replaced once) the rest
    assert order == [
        "pod 0+1 deal 0 rotation 0",
        "pod 0+1 deal 1 rotation 1",  # deal 1's first rotation was recorded before
        "pod 0+1 deal 2 rotation 0",
        "pod 0+1 deal 0 rotation 1",
        "pod 0+1 deal 2 rotation 1",
    ]


def test_without_a_slot_to_spare_the_schedule_order_stands():
    schedule = build_schedule(entrants=3, players=2, deals=1, seed=1)
    pairing = RoundRobin()
    pairing.start(schedule, done=())
    assert [pairing.next_game().key for _ in schedule] == [game.key for game in schedule]
    assert pairing.next_game() is None


@pytest.mark.parametrize("deals", [2, 1])
async def test_a_deals_second_rotation_waits_while_its_first_is_in_play(
    tmp_path: Path, monkeypatch, deals: int
):
    """Two slots, one pod, two deals: the second slot takes the other deal, not the second
    rotation of the deal in play (which could not be shown live until the first ended). With
    one deal there is no other game to take, and the second slot waits: the two rotations at
    once were two processes of each bot holding one deal from both seats, which told each other
    the opponent's hand through a file lock (outside review)."""
    played: list[tuple[int, float, float]] = []

    async def play_match(game, specs, seed, **_) -> MatchRecord:
        began = trio.current_time()
        await trio.sleep(0.2)
        played.append((seed, began, trio.current_time()))
        return match_record([1, 2], seed=seed)

    monkeypatch.setattr(playing, "play_match", play_match)
    database, tournament_id = _tournament(tmp_path, deals)
    summary = await runner.run_tournament(database, tournament_id, RecordingObserver())
    database.close()

    assert (summary.total, summary.done) == (2 * deals, 2 * deals)
    for seed in {seed for seed, _, _ in played}:
        first, second = sorted((began, ended) for s, began, ended in played if s == seed)
        assert first[1] <= second[0], played  # one after the other
