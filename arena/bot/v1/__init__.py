"""The generated protobuf code, which the Python SDK (sdk/python, module ``arena_sdk.v1``) owns;
this package re-exports it under its old name so that ``from arena.bot.v1 import bot_pb2`` (the
arena's code, older bots) keeps working. The modules are the SDK's very objects, registered here
as submodules too: each .proto file is loaded into protobuf's descriptor pool once. Which modules
there are is read from the SDK's package (a game's ``<game>_pb2`` comes with its .proto file)."""

import importlib
import pkgutil
import sys

import arena_sdk.v1

# Named here as well, for the type checker: the protocol's own messages, which the arena uses.
from arena_sdk.v1 import bot_pb2 as bot_pb2
from arena_sdk.v1 import bot_pb2_grpc as bot_pb2_grpc

__all__ = sorted(
    info.name
    for info in pkgutil.iter_modules(arena_sdk.v1.__path__)
    if info.name.endswith(("_pb2", "_pb2_grpc"))
)

for _name in __all__:
    globals()[_name] = importlib.import_module(f"arena_sdk.v1.{_name}")
    sys.modules[f"{__name__}.{_name}"] = globals()[_name]
