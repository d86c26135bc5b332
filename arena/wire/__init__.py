"""Translation between engine objects (frozen dataclasses) and their protobuf messages."""

from arena.wire.convert import (
    WireError,
    from_proto,
    from_proto_variant,
    to_proto,
    to_proto_variant,
    variant_field,
)

__all__ = [
    "WireError",
    "from_proto",
    "from_proto_variant",
    "to_proto",
    "to_proto_variant",
    "variant_field",
]
