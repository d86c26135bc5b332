"""Translation between engine objects (frozen dataclasses) and their protobuf messages."""

from arena.wire.convert import from_proto, to_proto

__all__ = ["from_proto", "to_proto"]
