"""Build the bot protocol's requests from engine state: decision requests (the hot path of the
referee) and the end-of-game reveal. Game-independent: the game's view and action types are mapped
by ``arena.wire.codec``."""

from __future__ import annotations

import functools
import operator
import struct
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.bot.v1 import bot_pb2
from arena.protocol import OUTCOME_TO_PROTO
from arena.reasons import authors_reason, public_reason
from arena.records import SeatRecord
from arena.wire.chunks import (
    IdentityWires,
    Memo,
    body_encoder,
    field_key,
    length_delimited,
    memoized,
    variant_body,
)
from arena.wire.codec import encode_action
from arena.wire.compiled import variant_encoder
from arena.wire.scalars import varint
from engine.core import EVERYONE, EventEntry, GameState, OptionValue
from engine.registry import get_game


def options_to_proto(options: Mapping[str, OptionValue]) -> list[bot_pb2.GameOption]:
    messages = []
    for name, value in sorted(options.items()):
        if isinstance(value, bool):
            messages.append(bot_pb2.GameOption(name=name, bool_value=value))
        elif isinstance(value, int):
            messages.append(bot_pb2.GameOption(name=name, int_value=value))
        elif isinstance(value, float):
            messages.append(bot_pb2.GameOption(name=name, float_value=value))
        else:
            messages.append(bot_pb2.GameOption(name=name, string_value=str(value)))
    return messages


_REQUEST = bot_pb2.DecisionRequest.DESCRIPTOR.fields_by_name
_CLOCK = bot_pb2.Clock.DESCRIPTOR.fields_by_name


def _key(field: Any, wire_type: int) -> bytes:
    return varint(field.number << 3 | wire_type)


_GAME_ID, _KIND, _VIEW, _CLOCK_KEY, _LEGAL, _EVENTS = (
    field_key(_REQUEST[name])
    for name in ("game_id", "decision_kind", "view", "clock", "legal_actions", "events")
)
_EVENT = bot_pb2.GameEvent.DESCRIPTOR
_NUMBER, _SEAT = _key(_REQUEST["decision_number"], 0), _key(_REQUEST["seat"], 0)
_MOVE, _BANK = _key(_CLOCK["move_seconds"], 1), _key(_CLOCK["bank_seconds"], 1)
_DOUBLE = struct.Struct("<d").pack

Entry = tuple[Any, bytes]  # an object a memo's key names, and its wire form


def _head(game_id: str, kind: str, seat: int, move_seconds: float, bank_seconds: float) -> bytes:
    """The fields of a request that recur from one decision to the next (a match's id, the kinds
    of decision, its seats, mostly the same clock), written together."""
    clock = (_MOVE + _DOUBLE(move_seconds) if move_seconds else b"") + (
        _BANK + _DOUBLE(bank_seconds) if bank_seconds else b""
    )
    return b"".join(
        (
            length_delimited(_GAME_ID, game_id.encode()) if game_id else b"",
            length_delimited(_KIND, kind.encode()) if kind else b"",
            length_delimited(_CLOCK_KEY, clock),
            _SEAT + varint(seat) if seat else b"",
        )
    )


@functools.cache
def _memos(
    game: str,
) -> tuple[Memo[bytes], IdentityWires, Memo[Entry], Memo[Entry], Memo[bytes]]:
    """The memos of ``game``'s encoders, shared by its matches: actions by value and by
    identity, runs of legal actions by identity and by their actions' identities, heads of
    requests (``_head``)."""
    return Memo(), IdentityWires(), Memo(), Memo(), Memo()


@functools.cache
def _event_writer(game: str, cls: type) -> Callable[[Any], bytes]:
    """The wire form of a ``cls`` event of ``game`` as an element of DecisionRequest.events,
    written by ``arena.wire.chunks``'s generated writers and memoized by its values
    (``arena.wire.chunks.memoized``): events recur (a card drawn, a seat passing)."""
    encode = variant_encoder(get_game(game).event_type)
    game_field = _EVENT.fields_by_name[game]
    game_key, body = field_key(game_field), variant_body(cls, game_field.message_type)

    def exact(event: Any) -> bytes:  # an empty body is ambiguous: made as the compiled encoder
        message = bot_pb2.DecisionRequest()
        encode(event, getattr(message.events.add(), game))
        return message.SerializeToString()

    def wire(event: Any) -> bytes:
        inner = body(event)
        return (
            length_delimited(_EVENTS, length_delimited(game_key, inner)) if inner else exact(event)
        )

    return memoized(cls, wire)


