"""The referee's decision requests as they were built before ``arena.wire.requests`` assembled
them from memoized pieces: the whole message filled field by field, then serialized. Kept as the
reference the fast encoder must match (tests/wire/test_request_equivalence.py) and be measured
against in the same run (``python -m arena.bench protocol``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.bot.v1 import bot_pb2
from arena.wire.chunks import field_key, length_delimited
from arena.wire.codec import encode_action
from arena.wire.compiled import encoder_for, variant_encoder
from engine.core import GameState
from engine.registry import get_game

_LEGAL_ACTIONS_KEY = field_key(bot_pb2.DecisionRequest.DESCRIPTOR.fields_by_name["legal_actions"])
# Wire forms of actions, per game, shared by all matches; cleared when it grows past the limit.
_ACTION_CACHE_LIMIT = 200_000
_action_caches: dict[str, dict[Any, bytes]] = {}


class MessageDecisionEncoder:
    """Encodes a game's decision requests by filling a ``DecisionRequest`` message (each action's
    wire form cached by value, as before)."""

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
            wire = self._actions[action] = length_delimited(_LEGAL_ACTIONS_KEY, body)
        return wire

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
        """A serialized ``DecisionRequest`` (the same arguments as
        ``arena.wire.requests.DecisionEncoder.request``)."""
        head = bot_pb2.DecisionRequest(
            game_id=game_id,
            decision_number=number,
            decision_kind=state.decision_kind,
            clock=bot_pb2.Clock(move_seconds=move_seconds, bank_seconds=bank_seconds),
            seat=seat,
        )
        self._encode_view(state.view(seat), getattr(head.view, self.game))
        encode, game = self._encode_event, self.game
        for event in () if since is None else state.events_for(seat, since):
            encode(event, getattr(head.events.add(), game))
        return head.SerializeToString() + b"".join(map(self._action, legal))
