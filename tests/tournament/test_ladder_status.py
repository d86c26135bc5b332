"""What ``arena ladder`` shows as it runs (``arena.commands.ladder_status``): plain lines in a
log, one live status line on a terminal; games per hour from the games of the last hour."""

from __future__ import annotations

import io
from datetime import UTC, datetime

from rich.console import Console

from arena.commands.ladder_status import LadderStatus
from tests.tournament.test_ladder_matchmaking import _lineup


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _play(status: LadderStatus, clock: Clock, games: int, seconds: float) -> None:
    for number in range(games):
        status.game_started()
        clock.now += seconds
        status.game_finished(recorded=True, forfeit=number == 0, voided=False)


def test_a_log_gets_plain_lines_with_the_rate_running_and_paused_bots():
    out, clock = io.StringIO(), Clock()
    lineup = _lineup(4)
    lineup.paused[3] = "5 forfeits in a row"
    lineup.active.remove(3)
    with LadderStatus(Console(file=out, force_terminal=False, width=200), clock) as status:
        status.lineup(lineup)
        _play(status, clock, 6, 60.0)  # a game a minute
        status.game_started()  # one still running
        status.games_played(6, 16)  # the ladder had 10 before this run
    lines = out.getvalue().splitlines()
    assert lines == [
        "playing: b0@1#h, b1@1#h, b2@1#h",
        "paused: b3@1#h: 5 forfeits in a row",
        # no count of games running: as a round ends it was always 0 (outside review)
        "round done: 6 games; 16 games, 6 this run (1 forfeited), 60/hour; 3 bots playing, "
        "1 paused",
    ]


def test_the_rate_counts_the_last_hour_only():
    clock = Clock()
    status = LadderStatus(Console(file=io.StringIO()), clock)
    _play(status, clock, 10, 6.0)  # 10 games in the first minute
    clock.now += 2 * 3600
    assert status.per_hour() == 0.0
    _play(status, clock, 3, 1200.0)  # then one every 20 minutes
    assert status.per_hour() == 3.0


def test_a_terminal_gets_one_live_line_instead_of_a_line_per_round():
    out, clock = io.StringIO(), Clock()
    console = Console(file=out, force_terminal=True, width=200)
    with LadderStatus(console, clock) as status:
        status.lineup(_lineup(2))
        _play(status, clock, 2, 30.0)
        status.games_played(2, 2)
        assert status.text().startswith("2 games, 2 this run (1 forfeited), 120/hour; 0 running")
    shown = out.getvalue()
    assert "playing: b0@1#h, b1@1#h" in shown
    assert "round done:" not in shown  # no line per batch: the status line says it
    assert "120/hour" in shown  # drawn by the live line


def test_a_wait_for_the_games_per_hour_says_until_when_and_ends_with_the_next_game():
    out, clock = io.StringIO(), Clock()
    until = datetime(2026, 12, 3, 22, 41, 7, tzinfo=UTC)
    shown = until.astimezone().strftime("%H:%M:%S")
    with LadderStatus(Console(file=out, force_terminal=False, width=200), clock) as status:
        status.waiting(until)
        assert status.text().endswith(f"; waiting for the games per hour until {shown}")
        _play(status, clock, 1, 1.0)
        assert "waiting" not in status.text()
    assert out.getvalue().splitlines() == [f"waiting for the games per hour until {shown}"]
