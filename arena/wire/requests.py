"""Build the bot protocol's requests from engine state: decision requests (the hot path of the
referee) and the end-of-game reveal. Game-independent: the game's view and action types are mapped
by ``arena.wire.codec``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.bot.v1 import bot_pb2
from arena.protocol import OUTCOME_TO_PROTO
from arena.records import SeatRecord
from arena.wire.codec import encode_action, encode_view
from arena.wire.compiled import encoder_for, variant_encoder
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


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


# Key of DecisionRequest.legal_actions on the wire: field number, wire type 2 (length-delimited).
_LEGAL_ACTIONS_KEY = _varint(
    bot_pb2.DecisionRequest.DESCRIPTOR.fields_by_name["legal_actions"].number << 3 | 2
)


# Wire forms of actions, per game, shared by all matches; cleared when it grows past the limit.
_ACTION_CACHE_LIMIT = 200_000
_action_caches: dict[str, dict[Any, bytes]] = {}


class DecisionEncoder:
    """Encodes the decision requests of one game, serialized: this is the referee's hot path.

    Actions are frozen dataclasses that recur across decisions and games, so each one's wire form
    (as an element of ``legal_actions``) is cached and a request is the serialized rest of the
    message followed by those elements; protobuf parsers accept a message's fields in any order."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._encode_view = encoder_for(get_game(game).view_type)
        self._encode_event = variant_encoder(get_game(game).event_type)
        self._actions = _action_caches.setdefault(game, {})

    def _action(self, action: Any) -> bytes:
        wire = self._actions.get(action)
        if wire is None:
            if len(self._actions) >= _ACTION_CACHE_LIMIT:
                self._actions.clear()
            body = encode_action(self.game, action).SerializeToString()
            wire = self._actions[action] = _LEGAL_ACTIONS_KEY + _varint(len(body)) + body
        return wire

    def _add_events(self, target: Any, events: Sequence[Any]) -> None:
        """Append ``events`` (the game's event dataclasses) to a repeated ``GameEvent`` field."""
        encode, game = self._encode_event, self.game
        for event in events:
            encode(event, getattr(target.add(), game))

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
        head = bot_pb2.DecisionRequest(
            game_id=game_id,
            decision_number=number,
            decision_kind=state.decision_kind,
            clock=bot_pb2.Clock(move_seconds=move_seconds, bank_seconds=bank_seconds),
            seat=seat,
        )
        self._encode_view(state.view(seat), getattr(head.view, self.game))
        self._add_events(head.events, events)
        return head.SerializeToString() + b"".join(map(self._action, legal))

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
        self._add_events(request.events, events)
        return request
