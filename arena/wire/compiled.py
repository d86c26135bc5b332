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
from collections.abc import Callable, Container
from typing import Any

from google.protobuf.message import Message

from arena.wire.convert import field_plan, variant_field

Encoder = Callable[[Any, Message], None]

# Field kinds that hold no message: what ``arena.wire.chunks`` leaves to a compiled encoder.
SCALAR_KINDS = frozenset(("scalar", "enum", "repeated-scalar", "repeated-enum"))
_ALL_KINDS = SCALAR_KINDS | {"message", "variant", "repeated-message", "repeated-variant"}


@functools.cache
def encoder_for(cls: type) -> Encoder:
    """An encoder filling a message of ``cls``'s proto type from an instance of ``cls``."""
    return _generate(cls, _ALL_KINDS, "")


@functools.cache
def scalar_encoder_for(cls: type) -> Encoder:
    """Like ``encoder_for(cls)``, but only the fields that hold no message are filled."""
    return _generate(cls, SCALAR_KINDS, "scalars_")


def _generate(cls: type, kinds: Container[str], prefix: str) -> Encoder:
    namespace: dict[str, Any] = {}
    name = f"encode_{prefix}{cls.__name__}"
    lines = [f"def {name}(obj, message):"]
    for number, (field, kind, inner, _) in enumerate(field_plan(cls)):
        if kind not in kinds:
            continue
        lines.append(f"    value = obj.{field}")
        if kind in ("scalar", "enum"):
            lines.append(f"    if value is not None: message.{field} = value")
        elif kind == "message":
            namespace[f"e{number}"] = encoder_for(inner)
            lines.append(f"    if value is not None: e{number}(value, message.{field})")
        elif kind == "variant":
            namespace[f"e{number}"] = variant_encoder(inner)
            lines.append(f"    if value is not None: e{number}(value, message.{field})")
        elif kind in ("repeated-scalar", "repeated-enum"):
            lines.append(f"    if value: message.{field}.extend(value)")
        else:  # repeated message or variant
            encode = encoder_for(inner) if kind == "repeated-message" else variant_encoder(inner)
            namespace[f"e{number}"] = encode
            lines += [
                "    if value:",
                f"        add = message.{field}.add",
                f"        for item in value: e{number}(item, add())",
            ]
    if len(lines) == 1:
        lines.append("    pass")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built above from field names only
    return namespace[name]


@functools.cache
def variant_encoder(union: Any) -> Encoder:
    """Encoder for a union of dataclasses: the member named after the value's class is set."""
    members = {cls: (variant_field(cls), encoder_for(cls)) for cls in typing.get_args(union)}

    def encode(obj: Any, message: Message) -> None:
        field, encode_member = members[type(obj)]
        encode_member(obj, getattr(message, field))

    return encode
