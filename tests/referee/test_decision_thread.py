"""Each game's decisions are played in a thread of their own (``arena.referee.match``): a bot that
hangs holds up only its own game, a cancelled game ends its call in flight and gives nothing
back to the pool, and observers hear of decisions in that thread and of the rest in trio's.
(The autouse fixture checks that no process or thread remains.)"""

import threading

import pytest
import trio

from arena.records import Outcome, TimeControl
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from tests.support.bots import misbehaving_bot, sample_bot

pytestmark = pytest.mark.slow

HANGING = TimeControl(move_seconds=60.0, ready_seconds=30.0)  # the sleeper is never judged here
SEED = 5


async def test_a_hanging_bot_holds_up_only_its_own_game():
    random_bot = sample_bot("random-python")
    finished = []
    with trio.fail_after(60):  # guard only: the other game takes a second or two
        async with trio.open_nursery() as nursery:

            async def hanging_game() -> None:
                bots = [misbehaving_bot("sleeper"), random_bot]
                await play_match("oregon", bots, SEED, time_control=HANGING)

            nursery.start_soon(hanging_game)
            finished.append(await play_match("oregon", [random_bot] * 2, SEED + 1))
            nursery.cancel_scope.cancel()  # the hanging game is still waiting for its bot
    [record] = finished
    assert not record.voided
    assert [seat.outcome for seat in record.seats] == [Outcome.FINISHED] * 2


async def test_a_cancelled_lent_game_ends_its_call_and_gives_no_bot_back():
    async with BotPool("oregon", game_seed=SEED) as pool:
        bots = [misbehaving_bot("sleeper"), sample_bot("random-python")]
        with trio.fail_after(30):  # guard only: cancelling must not wait for the 60 s limit
            with trio.move_on_after(2.0) as scope:
                await play_match("oregon", bots, SEED, time_control=HANGING, lender=pool.lender(0))
        assert scope.cancelled_caught
        assert pool.idle == []  # a bot whose call was cut off is not lent again
        record = await play_match(
            "oregon", [sample_bot("random-python")] * 2, SEED, lender=pool.lender(0)
        )
        assert [seat.outcome for seat in record.seats] == [Outcome.FINISHED] * 2


class _ThreadWatcher(MatchObserver):
    """Which thread each callback runs in."""

    def __init__(self) -> None:
        self.threads: dict[str, set[int]] = {}

    def _heard(self, what: str) -> None:
        self.threads.setdefault(what, set()).add(threading.get_ident())

    def match_started(self, *args: object) -> None:
        self._heard("match_started")

    def decision_made(self, *args: object) -> None:
        self._heard("decision_made")

    def seat_forfeited(self, *args: object) -> None:
        self._heard("seat_forfeited")

    def match_finished(self, *args: object) -> None:
        self._heard("match_finished")


async def test_observers_hear_of_decisions_in_the_decision_thread_and_of_the_rest_in_trios():
    watcher = _ThreadWatcher()
    bots = [misbehaving_bot("out-of-range"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, observer=watcher)

    assert record.seats[0].outcome is Outcome.ILLEGAL  # a forfeit, handed to trio
    trios = {threading.get_ident()}
    assert watcher.threads["match_started"] == trios
    assert watcher.threads["seat_forfeited"] == trios
    assert watcher.threads["match_finished"] == trios
    assert len(watcher.threads["decision_made"]) == 1
    assert watcher.threads["decision_made"] != trios
