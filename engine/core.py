"""The contract every game engine follows; engine/README.md describes it and the template of a
game package.

A game is a sequence of decision points. At each one exactly one seat chooses one option from a
finite list of legal actions, enumerated by the engine in a stable order. Chance is resolved by
the engine's own RNG, seeded once per game; steps without a real choice (and decisions with a
single option) are applied by the engine itself, so every entry of the action log is a real choice.

Typing conventions shared by all games (the wire layer, ``arena.wire``, relies on them):

* Views and actions are frozen dataclasses whose fields are ``int``, ``float``, ``bool``, ``str``,
  ``enum.IntEnum`` (values start at 1; 0 is the proto's ``*_UNSPECIFIED``), nested frozen
  dataclasses, ``tuple[X, ...]`` of those, or ``X | None``. No dicts, no tuples of tuples (wrap an
  inner sequence in its own dataclass, e.g. a ``Row``). Field names equal the .proto field names.
* ``repr(view)`` is canonical: two views are equal iff their reprs are equal; the leak tests
  compare views this way ("byte-identical").
* Events follow the same conventions: each game's event dataclasses form its ``event_type``
  union; an event holding an action has a field typed with the game's action union.
"""

from __future__ import annotations

import abc
import dataclasses
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Self

OptionValue = bool | int | float | str

# The audience of an event that every seat sees; any other audience is the one seat that sees
# the event in full.
EVERYONE = -1
# One entry of a state's event log: (audience, make, fields, redacted). ``make(*fields)`` builds
# the typed event for its audience; every other seat gets ``make(*redacted)``, or nothing when
# ``redacted`` is None. Entries are raw so that logging costs a tuple, not a dataclass: events are
# built only when a seat asks for them. An entry never changes once logged (nor do its fields).
EventEntry = tuple[int, Callable[..., Any], tuple[Any, ...], tuple[Any, ...] | None]


class EngineError(Exception):
    """Base class of every error an engine raises on bad input."""


class IllegalActionError(EngineError):
    """An action that is not among the current legal actions; the state is left unchanged."""


class GameOverError(EngineError):
    """A decision was asked of, or applied to, a finished game."""


class OptionError(EngineError):
    """Unknown game option, or a value of the wrong type."""


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    """Final outcome of a game. ``ranks[s]`` is 1 for the winner; tied seats share a rank."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    # Human-readable per-seat details of the score (e.g. "42 points + 7 coal/gold").
    details: tuple[str, ...] = ()


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng``."""
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


