"""Encode a game's views, actions and events into the bot protocol's messages, and decode them
back.

For game ``g`` (e.g. "oregon"), the view dataclass maps to ``<G>View``, the action type to
``<G>Action`` and the event type to ``<G>Event`` in ``proto/arena/bot/v1/<g>.proto``;
``GameView``, ``Action`` and ``GameEvent`` of bot.proto wrap them in a oneof whose member is the
game's name. An action or event type that is a union of dataclasses maps to a message holding
one oneof (see ``arena.wire.convert``).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from arena.bot.v1 import bot_pb2
from arena.wire.convert import from_proto, from_proto_variant, to_proto, to_proto_variant
from engine.registry import get_game


@functools.cache
def _is_single_dataclass(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def encode_view(game_name: str, view: Any) -> bot_pb2.GameView:
    message = bot_pb2.GameView()
    to_proto(view, getattr(message, game_name))
    return message


def decode_view(game_name: str, message: bot_pb2.GameView) -> Any:
    return from_proto(getattr(message, game_name), get_game(game_name).view_type)


def encode_action(game_name: str, action: Any) -> bot_pb2.Action:
    message = bot_pb2.Action()
    target = getattr(message, game_name)
    action_type: type = type(action)
    if _is_single_dataclass(action_type) and _is_single_dataclass(get_game(game_name).action_type):
        to_proto(action, target)
    else:
        to_proto_variant(action, target)
    return message


def decode_action(game_name: str, message: bot_pb2.Action) -> Any:
    action_type = get_game(game_name).action_type
    inner = getattr(message, game_name)
    if _is_single_dataclass(action_type):
        return from_proto(inner, action_type)
    return from_proto_variant(inner, action_type)


def encode_event(game_name: str, event: Any) -> bot_pb2.GameEvent:
    message = bot_pb2.GameEvent()
    to_proto_variant(event, getattr(message, game_name))
    return message


def decode_event(game_name: str, message: bot_pb2.GameEvent) -> Any:
    return from_proto_variant(getattr(message, game_name), get_game(game_name).event_type)
