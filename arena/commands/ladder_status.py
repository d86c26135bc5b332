"""What ``arena ladder`` shows as it runs: on a terminal, one live status line (games in all and
this run, games per hour, games running, bots playing and paused, until when the games per hour
hold every deal back) under the lineup's changes; elsewhere (a log file, a pipe) plain lines,
one per batch of rounds or wait, that a log keeps readably."""

from __future__ import annotations

import time
from collections import deque
from datetime import datetime
from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.status import Status

from arena.storage.ladders import Lineup
from arena.tournament.ladder import LadderObserver

RATE_WINDOW = 3600.0  # seconds: games per hour over the last hour (or the run so far)


class LadderStatus(LadderObserver):
    """The CLI's observer of a running ladder; a context manager (the live line is drawn while
    it is entered). ``clock``: monotonic seconds (a test's own)."""

    def __init__(self, console: Console, clock=time.monotonic) -> None:
        self.console = console
        self.clock = clock
        self.started = clock()
        self.finished = 0  # the ladder's games, all runs, at the last batch's end
        self.played = 0  # recorded by this run
        self.running = 0
        self.forfeits = 0  # games of this run with a forfeit
        self.playing = 0
        self.paused = 0
        self.waiting_until: datetime | None = None  # while the games per hour hold deals back
        self._counted = 0  # games of this run already in ``finished``
        self._ends: deque[float] = deque()  # when this run's recent games were recorded
        self._live: Status | None = None

    def __enter__(self) -> LadderStatus:
        if self.console.is_terminal:
            self._live = self.console.status(self.text())
            self._live.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def per_hour(self) -> float:
        now = self.clock()
        while self._ends and self._ends[0] < now - RATE_WINDOW:
            self._ends.popleft()
        span = min(RATE_WINDOW, now - self.started)
        return len(self._ends) * 3600.0 / span if span > 0 else 0.0

    def text(self, between_rounds: bool = False) -> str:
        """The status; ``between_rounds``: a line written as a round ends (a log file's), where
        the games running now are always none, so they are left out."""
        waiting = (
            ""
            if self.waiting_until is None
            else f"; waiting for the games per hour until {_clock(self.waiting_until)}"
        )
        return (
            f"{self.finished + self.played - self._counted} games, {self.played} this run "
            f"({self.forfeits} forfeited), {self.per_hour():.0f}/hour; "
            + ("" if between_rounds else f"{self.running} running; ")
            + f"{self.playing} bots playing, {self.paused} paused{waiting}"
        )

    # --- LadderObserver -------------------------------------------------------------------
    def lineup(self, lineup: Lineup) -> None:
        labels = [entrant.label for entrant in lineup.entrants]
        self.playing, self.paused = len(lineup.active), len(lineup.paused)
        playing = ", ".join(labels[p] for p in lineup.active) or "none"
        self._line(f"playing: {playing}")
        for position, reason in lineup.paused.items():
            self._line(f"paused: {labels[position]}: {reason}")

    def games_played(self, games: int, finished: int) -> None:
        self.finished, self._counted = finished, self.played
        if self._live is None:
            self._line(f"round done: {games} games; {self.text(between_rounds=True)}")
        self._refresh()

    def waiting(self, until: datetime) -> None:
        self.waiting_until = until
        if self._live is None:
            self._line(f"waiting for the games per hour until {_clock(until)}")
        self._refresh()

    # --- TournamentObserver (each game of the runner's slots) --------------------------------
    def game_started(self) -> None:
        self.running += 1
        self.waiting_until = None
        self._refresh()

    def game_finished(self, *, recorded: bool, forfeit: bool, voided: bool) -> None:
        self.running -= 1
        if recorded and not voided:
            self.played += 1
            self.forfeits += forfeit
            self._ends.append(self.clock())
        self._refresh()

    def game_abandoned(self) -> None:
        self.running -= 1
        self._refresh()

    def _line(self, text: str) -> None:
        self.console.print(escape(text), highlight=False, soft_wrap=True)

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(escape(self.text()))


def _clock(moment: datetime) -> str:
    """A time of today as the operator reads it (local, as ``--until`` takes it)."""
    return moment.astimezone().strftime("%H:%M:%S")
