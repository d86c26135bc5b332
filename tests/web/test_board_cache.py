"""The web's board cache (outside review K): a board is fitted again only when its own games
change, and a board whose fit is slow is shown as last fitted while it is fitted again in the
background, so a ladder recording a game every second does not make every visit wait for a fit
of hundreds of bots."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from arena.web import boards
from arena.web.boards import BoardCache


class _Database:
    """Each board's (newest id, games), as a test sets them."""

    def __init__(self) -> None:
        self.versions: dict[tuple[Any, ...], tuple[int, int]] = {}

    def board_version(self, game: str, players: int, tournament: int | None) -> tuple[int, int]:
        return self.versions.get((game, players, tournament), (0, 0))

    def session(self) -> Any:
        return _Nothing()


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@pytest.fixture
def fits(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Stands in for the fit: each board it builds is a new tuple naming its number; the fit
    takes ``seconds``; ``count`` fits so far."""
    state: dict[str, Any] = {"seconds": 0.0, "count": 0, "done": threading.Event()}

    def build_board(session: Any, game: str, players: int, **_: Any) -> tuple[str, int, int]:
        time.sleep(state["seconds"])
        state["count"] += 1
        state["done"].set()
        return (game, players, state["count"])

    monkeypatch.setattr(boards, "build_board", build_board)
    return state


def test_a_board_is_fitted_again_only_when_its_own_games_change(fits):
    database = _Database()
    cache = BoardCache(database)  # type: ignore[arg-type]
    first = cache.fitted("oregon", 2)
    database.versions[("oregon", 3, None)] = (5, 1)  # a game on another board
    assert cache.fitted("oregon", 2) is first and fits["count"] == 1
    database.versions[("oregon", 2, None)] = (6, 1)  # a game on this one: a quick fit, waited for
    assert cache.fitted("oregon", 2) == ("oregon", 2, 2)


def test_a_slow_board_shows_as_last_fitted_while_it_is_fitted_again(fits):
    database = _Database()
    cache = BoardCache(database)  # type: ignore[arg-type]
    fits["seconds"] = boards.WAIT_FOR_FIT_SECONDS + 0.1
    first = cache.fitted("oregon", 2)
    fits["done"].clear()
    database.versions[("oregon", 2, None)] = (7, 1)
    began = time.monotonic()
    assert cache.fitted("oregon", 2) is first  # at once, not after a fit
    assert cache.fitted("oregon", 2) is first  # one refit for both visits
    assert time.monotonic() - began < boards.WAIT_FOR_FIT_SECONDS
    assert fits["done"].wait(10)
    deadline = time.monotonic() + 10
    while cache.fitted("oregon", 2) is first and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cache.fitted("oregon", 2) == ("oregon", 2, 2) and fits["count"] == 2
