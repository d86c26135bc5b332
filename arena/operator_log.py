"""The operator's log of a long-running command (``arena tournament``, ``arena sprt``, ``arena
serve``): standard ``logging`` under the "arena" logger, one line per bot started and stopped
(``arena.bots``), game recorded, forfeit with its reason, voided game and its re-run, storage
fault (``arena.tournament.runner``), lost worker process (``arena.tournament.workers``) and lost
Ray actor or node (``arena.tournament.ray_backend``).

``--log-file FILE`` appends the lines to FILE, from ``--log-level`` (default info) up. Without a
file they go to stderr only if ``--log-level`` is given: by default the terminal keeps just the
progress bar and the results. Worker processes log to the same place (``current()``, sent to
them); Ray actors on other nodes do not.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from arena.errors import SetupError

LEVELS = ("debug", "info", "warning", "error")
_FORMAT = "%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s"
_ROOT = "arena"


@dataclass(frozen=True)
class LogConfig:
    file: Path | None = None
    level: str | None = None  # one of LEVELS; None: info into a file, nothing on the terminal


_current = LogConfig()


class _Stderr:
    """sys.stderr as it is at each write: the progress bar redirects it to print above itself."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


@contextmanager
def logging_to(config: LogConfig, *, also: tuple[str, ...] = ()) -> Iterator[None]:
    """Send the "arena" logger's lines (and those of the loggers ``also`` names) where
    ``config`` says for the duration of the block; raises SetupError (one line) if the file
    cannot be opened."""
    global _current
    if config.level is not None and config.level not in LEVELS:
        raise SetupError(f"--log-level must be one of {', '.join(LEVELS)}, not {config.level!r}")
    handler: logging.Handler
    if config.file is not None:
        try:
            handler = logging.FileHandler(config.file, encoding="utf-8")
        except OSError as exc:
            raise SetupError(
                f"--log-file {config.file}: cannot write there: {exc.strerror or exc}"
            ) from None
    elif config.level is not None:
        handler = logging.StreamHandler(_Stderr())
    else:
        handler = logging.NullHandler()  # quiet, and Python's last-resort handler stays silent
    handler.setFormatter(logging.Formatter(_FORMAT))
    loggers = [logging.getLogger(name) for name in (_ROOT, *also)]
    before = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel((config.level or "info").upper())
    previous, _current = _current, config
    try:
        yield
    finally:
        _current = previous
        for logger, level in before:
            logger.removeHandler(handler)
            logger.setLevel(level)
        handler.close()


def current() -> LogConfig:
    """Where this process logs now (a worker process logs to the same place)."""
    return _current