def ranks_from_keys(keys: Sequence[tuple]) -> tuple[int, ...]:
    """Competition ranks (1, 2, 2, 4) from per-seat sort keys where larger is better."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


class GameState(abc.ABC):
    """One game in progress. Mutable; ``clone()`` gives an independent copy."""

    game: ClassVar[Game]
    num_players: int
    seed: int
    options: Mapping[str, OptionValue]
    # Indices chosen at every real decision, in order: with (rules version, options, seed) a replay.
    history: list[int]
    # What happened, in order, including the engine's automatic steps and chance (cards drawn,
    # reshuffles): the record from which ``events_for`` gives each seat its events. A state built
    # by sampling starts with an empty log.
    event_log: list[EventEntry]

    # --- whose decision, and what may be chosen -----------------------------------------------
    @property
    @abc.abstractmethod
    def current_seat(self) -> int | None:
        """The seat that must decide now; None once the game is over."""

    @property
    @abc.abstractmethod
    def decision_kind(self) -> str:
        """Name of the current decision kind, e.g. "PLAY"; "" once the game is over."""

    @abc.abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """The legal actions (frozen dataclasses) in the engine's stable order. Never empty
        while the game is running."""

    @abc.abstractmethod
    def apply_index(self, index: int) -> None:
        """Apply legal action number ``index``, then every automatic step up to the next real
        decision. Raises IllegalActionError (state unchanged) for an index out of range and
        GameOverError once the game is over. Appends ``index`` to ``history``."""

    def apply(self, action: Any) -> None:
        """Apply ``action``, which must equal one of ``legal_actions()``."""
        if self.is_over:
            raise GameOverError(f"{self.game.name}: the game is over; no action can be applied")
        try:
            index = list(self.legal_actions()).index(action)
        except ValueError:
            raise IllegalActionError(
                f"{self.game.name}: {action!r} is not a legal {self.decision_kind} action"
            ) from None
        self.apply_index(index)

    def events_for(self, seat: int, since: int = 0) -> list[Any]:
        """The typed events (the game's ``event_type``) of ``event_log[since:]`` as ``seat`` may
        see them: public events in full, other seats' private ones redacted or left out. A seat
        that remembers ``len(event_log)`` at each of its decisions gets everything in between."""
        return [make(*fields) for make, fields in self.seen_entries(seat, since)]

    def seen_entries(
        self, seat: int, since: int = 0
    ) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
        """``events_for`` before its events are built: ``(make, fields)`` per event, the fields
        ``seat`` may see (the very tuples of the log, so an encoder may remember an event's
        bytes by their identity)."""
        seen = []
        for audience, make, fields, redacted in self.event_log[since:]:
            if audience == EVERYONE or audience == seat:
                seen.append((make, fields))
            elif redacted is not None:
                seen.append((make, redacted))
        return seen

    def default_action_index(self) -> int:
        """The arena's choice for a seat that has forfeited or failed to answer (the failure
        policy): the first legal action, unless the game's rules name another default."""
        return 0

    # --- the end ------------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    @abc.abstractmethod
    def result(self) -> Result:
        """Scores and ranks with the game's tie-breaks. Raises EngineError before the end."""

    # --- copies, views, sampling ----------------------------------------------------------------
    # What the default ``clone`` copies besides ``history``, ``event_log`` and ``rng``; every
    # other field is shared with the copy, so it must be immutable (ints, enums, tuples, frozen
    # dataclasses) or replaced, never changed in place. Lists of immutables go in
    # ``copied_fields`` (the copy gets ``value.copy()``); lists of mutable parts (lists, sets,
    # objects with a ``copy()`` method) go in ``deep_copied_fields`` (the copy gets
    # ``[part.copy() for part in value]``).
    copied_fields: ClassVar[tuple[str, ...]] = ()
    deep_copied_fields: ClassVar[tuple[str, ...]] = ()
    # Fields left out of the default ``state_digest``: caches and whatever is derived from the
    # other fields (two states that differ only there are the same position).
    derived_fields: ClassVar[frozenset[str]] = frozenset()

    rng: random.Random

    def clone(self) -> Self:
        """A deep, independent copy, RNG state included. The default copies the instance's
        fields as ``copied_fields`` and ``deep_copied_fields`` say (one dict copy and a loop over
        the mutable fields: search bots clone at every node, so this stays lean)."""
        fields = self.__dict__.copy()
        for name in self.copied_fields:
            fields[name] = fields[name].copy()
        for name in self.deep_copied_fields:
            fields[name] = [part.copy() for part in fields[name]]
        fields["history"] = self.history.copy()
        fields["event_log"] = self.event_log.copy()
        fields["rng"] = copy_rng(self.rng)
        other = object.__new__(type(self))
        other.__dict__ = fields
        return other

    @abc.abstractmethod
    def view(self, seat: int) -> Any:
        """Everything ``seat`` may know and nothing more (the rules' section 6), as a frozen
        dataclass of the game's view type. The only road by which state reaches a bot."""

    def view_fields(self, seat: int) -> tuple[Any, ...]:
        """The fields of ``view(seat)`` in field order, without the view object: the referee's
        encoder writes them directly. A game whose views are costly to construct builds this
        tuple (``engine.parts.field_values``) and its ``view`` from it; this default reads
        them off ``view``."""
        view = self.view(seat)
        return tuple([getattr(view, field.name) for field in dataclasses.fields(view)])

    def digest_fields(self) -> dict[str, Any]:
        """The fields ``state_digest`` covers: by default every instance field except ``rng``
        (added separately), ``event_log`` (a record of the past, not part of the position) and
        ``derived_fields``. A game overrides this to put a field whose ``repr`` is not canonical
        (a set, an object without a value ``repr``) in canonical form."""
        derived = self.derived_fields
        return {k: v for k, v in self.__dict__.items() if k not in _UNDIGESTED and k not in derived}

    def state_digest(self) -> bytes:
        """Canonical bytes of the full state (RNG included) for determinism checks."""
        return repr((sorted(self.digest_fields().items()), self.rng.getstate())).encode()

    def digest(self) -> str:
        return hashlib.sha256(self.state_digest()).hexdigest()

    @abc.abstractmethod
    def render(self, seat: int | None = None) -> str:
        """Text rendering for logs and terminals; with ``seat``, only what that seat may see."""

    def describe_action(self, action: Any) -> str:
        """``action``, one of ``legal_actions()``, in words for people ("farmer on (9,7) with
        settler, joker"); two legal actions of one decision never get the same words. Every
        game gives its own words (its ``describe.py``); this default is ``str(action)``."""
        return str(action)

    def describe_decision(self) -> str:
        """The pending decision's kind, with what it is about when that is public
        ("PLACE_CARD (warrior 3)"); "" once the game is over."""
        return self.decision_kind


