"""Bots that stay up across a tournament's games, and the pool that lends them (real processes).

The test bot ``exits-in-second-game`` plays its process's first game well and crashes in its
second: kept up, it crashes in every other game (the crash never reaches the next game, whose
fresh process plays well); started afresh for each game (--fresh-bots) it never crashes. The
tournaments run sandboxed (the default), so the bot is a directory of its own."""

import dataclasses
import itertools
import shutil
from collections.abc import Iterable
from contextlib import ExitStack
from pathlib import Path

import pytest
import trio

from arena.manifest import load_manifest
from arena.records import Outcome
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from arena.tournament.pairing import RoundRobin
from arena.tournament.runner import DealMemory, DealsInPlay, slot_avoid
from arena.tournament.schedule import ScheduledGame, build_schedule
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli

BOTS = Path(__file__).resolve().parents[1] / "bots"
GAMES = 6  # 2 entrants, 3 deals, each deal in both seatings


def _outcomes(db: Path, bot: str) -> list[str]:
    """The bot's outcome in each game, in the order the games were played."""
    return [
        outcome
        for (outcome,) in query(
            db,
            "SELECT s.outcome FROM seat s JOIN game g ON g.id = s.game_id "
            "JOIN bot_version v ON v.id = s.bot_version_id JOIN bot b ON b.id = v.bot_id "
            "WHERE b.name = ? ORDER BY g.id",
            bot,
        )
    ]


@pytest.fixture
def second_game_crasher(tmp_path: Path) -> Path:
    """``exits-in-second-game`` as a directory of its own (a sandbox shows the bot nothing else)."""
    bot = tmp_path / "exits-in-second-game"
    bot.mkdir()
    shutil.copy(BOTS / "misbehave.py", bot)
    manifest = (BOTS / "exits-in-second-game" / "bot.toml").read_text()
    (bot / "bot.toml").write_text(manifest.replace("../misbehave.py", "misbehave.py"))
    return bot


def _tournament(db: Path, crasher: Path, *extra: str) -> None:
    result = run_cli(
        "tournament",
        "--game",
        "oregon",
        "--bots",
        f"{SAMPLE_BOTS / 'random-python'},{crasher}",
        "--deals",
        "3",
        "--concurrency",
        "1",
        "--seed",
        "11",
        "--move-time",
        "10",
        "--name",
        "t",
        "--db",
        str(db),
        *extra,
    )
    assert result.exit_code == 0, result.stdout + result.stderr


