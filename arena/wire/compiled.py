"""Compiled encoders: the same mapping as ``arena.wire.convert.to_proto``, generated once per
dataclass as straight-line Python, for the referee's hot path (every decision encodes a view).

``to_proto`` interprets a per-class plan at every call; the function generated here does the same
assignments without the interpretation. tests/wire/test_compiled_encoding.py checks that both
give identical bytes for every game's views and actions. (Like view types in general, a class
may not contain itself.)
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from typing import Any

from google.protobuf.message import Message

from arena.wire.convert import field_plan, variant_field

Encoder = Callable[[Any, Message], None]


@functools.cache
def encoder_for(cls: type) -> Encoder:
    """An encoder filling a message of ``cls``'s proto type from an instance of ``cls``."""
    namespace: dict[str, Any] = {}
    lines = [f"def encode_{cls.__name__}(obj, message):"]
    for number, (name, kind, inner, _) in enumerate(field_plan(cls)):
        lines.append(f"    value = obj.{name}")
        if kind in ("scalar", "enum"):
            lines.append(f"    if value is not None: message.{name} = value")
        elif kind == "message":
            namespace[f"e{number}"] = encoder_for(inner)
            lines.append(f"    if value is not None: e{number}(value, message.{name})")
        elif kind == "variant":
            namespace[f"e{number}"] = variant_encoder(inner)
            lines.append(f"    if value is not None: e{number}(value, message.{name})")
        elif kind in ("repeated-scalar", "repeated-enum"):
            lines.append(f"    if value: message.{name}.extend(value)")
        else:  # repeated message or variant
            encode = encoder_for(inner) if kind == "repeated-message" else variant_encoder(inner)
            namespace[f"e{number}"] = encode
            lines += [
                "    if value:",
                f"        add = message.{name}.add",
                f"        for item in value: e{number}(item, add())",
            ]
    if len(lines) == 1:
        lines.append("    pass")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built above from field names only
    return namespace[f"encode_{cls.__name__}"]


@functools.cache
def variant_encoder(union: Any) -> Encoder:
    """Encoder for a union of dataclasses: the member named after the value's class is set."""
    members = {cls: (variant_field(cls), encoder_for(cls)) for cls in typing.get_args(union)}

    def encode(obj: Any, message: Message) -> None:
        field, encode_member = members[type(obj)]
        encode_member(obj, getattr(message, field))

    return encode