_UNDIGESTED = frozenset(("rng", "event_log"))


class Game(abc.ABC):
    """Metadata and factory of one game type; one instance per game, held by the registry."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str]
    default_options: ClassVar[Mapping[str, OptionValue]] = {}
    view_type: ClassVar[type]
    action_type: ClassVar[type]
    # The union of the game's event dataclasses (``events_for`` returns them).
    event_type: ClassVar[Any]
    # What ``running_scores`` measures, in words (the web replay's score chart is titled so).
    running_score_label: ClassVar[str] = "score"

    @abc.abstractmethod
    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, OptionValue] | None = None
    ) -> GameState:
        """A new game, advanced to its first real decision. Validate with ``check_setup``."""

    @abc.abstractmethod
    def sample_state(self, view: Any, rng: random.Random) -> GameState:
        """A full state consistent with ``view`` (a seat's view): everything that seat cannot see
        is drawn at random from ``rng``, including the state's own RNG. Its ``view(view.seat)``
        equals ``view``. Used by search bots and by the leak tests."""

    def running_scores(self, view: Any) -> list[float]:
        """Each seat's score so far, from any seat's ``view`` and alike in all of them (public
        information only), for charting a game as it goes; empty for a game with no such
        measure."""
        return []

    # --- helpers shared by all games ----------------------------------------------------------
    def check_setup(
        self, num_players: int, options: Mapping[str, OptionValue] | None
    ) -> dict[str, OptionValue]:
        """Validate the player count and merge ``options`` over the defaults."""
        if not self.min_players <= num_players <= self.max_players:
            raise EngineError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"not {num_players}"
            )
        return resolve_options(self.name, self.default_options, options)

    def replay(
        self,
        num_players: int,
        seed: int,
        actions: Sequence[int],
        options: Mapping[str, OptionValue] | None = None,
        rules_version: str | None = None,
        before_each: Callable[[int, GameState, int], None] | None = None,
    ) -> GameState:
        """Re-run a game from its log and return its last state. ``before_each(step, state,
        index)`` sees the position before each action (one state object, advanced in place: copy
        what must outlive the call). Raises EngineError if the log does not fit this engine."""
        if rules_version is not None and rules_version != self.rules_version:
            raise EngineError(
                f"{self.name}: log was recorded with rules {rules_version}, "
                f"this engine implements {self.rules_version}"
            )
        state = self.new_game(num_players, seed, options)
        for step, index in enumerate(actions):
            try:
                if before_each is not None:  # it may look up the action: check it first
                    _check_index(state, index)
                    before_each(step, state, index)
                state.apply_index(index)
            except EngineError as exc:
                raise EngineError(f"{self.name}: replay failed at action {step}: {exc}") from exc
        return state


def _check_index(state: GameState, index: int) -> None:
    """What ``apply_index`` would refuse, raised before anything looks ``index`` up."""
    if state.is_over:
        raise GameOverError("the log goes on after the game's end")
    legal = len(state.legal_actions())
    if not 0 <= index < legal:
        raise IllegalActionError(f"index {index} of {legal} legal actions")


def resolve_options(
    game_name: str,
    defaults: Mapping[str, OptionValue],
    options: Mapping[str, OptionValue] | None,
) -> dict[str, OptionValue]:
    merged = dict(defaults)
    for key, value in (options or {}).items():
        if key not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise OptionError(f"{game_name}: unknown option {key!r} (known: {known})")
        expected = type(defaults[key])
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not expected:
            raise OptionError(
                f"{game_name}: option {key!r} must be {expected.__name__}, got {value!r}"
            )
        merged[key] = value
    return merged
