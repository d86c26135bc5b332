"""The progress bar of a running tournament (games done, running, failed, and an ETA): the CLI's
observer of ``arena.tournament.runner``."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class ProgressBar:
    """``done`` counts recorded games; ``failed`` counts games with a forfeit plus voided
    attempts (voided games are re-run with the same seed)."""

    def __init__(self, console: Console | None = None) -> None:
        self.running = 0
        self.forfeits = 0
        self.voided = 0
        self._bar = Progress(
            # a tournament's name as it is: read as markup, "x[/y]" was a traceback
            TextColumn("{task.description}", style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("running {task.fields[running]}  failed {task.fields[failed]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self._task: TaskID | None = None

    def tournament_started(self, name: str, total: int, done: int) -> None:
        self._task = self._bar.add_task(name, total=total, completed=done, running=0, failed="0")
        self._bar.start()

    def tournament_ended(self) -> None:
        self._bar.stop()

    def game_started(self) -> None:
        self.running += 1
        self._refresh()

    def game_finished(self, *, recorded: bool, forfeit: bool, voided: bool) -> None:
        self.running -= 1
        self.forfeits += forfeit and recorded and not voided
        self.voided += voided
        self._refresh(advance=0 if voided else 1)

    def game_abandoned(self) -> None:
        self.running -= 1
        self._refresh()

    def _refresh(self, advance: int = 0) -> None:
        assert self._task is not None, "tournament_started comes first"
        failed = f"{self.forfeits + self.voided}"
        if self.voided:
            failed += f" ({self.voided} voided, re-run)"
        self._bar.update(self._task, advance=advance, running=self.running, failed=failed)
