"""View parts cached by the state content they are built from.

A view is rebuilt at every decision the referee encodes, though most of it did not change since
the previous one. A ``PartCache`` builds a part from a small key of state content (a few ints,
a tuple) with a function of that key alone, so a cached part is always the one the key
describes; and unchanged parts come back as the same objects, which the referee's encoder
(``arena.wire.chunks``) then finds already serialized.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PartCache(Generic[K, V]):
    """``build(key)``, memoized; emptied when it holds ``limit`` parts, so memory stays bounded."""

    __slots__ = ("_build", "_limit", "_parts")

    def __init__(self, build: Callable[[K], V], limit: int = 5_000) -> None:
        self._build, self._limit = build, limit
        self._parts: dict[K, V] = {}

    def __call__(self, key: K) -> V:
        part = self._parts.get(key)
        if part is None:
            if len(self._parts) >= self._limit:
                self._parts.clear()
            part = self._parts[key] = self._build(key)
        return part
