"""The scalar fields of a message (numbers, enums, booleans, strings and tuples of them) written
as protobuf bytes by Python generated once per dataclass, for the parts of a request that change
at every decision. A generic fill of the C message costs a Python-to-C call per field and the
making of a message; these writers cost a few list appends. tests/wire/test_request_equivalence.py
checks that they parse as the compiled encoder's messages for every game.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from arena.wire.compiled import SCALAR_KINDS
from arena.wire.convert import field_plan

_SMALL = [bytes([n]) if n < 0x80 else bytes([n & 0x7F | 0x80, n >> 7]) for n in range(1 << 14)]
_INT64 = (1 << 64) - 1  # a negative int32 or int64 is its 64-bit two's complement on the wire
_VARINT_TYPES = frozenset(
    (
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_UINT32,
        FieldDescriptor.TYPE_UINT64,
        FieldDescriptor.TYPE_ENUM,
        FieldDescriptor.TYPE_BOOL,
    )
)
_FIXED = {FieldDescriptor.TYPE_DOUBLE: "d", FieldDescriptor.TYPE_FLOAT: "f"}
_WIRE_TYPES = {
    FieldDescriptor.TYPE_DOUBLE: 1,
    FieldDescriptor.TYPE_FLOAT: 5,
    **dict.fromkeys(_VARINT_TYPES, 0),
}


def varint(value: int) -> bytes:
    """An integer as a protobuf varint (a negative one as its 64-bit two's complement)."""
    if 0 <= value < 1 << 14:
        return _SMALL[value]
    value &= _INT64
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def packed_varints(values: Any) -> bytes:
    """A packed repeated varint field's body; one byte per value when all are below 128."""
    try:
        small = bytes(values)  # ValueError for a value outside 0..255
    except ValueError:
        return b"".join(map(varint, values))
    return small if small.isascii() else b"".join(map(varint, values))


_REPEATED_LIMIT = 2_000  # values kept per repeated field


def _repeated_writer(wire: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    """``wire`` (a repeated field's wire form, from a tuple of numbers or strings) memoized by
    the tuple's value: such fields are often constant or slow to change (a map's rows, a hand,
    a discard pile), and hashing a tuple is cheaper than encoding it."""
    memo: dict[Any, bytes] = {}

    def write(values: Any) -> bytes:
        try:
            known = memo.get(values)
        except TypeError:  # a list
            return wire(values)
        if known is None:
            if len(memo) >= _REPEATED_LIMIT:
                memo.clear()
            known = memo[values] = wire(values)
        return known

    return write


def _strings(key: bytes) -> Callable[[Any], bytes]:
    """A repeated string field's elements, each with its key."""
    return lambda strings: b"".join(
        key + varint(len(b)) + b for b in [text.encode() for text in strings]
    )


def _packed(key: bytes) -> Callable[[Any], bytes]:
    """A packed repeated varint field."""

    def wire(values: Any) -> bytes:
        body = packed_varints(values)
        return key + varint(len(body)) + body

    return wire


_VALUES_LIMIT = 2_000  # values kept per singular field


class _ValueWires(dict[Any, bytes]):
    """A singular field's wire form by its value (b"" where the value is not written): a field
    takes few values (counts, seats, enums, flags, names), so a value is soon found by one
    C-level look-up, cheaper than testing and writing it; emptied when full."""

    __slots__ = ("_wire",)

    def __init__(self, wire: Callable[[Any], bytes]) -> None:
        super().__init__()
        self._wire = wire

    def __missing__(self, value: Any) -> bytes:
        if len(self) >= _VALUES_LIMIT:
            self.clear()
        wire = self[value] = self._wire(value)
        return wire


def scalar_terms(
    cls: type, descriptor: Descriptor, namespace: dict[str, Any], value_of: Callable[[str], str]
) -> list[str] | None:
    """Python expressions, one per field of ``cls`` that holds no message, each the field's wire
    form as the message ``descriptor`` serializes it (b"" when not written), the field's value
    being the expression ``value_of(name)`` (a local); what they name is put in ``namespace``.
    None if one of the fields has a type they do not write."""
    terms = []
    for number, (name, kind, _, _) in enumerate(field_plan(cls)):
        if kind not in SCALAR_KINDS:
            continue
        wire = _field_wire(descriptor.fields_by_name[name], kind.startswith("repeated"))
        if wire is None:
            return None
        namespace[f"K{number}"] = wire
        value = value_of(name)
        if isinstance(wire, _ValueWires):
            terms.append(f"K{number}[{value}]")
        else:
            terms.append(f'(K{number}({value}) if {value} else b"")')
    return terms


def _field_wire(
    field: FieldDescriptor, repeated: bool
) -> _ValueWires | Callable[[Any], bytes] | None:
    """The wire form of a value of ``field`` (for a repeated one, of a non-empty tuple): a
    ``_ValueWires`` for a singular field; None for a type not handled."""
    key = varint(field.number << 3 | (2 if repeated else _WIRE_TYPES.get(field.type, 2)))
    if field.type in _VARINT_TYPES:
        if repeated:
            return _repeated_writer(_packed(key)) if field.is_packed else None
        one: Callable[[Any], bytes] = lambda v: key + varint(v)  # noqa: E731
    elif field.type == FieldDescriptor.TYPE_STRING:
        if repeated:
            return _repeated_writer(_strings(key))
        one = lambda v: key + varint(len(b := v.encode())) + b  # noqa: E731
    elif field.type in _FIXED:
        code = _FIXED[field.type]
        if repeated:
            if not field.is_packed:
                return None
            size = struct.calcsize(code)
            return lambda v: key + varint(size * len(v)) + struct.pack(f"<{len(v)}{code}", *v)
        one = lambda v: key + struct.pack(f"<{code}", v)  # noqa: E731
    else:
        return None
    if field.has_presence:  # written when set, even to its default
        return _ValueWires(lambda v: b"" if v is None else one(v))
    return _ValueWires(lambda v: one(v) if v else b"")