@functools.cache
def _logged_events(game: str) -> tuple[Memo[tuple[Any, ...]], Memo[bytes]]:
    """Wire forms of ``game``'s logged events (``engine.core.EventEntry``): every seat's by the
    identity of the log entry (with the entry), and one by the builder and the fields."""
    return Memo(), Memo()


class DecisionEncoder:
    """Encodes the decision requests of one game, serialized: this is the referee's hot path.

    A request is the concatenation of its fields' wire forms (protobuf parsers accept a message's
    fields in any order): the head (ids, numbers, clock) written directly; the view assembled by
    ``arena.wire.chunks`` from memoized parts; each event's wire form remembered by the identity
    of its log entry's fields (a log entry never changes; each reaches every seat) and then by
    its values; each action's by its identity or value, and runs of legal actions by their own
    identities or their actions', which the engines hand out again (each keeps its action
    objects)."""

    def __init__(self, game: str) -> None:
        self.game = game
        engine = get_game(game)
        game_field = bot_pb2.GameView.DESCRIPTOR.fields_by_name[game]
        self._game_key = field_key(game_field)
        self._view_body = body_encoder(engine.view_type, game_field.message_type, True)
        self._encode_event = variant_encoder(engine.event_type)
        self._actions, self._action_ids, self._run_ids, self._runs, self._heads = _memos(game)
        self._entries, self._logged_values = _logged_events(game)
        self._writers = {
            cls: _event_writer(game, cls)
            for cls in typing.get_args(engine.event_type) or (engine.event_type,)
        }

    def _action(self, action: Any) -> bytes:
        # By identity first (engines keep their action objects: no hashing of a dataclass),
        # then by value.
        wire = self._action_ids.get(id(action))
        if wire is None:
            wire = self._actions.get(action)
            if wire is None:
                body = encode_action(self.game, action).SerializeToString()
                wire = self._actions.put(action, length_delimited(_LEGAL, body))
            self._action_ids.put(action, wire)
        return wire

    def _legal(self, legal: Sequence[Any]) -> bytes:
        # A lazy sequence of the engine's (Oregon's plays) is made of parts that recur.
        parts = getattr(legal, "parts", None)
        if parts is None:
            return self._actions_run(legal)
        return b"".join(map(self._actions_run, parts))

    def _actions_run(self, actions: Sequence[Any]) -> bytes:
        """A run of legal actions, found by its identity (engines hand out their tuples again),
        else by its actions' identities (engines keep their action objects); an entry holds its
        actions, so no id in its key is reused while it lives."""
        entry = self._run_ids.get(id(actions))
        if entry is None:
            key = tuple(map(id, actions))
            entry = self._runs.get(key)
            if entry is None:
                kept = tuple(actions)
                try:  # actions met before, found by a C-level map
                    wire = b"".join(map(self._action_ids.__getitem__, key))
                except KeyError:
                    wire = b"".join(map(self._action, kept))
                entry = self._runs.put(key, (kept, wire))
            entry = self._run_ids.put(id(actions), (actions, entry[1]))
        return entry[1]

    def _seen_events(self, log: Sequence[EventEntry], seat: int, players: int) -> bytes:
        """The events of ``log`` (a slice of a state's event log) as ``seat`` sees them: each
        entry's wire forms for every seat, found by the entry's identity (an entry never
        changes and reaches every seat; the memo holds it, so its id is not reused). Looked up
        and picked by C-level maps: a request carries several events."""
        known: list[Any] = list(map(self._entries.get, map(id, log)))
        if not all(known):  # an entry not met before
            known = [k or self._entry_wires(entry, players) for k, entry in zip(known, log)]
        return b"".join(map(operator.itemgetter(seat), known))

    def _entry_wires(self, entry: EventEntry, players: int) -> tuple[Any, ...]:
        """A log entry's event as each seat sees it (``engine.core.EventEntry``: in full by its
        audience, every seat for a public event; redacted or not at all by the others), by seat,
        then the entry (held, so that its id, the memo's key, is not reused)."""
        audience, make, fields, redacted = entry
        full = self._event(make, fields)
        if audience == EVERYONE:
            wires = (full,) * players
        else:
            hidden = b"" if redacted is None else self._event(make, redacted)
            wires = tuple([full if seat == audience else hidden for seat in range(players)])
        return self._entries.put(id(entry), (*wires, entry))

    def _event(self, make: Callable[..., Any], fields: tuple[Any, ...]) -> bytes:
        """The wire form of the event ``make(*fields)``, by the builder and the fields' values
        (events recur: a card drawn, a seat passing), else by the event's values."""
        try:
            wire = self._logged_values.get((make, fields))
        except TypeError:  # a field that is a list
            return self._built_event(make, fields)
        if wire is None:
            wire = self._logged_values.put((make, fields), self._built_event(make, fields))
        return wire

    def _built_event(self, make: Callable[..., Any], fields: tuple[Any, ...]) -> bytes:
        event = make(*fields)
        return self._writers[type(event)](event)

    def _view(self, state: GameState, seat: int) -> bytes:
        """A serialized ``GameView`` of ``seat``."""
        body = self._view_body(state.view_fields(seat))
        return self._game_key + varint(len(body)) + body

    def request(
        self,
        game_id: str,
        number: int,
        state: GameState,
        seat: int,
        legal: Sequence[Any],
        move_seconds: float,
        bank_seconds: float,
        since: int | None = None,
    ) -> bytes:
        """A serialized ``DecisionRequest`` to ``seat``, carrying the events of
        ``state.event_log[since:]`` as the seat may see them (those since its previous request;
        none if ``since`` is None)."""
        key = (game_id, state.decision_kind, seat, move_seconds, bank_seconds)
        head = self._heads.get(key)
        if head is None:
            head = self._heads.put(key, _head(*key))
        view = self._view(state, seat)
        return b"".join(
            (
                head,
                _NUMBER + varint(number) if number else b"",
                _VIEW + varint(len(view)) + view,
                b""
                if since is None
                else self._seen_events(state.event_log[since:], seat, state.num_players),
                self._legal(legal),
            )
        )

    def end_requests(
        self, state: GameState, records: Sequence[SeatRecord]
    ) -> Callable[[str, int, int], bot_pb2.EndGameRequest]:
        """A maker of the ``EndGameRequest`` to each seat: ``make(game_id, seat, since)`` holds
        the events of ``state.event_log[since:]`` as ``seat`` may see them (those since its last
        decision). The results and every seat's final view, the same for all, are encoded once.
        A forfeit's reason is its bot's author's to read: the other seats get the arena's words
        only (``public_reason``), not the bot's own output and the host's path of its log."""
        common = bot_pb2.EndGameRequest(
            results=[
                bot_pb2.SeatResult(
                    seat=r.seat,
                    player_name=r.player,
                    score=r.score,
                    rank=r.rank,
                    outcome=OUTCOME_TO_PROTO[r.outcome],
                    reason=public_reason(r.reason),
                )
                for r in records
            ],
            # by the fast encoder (a tenth of the compiled one's time, on the trio thread)
            final_views=[
                bot_pb2.GameView.FromString(self._view(state, seat))
                for seat in range(state.num_players)
            ],
        )

        def make(game_id: str, seat: int, since: int) -> bot_pb2.EndGameRequest:
            request = bot_pb2.EndGameRequest()
            request.CopyFrom(common)
            request.game_id, request.seat = game_id, seat
            for result, record in zip(request.results, records, strict=True):
                if record.seat == seat and record.reason:
                    result.reason = authors_reason(record.reason)
            for event in state.events_for(seat, since):
                self._encode_event(event, getattr(request.events.add(), self.game))
            return request

        return make
