"""The generated protobuf code, which the Python SDK (sdk/python, module ``arena_sdk.v1``) owns;
this package re-exports it under its old name so that ``from arena.bot.v1 import bot_pb2`` (the
arena's code, older bots) keeps working. The modules are the SDK's very objects, registered here
as submodules too: each .proto file is loaded into protobuf's descriptor pool once."""

import sys

from arena_sdk.v1 import (
    bot_pb2,
    bot_pb2_grpc,
    merkator_pb2,
    merkator_pb2_grpc,
    ogallala_pb2,
    ogallala_pb2_grpc,
    oregon_pb2,
    oregon_pb2_grpc,
)

__all__ = [
    "bot_pb2",
    "bot_pb2_grpc",
    "merkator_pb2",
    "merkator_pb2_grpc",
    "ogallala_pb2",
    "ogallala_pb2_grpc",
    "oregon_pb2",
    "oregon_pb2_grpc",
]

for _name in __all__:
    sys.modules[f"{__name__}.{_name}"] = globals()[_name]
