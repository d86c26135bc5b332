"""Generic, reflection-based conversion between engine dataclasses and protobuf messages.

One mechanism serves every game: a game's .proto mirrors its view and action dataclasses field by
field (same names), so no game needs hand-written codec code. The conventions are those of
``engine.core``: scalars, ``IntEnum`` (same numbers as the proto enum, 0 = UNSPECIFIED), nested
dataclasses, ``tuple[X, ...]`` (repeated), ``X | None`` (unset field; a scalar needs ``optional``
in the .proto)
and unions of dataclasses ``A | B`` (a message with one ``oneof`` whose members are named
``a``/``b`` after the classes in snake_case, see ``variant_field``). Per-class conversion
plans are computed once and cached, so the hot path is a loop over precomputed setters.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import types
import typing
from typing import Any

from google.protobuf.message import Message

from arena.errors import WireError

_SCALARS = (int, float, bool, str)


def _unwrap_optional(tp: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def _field_kind(tp: Any) -> tuple[str, Any]:
    """Classify a field type: ('scalar'|'enum'|'message'|'variant', inner) possibly 'repeated-'."""
    tp, _ = _unwrap_optional(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return "variant", tp
    if typing.get_origin(tp) in (tuple, list):
        args = typing.get_args(tp)
        kind, inner = _field_kind(args[0])
        if kind.startswith("repeated"):
            raise WireError(f"nested sequences are not supported ({tp}); wrap rows in a dataclass")
        return "repeated-" + kind, inner
    if isinstance(tp, type) and issubclass(tp, enum.IntEnum):
        return "enum", tp
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return "message", tp
    if tp in _SCALARS:
        return "scalar", tp
    raise WireError(f"unsupported field type {tp!r}")


@functools.cache
def field_plan(cls: type) -> tuple[tuple[str, str, Any, bool], ...]:
    """Per field: (name, kind, inner type, optional). Computed once per class."""
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, *_field_kind(hints[f.name]), _unwrap_optional(hints[f.name])[1])
        for f in dataclasses.fields(cls)
    )


def to_proto(obj: Any, message: Message) -> Message:
    """Fill ``message`` (an empty instance of the matching proto class) from dataclass ``obj``."""
    cls: type = type(obj)
    for name, kind, _inner, _ in field_plan(cls):
        value = getattr(obj, name)
        if value is None:
            continue
        try:
            if kind == "scalar" or kind == "enum":
                setattr(message, name, value)
            elif kind == "message":
                nested = getattr(message, name)
                nested.SetInParent()  # present even when every field has its default
                to_proto(value, nested)
            elif kind == "variant":
                to_proto_variant(value, getattr(message, name))
            elif kind == "repeated-message":
                target = getattr(message, name)
                for item in value:
                    to_proto(item, target.add())
            elif kind == "repeated-variant":
                target = getattr(message, name)
                for item in value:
                    to_proto_variant(item, target.add())
            else:  # repeated scalar or enum
                getattr(message, name).extend(value)
        except (AttributeError, TypeError, ValueError) as exc:
            raise WireError(
                f"{type(obj).__name__}.{name} does not fit {message.DESCRIPTOR.full_name}: {exc}"
            ) from exc
    return message


def from_proto(message: Message, cls: type) -> Any:
    """Build a dataclass of type ``cls`` from ``message`` (the inverse of ``to_proto``)."""
    values: dict[str, Any] = {}
    for name, kind, inner, optional in field_plan(cls):
        if (
            kind in ("scalar", "enum", "message", "variant")
            and optional
            and not message.HasField(name)
        ):
            values[name] = None
        elif kind == "scalar":
            values[name] = getattr(message, name)
        elif kind == "enum":
            values[name] = inner(getattr(message, name))
        elif kind == "message":
            values[name] = from_proto(getattr(message, name), inner)
        elif kind == "variant":
            values[name] = from_proto_variant(getattr(message, name), inner)
        elif kind == "repeated-message":
            values[name] = tuple(from_proto(item, inner) for item in getattr(message, name))
        elif kind == "repeated-variant":
            values[name] = tuple(from_proto_variant(item, inner) for item in getattr(message, name))
        elif kind == "repeated-enum":
            values[name] = tuple(inner(item) for item in getattr(message, name))
        else:
            values[name] = tuple(getattr(message, name))
    return cls(**values)


_variant_fields: dict[type, str] = {}


def variant_field(cls: type) -> str:
    """The oneof member name of a variant class: ``PlaceStartTile`` -> ``place_start_tile``."""
    field = _variant_fields.get(cls)
    if field is None:  # a regular expression per call would cost more than the encoding
        field = _variant_fields[cls] = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return field


def to_proto_variant(obj: Any, message: Message) -> Message:
    """Fill a message whose single ``oneof`` has one member per dataclass of a union type
    (e.g. a game's action type ``PlaceStartTile | Play | Draw``), named by ``variant_field``."""
    member = getattr(message, variant_field(type(obj)))
    member.SetInParent()  # marks the oneof member as set even when it has no fields
    return to_proto(obj, member)


def from_proto_variant(message: Message, union: Any) -> Any:
    """Inverse of ``to_proto_variant``: the set oneof member picks the dataclass."""
    oneofs = message.DESCRIPTOR.oneofs
    if len(oneofs) != 1:
        raise WireError(f"{message.DESCRIPTOR.full_name} must have exactly one oneof")
    chosen = message.WhichOneof(oneofs[0].name)
    for cls in typing.get_args(union):
        if variant_field(cls) == chosen:
            return from_proto(getattr(message, chosen), cls)
    raise WireError(f"{message.DESCRIPTOR.full_name}: no variant set or {chosen!r} unknown")
