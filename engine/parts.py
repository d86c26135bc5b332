"""View parts cached by the state content they are built from.

A view is rebuilt at every decision the referee encodes, though most of it did not change since
the previous one. A ``PartCache`` builds a part from a small key of state content (a few ints,
a tuple) with a function of that key alone, so a cached part is always the one the key
describes; and unchanged parts come back as the same objects, which the referee's encoder
(``arena.wire.chunks``) then finds already serialized.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class PartCache(dict[K, V]):
    """``build(key)``, memoized; emptied when it holds ``limit`` parts, so memory stays bounded.

    A dict whose look-up is its call: a part found costs one C-level look-up, no Python frame
    (a view makes a dozen of them); ``__missing__`` builds the others."""

    __slots__ = ("_build", "_limit")

    def __init__(self, build: Callable[[K], V], limit: int = 5_000) -> None:
        super().__init__()
        self._build, self._limit = build, limit

    __call__ = dict.__getitem__

    def __missing__(self, key: K) -> V:
        if len(self) >= self._limit:
            self.clear()
        part = self[key] = self._build(key)
        return part


def interned(cls: Callable[..., V], limit: int = 5_000) -> PartCache[tuple, V]:
    """``cls(*fields)`` by its ``fields`` (a tuple, in field order): equal small parts (a card on
    a cell, a count of a kind) are then the same object, cheaper to look up than to build, and
    found by identity by the referee's encoder when a part made of them changes."""
    return PartCache(lambda fields: cls(*fields), limit)


def field_values(cls: type) -> Callable[..., tuple]:
    """A function taking the fields of dataclass ``cls`` by keyword and returning their values
    in field order: ``cls(*values)`` is the instance. An engine builds a view's fields with it
    (``GameState.view_fields``), named as in the dataclass, and the referee's encoder writes
    them without the view object, whose frozen ``__init__`` (a ``__setattr__`` per field) cost
    a fifth of building a view."""
    names = [field.name for field in dataclasses.fields(cls)]
    source = f"def values(*, {', '.join(names)}):\n    return ({', '.join(names)},)"
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # noqa: S102 - source built from a dataclass's field names
    function: Callable[..., tuple] = namespace["values"]
    function.__qualname__ = f"field_values({cls.__name__})"
    return function