def test_a_kept_up_bot_that_crashes_is_replaced_before_its_next_game(
    tmp_path: Path, second_game_crasher: Path
):
    db = tmp_path / "arena.db"
    _tournament(db, second_game_crasher)
    assert query(db, "SELECT count(*) FROM game WHERE status = 'finished'") == [(GAMES,)]
    crash, finished = Outcome.CRASH.value, Outcome.FINISHED.value
    assert _outcomes(db, "exits-in-second-game") == [finished, crash] * (GAMES // 2)
    assert _outcomes(db, "random-python") == [finished] * GAMES
    reasons = query(db, "SELECT reason FROM seat WHERE outcome = 'CRASH'")
    assert all("exiting in my second game" in reason for (reason,) in reasons), reasons


def test_fresh_bots_start_a_process_per_game(tmp_path: Path, second_game_crasher: Path):
    db = tmp_path / "arena.db"
    _tournament(db, second_game_crasher, "--fresh-bots")
    assert _outcomes(db, "exits-in-second-game") == [Outcome.FINISHED.value] * GAMES
    stored = query(db, "SELECT settings FROM tournament")[0][0]
    assert '"fresh_bots": true' in stored


async def test_the_pool_reuses_healthy_bots_and_stops_all_of_them_at_the_end(tmp_path: Path):
    spec = load_manifest(SAMPLE_BOTS / "random-python")
    async with BotPool("oregon", game_seed=5) as pool:
        lender = pool.lender(0)
        records = [
            await play_match("oregon", [spec, spec], seed, lender=lender) for seed in range(4)
        ]
        leased = pool.idle
    assert all(not record.voided for record in records)
    assert all(seat.outcome is Outcome.FINISHED for record in records for seat in record.seats)
    assert pool.started == 2  # one process per seat of the same bot, for all four games
    assert len(leased) == 2
    with trio.fail_after(5):
        for held in leased:
            assert held.bot.process is not None
            assert await held.bot.process.wait() is not None  # stopped and reaped


class _CancelAtFirstDecision(MatchObserver):
    def __init__(self, scope: trio.CancelScope) -> None:
        self.scope = scope
        self.token = trio.lowlevel.current_trio_token()

    def decision_made(self, *args: object) -> None:  # in the decision thread: trio's own work
        trio.from_thread.run_sync(self.scope.cancel, trio_token=self.token)  # goes to trio


async def test_a_cancelled_game_gives_its_bots_back_stopped(tmp_path: Path):
    spec = load_manifest(SAMPLE_BOTS / "random-python")
    async with BotPool("oregon", game_seed=5) as pool:
        with trio.CancelScope() as scope:  # cancelled mid-game: the game is abandoned
            await play_match(
                "oregon",
                [spec, spec],
                1,
                lender=pool.lender(0),
                observer=_CancelAtFirstDecision(scope),
            )
        assert pool.idle == []  # nothing half-played is kept for a next game
        record = await play_match("oregon", [spec, spec], 1, lender=pool.lender(0))
        assert not record.voided
        assert all(seat.outcome is Outcome.FINISHED for seat in record.seats)


@pytest.mark.parametrize("fresh", [False, True])
def test_settings_remember_fresh_bots(fresh):
    from arena.tournament.settings import TournamentSettings

    settings = TournamentSettings(fresh_bots=fresh)
    assert TournamentSettings.from_stored(settings.to_stored()).fresh_bots is fresh
    assert TournamentSettings.from_stored({}).fresh_bots is False


def processes_started(schedule: list[ScheduledGame], asks: Iterable[int]) -> int:
    """The bot processes two game slots start when they ask for games in the order ``asks``
    (slot 0 or 1; a slot asks when its game ends, so any order can happen): a slot starts a
    process for an entrant's first game and for every game whose deal its process played."""
    pairing = RoundRobin()
    pairing.start(schedule, set())
    in_play, memories = DealsInPlay(), [DealMemory(), DealMemory()]
    playing: list[ExitStack] = [ExitStack(), ExitStack()]
    seen: list[set[int]] = [set(), set()]
    started = 0
    for slot in asks:
        playing[slot].close()  # its game ended
        game = pairing.next_game(slot_avoid(in_play, memories[slot]))
        if game is None:
            continue
        replaced = [e for e in game.seats if memories[slot].would_replace(_alone(game, e))]
        started += len(set(game.seats) - seen[slot]) + len(replaced)
        seen[slot].update(game.seats)
        memories[slot].played(game)
        playing[slot] = ExitStack()
        playing[slot].enter_context(in_play.playing(game))
    return started


def _alone(game: ScheduledGame, entrant: int) -> ScheduledGame:
    return dataclasses.replace(game, seats=(entrant,))


def test_two_slots_start_at_most_18_processes_whatever_the_timing():
    """The bound the CLI test below relies on, over every order in which the slots' games can
    end (3 entrants, 3 players, 4 deals: 12 games of 3 seats). Replacing the bots for every
    game would start 36."""
    schedule = build_schedule(3, 3, 4, seed=3)
    counts = {
        processes_started(schedule, (0, 1, *asks))
        for asks in itertools.product((0, 1), repeat=len(schedule))
    }
    assert min(counts) >= 9 and max(counts) == 18, counts


# Processes at most: one slot plays 4 deals' first rotations, then their second (two per bot;
# in schedule order, a new one at every second game: 5 per bot); two slots start 9 to 18 as
# their games' lengths vary (the test above; 12 on an idle machine, 15 seen under load).
@pytest.mark.parametrize("players, concurrency, processes", [(2, 1, 4), (3, 2, 18)])
def test_no_kept_up_process_plays_two_rotations_of_a_deal(
    tmp_path: Path, players: int, concurrency: int, processes: int
):
    """Every rotation of a deal deals the same cards, so a process that remembered one would know
    what the other seats hold in the next. Each process keeps its own log (``--bot-logs``): no log
    holds two games of one deal. The slots take the first rotation of a run of deals first, so
    the bots are replaced about once per rotation, not once per deal."""
    db, logs = tmp_path / "arena.db", tmp_path / "logs"
    bots = ",".join(
        str(renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / f"r{i}", f"r{i}"))
        for i in range(players)
    )
    result = run_cli(
        *("tournament", "--game", "oregon", "--bots", bots, "--players", str(players)),
        *("--deals", "4", "--concurrency", str(concurrency), "--seed", "3", "--move-time", "10"),
        *("--db", str(db), "--bot-logs", str(logs), "--sandbox", "none"),
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    rows = query(db, "SELECT g.seed, l.path FROM game g JOIN seat_log l ON l.game_id = g.id")
    assert len(rows) == 4 * players * players  # every seat of every game kept its part
    deals_per_process: dict[str, list[int]] = {}
    for seed, path in rows:
        deals_per_process.setdefault(path, []).append(seed)
    for path, seeds in deals_per_process.items():
        assert len(seeds) == len(set(seeds)), f"{path} played a deal twice"
    assert len(deals_per_process) <= processes, sorted(deals_per_process)
