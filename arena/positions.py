"""Constructed positions: for every decision kind of every game, a real engine state where that
kind is the next decision, so ``arena validate`` can put a bot before it and ``arena fixtures``
can record the request it brings.

A position is a game's setup (players, seed, options) and the indices of the legal actions
played from it: an exact, replayable engine state, never a hand-built one. They were found by
``search``, which plays seeded random games (trying more players, then each yes/no option
flipped, when the defaults do not reach the kind) and keeps the shortest prefix that ends where
the kind is next. The found positions are recorded in ``positions.json``, beside this module:
``python -m arena.positions`` searches again and rewrites it (after a change of an engine's
rules; the tests say when a recorded position no longer ends at its kind)."""

from __future__ import annotations

import functools
import importlib
import json
import random
import sys
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.core import GameState, OptionValue
from engine.registry import game_names, get_game

RECORDED = Path(__file__).with_name("positions.json")
SEEDS_PER_SETUP = 50  # seeds tried per player count and options before trying the next
SHORTEST_OF = 20  # games searched after the first find, for a shorter prefix


@dataclass(frozen=True)
class Position:
    game: str
    kind: str  # the decision kind that is next
    num_players: int
    seed: int
    actions: tuple[int, ...]  # the indices of the legal actions played, from the start
    options: Mapping[str, OptionValue] = field(default_factory=dict)  # those not at default

    def state(self) -> GameState:
        """The position, replayed by the engine."""
        return get_game(self.game).replay(
            self.num_players, self.seed, self.actions, dict(self.options)
        )

    @property
    def seat(self) -> int:
        """The seat that decides ``kind``."""
        seat = self.state().current_seat
        assert seat is not None, "a position is never a finished game"
        return seat

    def to_json(self) -> dict:
        return {**asdict(self), "actions": list(self.actions), "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Mapping) -> Position:
        return cls(**{**data, "actions": tuple(data["actions"]), "options": data["options"]})


def decision_kinds(game: str) -> list[str]:
    """Every decision kind of ``game``: its engine's ``DecisionKind`` (engine/README.md)."""
    package = type(get_game(game)).__module__.rpartition(".")[0]
    return [kind.name for kind in importlib.import_module(package).DecisionKind]


@functools.cache
def _recorded() -> dict[tuple[str, str], Position]:
    entries = json.loads(RECORDED.read_text(encoding="utf-8"))
    return {(p.game, p.kind): p for p in map(Position.from_json, entries)}


def position(game: str, kind: str) -> Position:
    """The recorded position of ``game`` where ``kind`` is next (KeyError if none is)."""
    return _recorded()[(game, kind)]


def positions(game: str) -> list[Position]:
    """The recorded positions of ``game``, one per decision kind, in the kinds' order (none for a
    game added since the last search: ``python -m arena.positions`` records its own)."""
    recorded = _recorded()
    return [recorded[game, kind] for kind in decision_kinds(game) if (game, kind) in recorded]


def _setups(game: str) -> Iterator[tuple[int, dict[str, OptionValue]]]:
    """Player counts (fewest first) with the default options, then with each yes/no option
    flipped: a kind that exists only under an option (Merkator's PERMIT_JOIN) is found."""
    engine = get_game(game)
    counts = range(max(2, engine.min_players), engine.max_players + 1)
    variants: list[dict[str, OptionValue]] = [{}]
    variants += [
        {name: not value}
        for name, value in engine.default_options.items()
        if isinstance(value, bool)
    ]
    for options in variants:
        for players in counts:
            yield players, options


def _first_reach(game: str, kind: str, players: int, seed: int, options: dict) -> list[int] | None:
    """The actions of a random game (seeded by ``seed``) up to its first ``kind``, if any."""
    state = get_game(game).new_game(players, seed, options)
    rng = random.Random(seed)
    while not state.is_over:
        if state.decision_kind == kind:
            return list(state.history)
        state.apply_index(rng.randrange(len(state.legal_actions())))
    return None


def search(game: str, kind: str) -> Position:
    """A position of ``game`` where ``kind`` is next: the shortest prefix among a few seeded
    random games that reach it, in the first setup that does. Raises LookupError if none does."""
    for players, options in _setups(game):
        found: list[tuple[int, int, list[int]]] = []
        for seed in range(SEEDS_PER_SETUP + SHORTEST_OF):
            if seed == SEEDS_PER_SETUP and not found:
                break
            if found and seed > found[0][1] + SHORTEST_OF:
                break
            actions = _first_reach(game, kind, players, seed, options)
            if actions is not None:
                found.append((len(actions), seed, actions))
        if found:
            _, seed, actions = min(found)
            return Position(game, kind, players, seed, tuple(actions), options)
    raise LookupError(f"{game}: no seeded random game reaches {kind}")


def search_all() -> list[Position]:
    return [search(game, kind) for game in game_names() for kind in decision_kinds(game)]


def main() -> None:
    """Search every position again and record them (``python -m arena.positions``)."""
    found = search_all()
    RECORDED.write_text(
        "[\n" + ",\n".join(json.dumps(p.to_json()) for p in found) + "\n]\n", encoding="utf-8"
    )
    for p in found:
        print(f"{p.game} {p.kind}: {p.num_players} players, seed {p.seed}, {len(p.actions)} moves")
    print(f"wrote {RECORDED}", file=sys.stderr)


if __name__ == "__main__":
    main()
