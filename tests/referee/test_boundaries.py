"""The referee at its boundaries, with real bot processes: the edges of the index range, replies
for the wrong decision, a handshake in another protocol version, a reply over the size limit,
several forfeits in one game (ranks asserted exactly), and forfeits at the very first and the very
last decision. The bots are the protocol-boundary modes of tests/bots/misbehave.py. (The autouse
fixture checks that no process or thread remains.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.manifest import BotSpec, load_manifest
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.client import RECEIVE_LIMIT_BYTES
from arena.referee.match import MatchObserver, play_match
from engine.registry import get_game
from tests.support.bots import TEST_BOTS, misbehaving_bot, sample_bot
from tests.support.processes import bot_processes

pytestmark = pytest.mark.slow

# Random bots answer in milliseconds: a generous limit keeps a loaded machine from turning a
# well-behaved seat into a TIMEOUT, and costs nothing.
GENEROUS = TimeControl(move_seconds=10.0, ready_seconds=30.0)
SEED = 5


def _misbehaving_at(mode: str, at: int, name: str, directory: Path, **env: str) -> BotSpec:
    """A test bot in ``mode`` misbehaving at its decision ``at`` (0: never), named ``name`` (its
    random seed depends on its name, so one name plays one game), with more environment ``env``;
    its bot.toml goes in ``directory``/``name``."""
    bot = directory / name
    bot.mkdir(exist_ok=True)
    variables = "".join(f'{key} = "{value}"\n' for key, value in env.items())
    (bot / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1.0.0"\n'
        f'command = ["python", "{TEST_BOTS / "misbehave.py"}", "{mode}"]\n'
        f'games = ["oregon"]\n[env]\nMISBEHAVE_AT = "{at}"\n{variables}'
    )
    return load_manifest(bot)


def _replayed_to_the_end(record: MatchRecord) -> None:
    """The record replays to a finished game with its scores; seats are numbered in order, and
    every seat that answered was timed."""
    assert [s.seat for s in record.seats] == list(range(record.num_players))
    assert all(s.time_used > 0 for s in record.seats if s.decisions)
    final = get_game(record.game).replay(record.num_players, record.seed, record.actions)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores


@pytest.mark.parametrize("bot", ["index-len", "index-minus-one", "out-of-range"])
async def test_an_index_just_outside_the_legal_list_is_an_illegal_forfeit(bot):
    bots = [sample_bot("random-python"), misbehaving_bot(bot)]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    assert not record.voided, record.void_reason  # not taken for an arena fault
    culprit = record.seats[1]
    assert culprit.outcome is Outcome.ILLEGAL
    assert "out of range 0.." in culprit.reason and "at decision" in culprit.reason
    assert culprit.decisions == 3, "the third reply is the bad one, and it is counted"
    assert [s.rank for s in record.seats] == [1, 2]
    assert [s.player for s in record.seats] == ["random-python", bot]
    _replayed_to_the_end(record)


async def test_index_len_names_the_index_and_the_range():
    # The range in the reason ends at len(legal) - 1 and the index is exactly len(legal).
    bots = [sample_bot("random-python"), misbehaving_bot("index-len")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    reason = record.seats[1].reason
    index = int(reason.split()[1])
    assert f"out of range 0..{index - 1} " in reason


async def test_index_minus_one_is_not_taken_as_the_last_legal_action():
    bots = [sample_bot("random-python"), misbehaving_bot("index-minus-one")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    assert record.seats[1].outcome is Outcome.ILLEGAL
    assert record.seats[1].reason.startswith("index -1 out of range 0..")


async def test_a_reply_for_the_previous_decision_is_an_illegal_forfeit():
    bots = [misbehaving_bot("stale-number"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[0]
    assert culprit.outcome is Outcome.ILLEGAL
    number = int(culprit.reason.split()[-1])
    assert culprit.reason == f"replied for decision {number - 1} to decision {number}"
    assert [s.rank for s in record.seats] == [2, 1]
    _replayed_to_the_end(record)


async def test_a_reply_over_the_size_limit_is_illegal_and_named_by_its_size():
    bots = [sample_bot("random-python"), misbehaving_bot("huge-reply")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason == f"Decide reply over the {RECEIVE_LIMIT_BYTES} byte limit"
    assert RECEIVE_LIMIT_BYTES == 1 << 20
    assert culprit.decisions == 2, "the third reply never arrived whole"
    assert [s.rank for s in record.seats] == [1, 2]
    _replayed_to_the_end(record)


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        # 2 MiB sent as 2 KiB of gzip: the limit holds for the reply unpacked (outside review E)
        ("zip-bomb", f"Decide reply over the {RECEIVE_LIMIT_BYTES} byte limit"),
        ("huge-metadata", "Decide reply's metadata over the limit"),
    ],
)
async def test_a_reply_past_grpcs_limits_in_other_ways_is_illegal(bot: str, reason: str):
    bots = [sample_bot("random-python"), misbehaving_bot(bot)]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert (culprit.outcome, culprit.reason) == (Outcome.ILLEGAL, reason)
    assert [s.rank for s in record.seats] == [1, 2]


async def test_a_handshake_in_another_protocol_version_is_an_illegal_forfeit():
    bots = [misbehaving_bot("protocol-2"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[0]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason == "handshake: speaks protocol version 2, the arena speaks 1"
    assert culprit.decisions == 0
    assert [s.rank for s in record.seats] == [2, 1]
    _replayed_to_the_end(record)


async def test_two_forfeits_share_the_last_rank_after_the_finishers():
    bots = [
        misbehaving_bot("index-len"),
        sample_bot("random-python"),
        misbehaving_bot("stale-number"),
        sample_bot("random-python"),
    ]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    assert not record.voided, record.void_reason
    assert [s.outcome for s in record.seats] == [
        Outcome.ILLEGAL,
        Outcome.FINISHED,
        Outcome.ILLEGAL,
        Outcome.FINISHED,
    ]
    finishers = sorted(record.seats[i].rank for i in (1, 3))
    assert finishers in ([1, 2], [1, 1])
    # Finishers ranked among themselves by score, whatever the forfeiters scored.
    high, low = sorted((record.seats[i] for i in (1, 3)), key=lambda s: -s.score)
    assert (high.rank, low.rank) == ((1, 1) if high.score == low.score else (1, 2))
    assert record.seats[0].rank == record.seats[2].rank == 3
    _replayed_to_the_end(record)


async def test_three_forfeits_share_rank_two_behind_the_only_finisher():
    bots = [
        misbehaving_bot("exits-midgame"),
        misbehaving_bot("index-minus-one"),
        sample_bot("random-python"),
        misbehaving_bot("protocol-2"),
    ]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    assert not record.voided, record.void_reason
    assert [s.outcome for s in record.seats] == [
        Outcome.CRASH,
        Outcome.ILLEGAL,
        Outcome.FINISHED,
        Outcome.ILLEGAL,
    ]
    assert [s.rank for s in record.seats] == [2, 2, 1, 2]
    _replayed_to_the_end(record)


async def test_a_forfeit_at_the_very_first_decision(tmp_path):
    bots = [_misbehaving_at("index-len", 1, "first", tmp_path), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[0]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason.endswith("at decision 0")
    assert culprit.decisions == 1
    assert [s.rank for s in record.seats] == [2, 1]
    _replayed_to_the_end(record)


async def test_a_forfeit_at_the_very_last_decision(tmp_path):
    # A first game in which nobody misbehaves tells which seat makes the last decision and how
    # many decisions it makes; the same seeded bots then replay that game up to the last one.
    def bots(last_seat: int | None = None, at: int = 0) -> list[BotSpec]:
        return [
            _misbehaving_at("index-len", at if seat == last_seat else 0, f"seat{seat}", tmp_path)
            for seat in range(2)
        ]

    clean = await play_match("oregon", bots(), SEED, time_control=GENEROUS)
    assert [s.outcome for s in clean.seats] == [Outcome.FINISHED] * 2
    state = get_game("oregon").new_game(2, SEED)
    for index in clean.actions[:-1]:
        state.apply_index(index)
    last_seat = state.current_seat
    assert last_seat is not None
    at = clean.seats[last_seat].decisions

    record = await play_match("oregon", bots(last_seat, at), SEED, time_control=GENEROUS)

    culprit = record.seats[last_seat]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason.endswith(f"at decision {len(clean.actions) - 1}")
    assert culprit.decisions == at
    assert record.actions[:-1] == clean.actions[:-1]
    assert record.actions[-1] == state.default_action_index()
    assert culprit.rank == 2 and record.seats[1 - last_seat].rank == 1
    _replayed_to_the_end(record)


async def test_an_exception_in_the_bot_is_a_crash_whose_reason_carries_the_bots_message():
    bots = [sample_bot("random-python"), misbehaving_bot("raise")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason.startswith(
        "Decide failed: UNKNOWN: Exception calling application: misbehave: raising on purpose"
    )
    assert culprit.decisions == 2, "the failed call is not counted as a decision"
    _replayed_to_the_end(record)


async def test_an_exception_without_a_message_leaves_no_dangling_colon(tmp_path):
    # gRPC reports such an exception as "Exception calling application: "; the reason ends there.
    bots = [
        sample_bot("random-python"),
        _misbehaving_at("raise", 3, "silent", tmp_path, MISBEHAVE_MESSAGE=""),
    ]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    reason = record.seats[1].reason
    assert reason.startswith("Decide failed: UNKNOWN: Exception calling application; ")
    assert record.seats[1].outcome is Outcome.CRASH


async def test_the_bots_message_is_kept_to_its_last_letter(tmp_path):
    # Only gRPC's own trailing ": " is trimmed; a message ending in a letter keeps it.
    bots = [
        sample_bot("random-python"),
        _misbehaving_at("raise", 3, "terse", tmp_path, MISBEHAVE_MESSAGE="out of XX"),
    ]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    assert record.seats[1].reason.startswith(
        "Decide failed: UNKNOWN: Exception calling application: out of XX; "
    )


class _ForfeitWatcher(MatchObserver):
    """Notes every forfeit the observer hears of, and whether the culprit still runs then."""

    def __init__(self) -> None:
        self.forfeits: list[tuple[int, Outcome, str, bool]] = []

    def seat_forfeited(self, seat: int, outcome: Outcome, reason: str) -> None:
        running = any("misbehave.py index-len" in process for process in bot_processes())
        self.forfeits.append((seat, outcome, reason, running))


async def test_the_observer_hears_of_a_forfeit_after_the_culprit_was_stopped():
    watcher = _ForfeitWatcher()
    bots = [sample_bot("random-python"), misbehaving_bot("index-len")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS, observer=watcher)

    assert watcher.forfeits == [(1, Outcome.ILLEGAL, record.seats[1].reason, False)]


async def test_a_bot_that_cannot_even_start_is_a_crash_at_the_start(tmp_path):
    # Its directory vanished between registration and the game: starting the process fails.
    spec = _misbehaving_at("index-len", 0, "vanished", tmp_path)
    (spec.directory / "bot.toml").unlink()
    spec.directory.rmdir()
    bots = [spec, sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[0]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason.startswith("never became ready: cannot start ")
    assert culprit.decisions == 0
    assert [s.rank for s in record.seats] == [2, 1]
    _replayed_to_the_end(record)


async def test_a_move_time_beyond_grpcs_longest_deadline_blames_no_bot():
    """A finite but huge --move-time (1e12 s) once overflowed gRPC's deadline: every call failed
    at once and every seat forfeited with TIMEOUT for the arena's own limit."""
    huge = TimeControl(move_seconds=1e12, bank_seconds=1e12, ready_seconds=30.0)
    bots = [sample_bot("random-python"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=huge)

    assert [(s.outcome, s.reason) for s in record.seats] == [(Outcome.FINISHED, "")] * 2
