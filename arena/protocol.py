"""Constants of the bot protocol (``proto/arena/bot/v1/bot.proto``) that both ends of a call
and the records share: the version spoken, the token's metadata key and its refusal status, the
Decide method's path, the comment limit, and the explicit mapping of an ``Outcome`` to its wire
enum."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from arena.bot.v1 import bot_pb2
from arena.records import Outcome
from arena_sdk import PROTOCOL_VERSION, TOKEN_METADATA_KEY, TOKEN_REFUSED

# PROTOCOL_VERSION, the token's metadata key and the status of a refused token are the SDK's
# (one definition for both ends of a call).
__all__ = [
    "COMMENT_LIMIT",
    "DECIDE_METHOD",
    "OUTCOME_TO_PROTO",
    "PROTOCOL_VERSION",
    "TOKEN_METADATA_KEY",
    "TOKEN_REFUSED",
]

# Decide's method path, for calls that send an already serialized request.
DECIDE_METHOD = f"/{bot_pb2.DESCRIPTOR.services_by_name['Bot'].full_name}/Decide"
# The longest bot comment kept (DecisionReply.comment); longer ones are cut.
COMMENT_LIMIT = 200

OUTCOME_TO_PROTO: Mapping[Outcome, bot_pb2.Outcome] = MappingProxyType(
    {
        Outcome.FINISHED: bot_pb2.OUTCOME_FINISHED,
        Outcome.ILLEGAL: bot_pb2.OUTCOME_ILLEGAL,
        Outcome.TIMEOUT: bot_pb2.OUTCOME_TIMEOUT,
        Outcome.CRASH: bot_pb2.OUTCOME_CRASH,
    }
)
