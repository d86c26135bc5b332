"""The referee with bots lent by a pool (``arena.referee.pool``) that keeps them up across games:
each seat borrows its own process, a lent bot that fails to start or shakes hands wrongly forfeits
like a fresh one, and a bot is kept for the next game only after a game that was not voided, which
it finished and whose end it acknowledged. Real processes; ``pool.started`` counts the processes
the pool started. (The autouse fixture checks that no process or thread remains.)"""

from __future__ import annotations

import pytest
import trio

from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee import pool as pool_module
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from engine.registry import get_game
from tests.support.bots import misbehaving_bot, sample_bot

pytestmark = pytest.mark.slow

# Random bots answer in milliseconds: a generous limit keeps a loaded machine from turning a
# well-behaved seat into a TIMEOUT.
GENEROUS = TimeControl(move_seconds=20.0, ready_seconds=30.0)
# Long enough for the well-behaved bots to start even on a busy machine, short for one that never
# listens.
SHORT_READY = TimeControl(move_seconds=20.0, ready_seconds=5.0)
SEED = 5


def _played_to_the_end(record: MatchRecord) -> None:
    assert not record.voided, record.void_reason
    final = get_game(record.game).replay(record.num_players, record.seed, record.actions)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores


async def test_each_seat_borrows_its_own_bot_and_gives_it_back_for_the_next_game():
    spec = sample_bot("random-python")
    async with BotPool("oregon", game_seed=SEED) as pool:
        lender = pool.lender(0)
        first = await play_match("oregon", [spec, spec], SEED, time_control=GENEROUS, lender=lender)
        second = await play_match("oregon", [spec, spec], 6, time_control=GENEROUS, lender=lender)
        assert pool.started == 2, "one process per seat, both kept for the second game"
        assert len(pool.idle) == 2
    for record in (first, second):
        _played_to_the_end(record)
        assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2


async def test_lent_bots_that_never_become_ready_or_shake_hands_wrongly_forfeit():
    bots = [
        misbehaving_bot("never-ready"),
        misbehaving_bot("protocol-2"),
        sample_bot("random-python"),
    ]
    async with BotPool("oregon", game_seed=SEED) as pool:
        record = await play_match(
            "oregon", bots, SEED, time_control=SHORT_READY, lender=pool.lender(0)
        )
        assert [leased.bot.spec.name for leased in pool.idle] == ["random-python"]

    _played_to_the_end(record)
    never_ready, other_protocol, finisher = record.seats
    assert never_ready.outcome is Outcome.CRASH
    assert never_ready.reason.startswith("never became ready: ")
    assert "never listened on ARENA_BOT_ADDRESS (unix:" in never_ready.reason
    assert "within 5 s" in never_ready.reason
    assert other_protocol.outcome is Outcome.ILLEGAL
    assert other_protocol.reason == "handshake: speaks protocol version 2, the arena speaks 1"
    assert finisher.outcome is Outcome.FINISHED
    assert [s.rank for s in record.seats] == [2, 2, 1]
    assert [s.decisions for s in record.seats[:2]] == [0, 0]


async def test_a_bot_that_forfeited_is_not_lent_again():
    culprit, other = misbehaving_bot("index-len"), sample_bot("random-python")
    async with BotPool("oregon", game_seed=SEED) as pool:
        lender = pool.lender(0)
        record = await play_match(
            "oregon", [culprit, other], SEED, time_control=GENEROUS, lender=lender
        )
        assert [leased.bot.spec.name for leased in pool.idle] == ["random-python"]
        await play_match("oregon", [culprit, other], 6, time_control=GENEROUS, lender=lender)
        assert pool.started == 3, "the culprit was started again, the other bot kept"
    assert record.seats[0].outcome is Outcome.ILLEGAL


async def test_a_bot_that_did_not_acknowledge_the_end_is_not_lent_again():
    hangs_at_end, other = misbehaving_bot("end-game-sleep"), sample_bot("random-python")
    async with BotPool("oregon", game_seed=SEED) as pool:
        with trio.fail_after(60):  # guard only: EndGame's own deadline ends the call
            record = await play_match(
                "oregon", [hangs_at_end, other], SEED, time_control=GENEROUS, lender=pool.lender(0)
            )
        assert [leased.bot.spec.name for leased in pool.idle] == ["random-python"]
    _played_to_the_end(record)
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2


class _FaultyObserver(MatchObserver):
    def decision_made(self, decision, state):
        if decision.number == 2:
            raise RuntimeError("observer broke")


async def test_the_bots_of_a_voided_game_are_not_lent_again():
    spec = sample_bot("random-python")
    async with BotPool("oregon", game_seed=SEED) as pool:
        record = await play_match(
            "oregon",
            [spec, spec],
            SEED,
            time_control=GENEROUS,
            lender=pool.lender(0),
            observer=_FaultyObserver(),
        )
        assert pool.idle == [], "a voided game keeps none of its bots"
    assert record.voided
    assert record.void_reason == "arena fault: RuntimeError: observer broke"
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2


async def test_no_bot_plays_two_rotations_of_one_deal_in_one_process():
    """Every rotation of a deal deals the same cards: a process that played one would know, in
    the next, what the other seats hold. So it is replaced; on another deal it is kept."""
    spec = sample_bot("random-python")
    async with BotPool("oregon", game_seed=SEED) as pool:
        lender = pool.lender(0)
        await play_match("oregon", [spec, spec], SEED, time_control=GENEROUS, lender=lender)
        first = {leased.bot.process.pid for leased in pool.idle}
        await play_match("oregon", [spec, spec], SEED, time_control=GENEROUS, lender=lender)
        second = {leased.bot.process.pid for leased in pool.idle}
        assert pool.started == 4 and not first & second, "both seats' bots replaced"
        await play_match("oregon", [spec, spec], 6, time_control=GENEROUS, lender=lender)
        assert pool.started == 4, "a new deal: both kept"
        await play_match("oregon", [spec, spec], SEED, time_control=GENEROUS, lender=lender)
        assert pool.started == 6, "back to the first deal: these processes played it too"


async def test_a_process_that_played_max_deals_is_replaced(monkeypatch):
    """What a process played is remembered exactly, so it is bounded: a ladder runs for days."""
    monkeypatch.setattr(pool_module, "MAX_DEALS", 2)
    spec = sample_bot("random-python")
    async with BotPool("oregon", game_seed=SEED) as pool:
        lender = pool.lender(0)
        for seed in (1, 2):
            await play_match("oregon", [spec, spec], seed, time_control=GENEROUS, lender=lender)
        assert pool.started == 2 and all(len(leased.deals) == 2 for leased in pool.idle)
        await play_match("oregon", [spec, spec], 3, time_control=GENEROUS, lender=lender)
        assert pool.started == 4, "both replaced after two deals"
        assert [len(leased.deals) for leased in pool.idle] == [1, 1]
