"""Build the bot protocol's requests from engine state: decision requests (the hot path of the
referee) and the end-of-game reveal. Game-independent: the game's view and action types are mapped
by ``arena.wire.codec``."""

from __future__ import annotations

import functools
import struct
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from arena.bot.v1 import bot_pb2
from arena.protocol import OUTCOME_TO_PROTO
from arena.records import SeatRecord
from arena.wire.chunks import body_encoder, field_key, length_delimited, memoized
from arena.wire.codec import encode_action, encode_view
from arena.wire.compiled import variant_encoder
from arena.wire.scalars import varint
from engine.core import GameState, OptionValue
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


V = TypeVar("V")
_REQUEST = bot_pb2.DecisionRequest.DESCRIPTOR.fields_by_name
_CLOCK = bot_pb2.Clock.DESCRIPTOR.fields_by_name


def _key(field: Any, wire_type: int) -> bytes:
    return varint(field.number << 3 | wire_type)


_GAME_ID, _KIND, _VIEW, _CLOCK_KEY, _LEGAL = (
    field_key(_REQUEST[name])
    for name in ("game_id", "decision_kind", "view", "clock", "legal_actions")
)
_NUMBER, _SEAT = _key(_REQUEST["decision_number"], 0), _key(_REQUEST["seat"], 0)
_MOVE, _BANK = _key(_CLOCK["move_seconds"], 1), _key(_CLOCK["bank_seconds"], 1)
_DOUBLE = struct.Struct("<d").pack

_LIMIT = 5_000  # entries of each memo below, per game; emptied when it grows past it


class _Memo(dict[Any, V]):
    """A dict that empties itself when it grows past ``_LIMIT``, shared by a game's encoders."""

    def put(self, key: Any, value: V) -> V:
        if len(self) >= _LIMIT:
            self.clear()
        self[key] = value
        return value


@functools.cache
def _memos(
    game: str,
) -> tuple[_Memo[bytes], _Memo[tuple[Any, bytes]], _Memo[tuple[Any, bytes]], _Memo[bytes]]:
    """The memos of ``game``'s encoders: actions by value and by identity, runs of legal actions,
    strings of the request's head."""
    return _Memo(), _Memo(), _Memo(), _Memo()


@functools.cache
def _event_writer(game: str, cls: type) -> Callable[[Any], bytes]:
    """The wire form of a ``cls`` event of ``game`` as an element of DecisionRequest.events,
    memoized by its values (``arena.wire.chunks.memoized``): events recur (a card drawn, a
    seat passing)."""
    encode = variant_encoder(get_game(game).event_type)

    def wire(event: Any) -> bytes:
        message = bot_pb2.DecisionRequest()
        encode(event, getattr(message.events.add(), game))
        return message.SerializeToString()

    return memoized(cls, wire)


class DecisionEncoder:
    """Encodes the decision requests of one game, serialized: this is the referee's hot path.

    A request is the concatenation of its fields' wire forms (protobuf parsers accept a message's
    fields in any order): the head (ids, numbers, clock) written directly; the view assembled by
    ``arena.wire.chunks`` from memoized parts; each event's wire form memoized by its values,
    each action's by its identity or value, and runs of legal actions by the identities of their
    actions, which the engines hand out again (each keeps its action objects)."""

    def __init__(self, game: str) -> None:
        self.game = game
        engine = get_game(game)
        game_field = bot_pb2.GameView.DESCRIPTOR.fields_by_name[game]
        self._game_key = field_key(game_field)
        self._view_body = body_encoder(engine.view_type, game_field.message_type)
        self._encode_event = variant_encoder(engine.event_type)
        self._actions, self._action_ids, self._legal_lists, self._strings = _memos(game)
        self._events = {
            cls: _event_writer(game, cls)
            for cls in typing.get_args(engine.event_type) or (engine.event_type,)
        }

    def _string(self, key: bytes, text: str) -> bytes:
        wire = self._strings.get((key, text))
        if wire is None:
            wire = self._strings.put((key, text), length_delimited(key, text.encode()))
        return wire

    def _action(self, action: Any) -> bytes:
        # By identity first (engines keep their action objects: no hashing of a dataclass),
        # then by value; an identity entry holds its action, so its id is not reused.
        entry = self._action_ids.get(id(action))
        if entry is None:
            wire = self._actions.get(action)
            if wire is None:
                body = encode_action(self.game, action).SerializeToString()
                wire = self._actions.put(action, length_delimited(_LEGAL, body))
            entry = self._action_ids.put(id(action), (action, wire))
        return entry[1]

    def _legal(self, legal: Sequence[Any]) -> bytes:
        # A lazy sequence of the engine's (Oregon's plays) is made of parts that recur.
        parts = getattr(legal, "parts", None)
        return (
            self._actions_run(legal) if parts is None else b"".join(map(self._actions_run, parts))
        )

    def _actions_run(self, actions: Sequence[Any]) -> bytes:
        """A run of legal actions, found by their identities (engines keep their action objects);
        the entry holds the actions, so their ids are not reused while it lives."""
        key = tuple(map(id, actions))
        entry = self._legal_lists.get(key)
        if entry is None:
            kept = tuple(actions)
            entry = self._legal_lists.put(key, (kept, b"".join(map(self._action, kept))))
        return entry[1]

    def request(
        self,
        game_id: str,
        number: int,
        state: GameState,
        seat: int,
        legal: Sequence[Any],
        move_seconds: float,
        bank_seconds: float,
        events: Sequence[Any] = (),
    ) -> bytes:
        """A serialized ``DecisionRequest`` to ``seat``, carrying ``events`` (what the seat may
        see of the state's events since its previous request)."""
        clock = (_MOVE + _DOUBLE(move_seconds) if move_seconds else b"") + (
            _BANK + _DOUBLE(bank_seconds) if bank_seconds else b""
        )
        view = self._game_key + _with_length(self._view_body(state.view(seat)))
        kind = state.decision_kind
        return b"".join(
            (
                self._string(_GAME_ID, game_id) if game_id else b"",
                _NUMBER + varint(number) if number else b"",
                self._string(_KIND, kind) if kind else b"",
                _VIEW + _with_length(view),
                _CLOCK_KEY + _with_length(clock),
                _SEAT + varint(seat) if seat else b"",
                *[self._events[type(event)](event) for event in events],
                self._legal(legal),
            )
        )

    def end_request(
        self,
        game_id: str,
        state: GameState,
        records: Sequence[SeatRecord],
        seat: int,
        events: Sequence[Any] = (),
    ) -> bot_pb2.EndGameRequest:
        """The ``EndGameRequest`` to ``seat`` with ``events``, what it may see of the events
        since its last decision."""
        request = bot_pb2.EndGameRequest(
            game_id=game_id,
            seat=seat,
            results=[
                bot_pb2.SeatResult(
                    seat=r.seat,
                    player_name=r.player,
                    score=r.score,
                    rank=r.rank,
                    outcome=OUTCOME_TO_PROTO[r.outcome],
                    reason=r.reason,
                )
                for r in records
            ],
            final_views=[encode_view(self.game, state.view(s)) for s in range(state.num_players)],
        )
        for event in events:
            self._encode_event(event, getattr(request.events.add(), self.game))
        return request


def _with_length(body: bytes) -> bytes:
    return varint(len(body)) + body
