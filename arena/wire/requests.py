"""Build the bot protocol's requests from engine state: decision requests (the hot path of the
referee) and the end-of-game reveal. Game-independent: the game's view and action types are mapped
by ``arena.wire.codec``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from arena.bot.v1 import bot_pb2
from arena.wire.codec import encode_action, encode_view
from engine.core import GameState, OptionValue

if TYPE_CHECKING:
    from arena.match import SeatRecord


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


class DecisionEncoder:
    """Encodes decision requests of one game. Actions are frozen dataclasses that recur across
    decisions, so their encoded messages are cached."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._actions: dict[Any, bot_pb2.Action] = {}

    def _action(self, action: Any) -> bot_pb2.Action:
        message = self._actions.get(action)
        if message is None:
            message = self._actions[action] = encode_action(self.game, action)
        return message

    def request(self, game_id: str, number: int, state: GameState, seat: int,
                legal: Sequence[Any], move_seconds: float,
                bank_seconds: float) -> bot_pb2.DecisionRequest:
        return bot_pb2.DecisionRequest(
            game_id=game_id, decision_number=number, decision_kind=state.decision_kind,
            view=encode_view(self.game, state.view(seat)),
            legal_actions=[self._action(action) for action in legal],
            clock=bot_pb2.Clock(move_seconds=move_seconds, bank_seconds=bank_seconds))

    def end_request(self, game_id: str, state: GameState,
                    records: Sequence[SeatRecord]) -> bot_pb2.EndGameRequest:
        return bot_pb2.EndGameRequest(
            game_id=game_id,
            results=[bot_pb2.SeatResult(seat=r.seat, player_name=r.player, score=r.score,
                                        rank=r.rank, outcome=f"OUTCOME_{r.outcome.value}",
                                        reason=r.reason) for r in records],
            final_views=[encode_view(self.game, state.view(seat))
                         for seat in range(state.num_players)])
