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
_FIXED = {FieldDescriptor.TYPE_DOUBLE: ("d", 1), FieldDescriptor.TYPE_FLOAT: ("f", 5)}


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


_STRINGS_LIMIT = 2_000  # tuples of strings kept per field


def _strings_writer(key: bytes) -> Callable[[tuple[str, ...]], bytes]:
    """A repeated string field's elements, memoized by the tuple's value: such fields are often
    constant or slow to change (a map's rows, a discard pile), and hashing a tuple of strings is
    cheaper than encoding it."""
    memo: dict[tuple[str, ...], bytes] = {}

    def write(strings: tuple[str, ...]) -> bytes:
        wire = memo.get(strings)
        if wire is None:
            if len(memo) >= _STRINGS_LIMIT:
                memo.clear()
            encoded = [text.encode() for text in strings]
            wire = memo[strings] = b"".join(key + varint(len(b)) + b for b in encoded)
        return wire

    return write


def scalar_lines(cls: type, descriptor: Descriptor, namespace: dict[str, Any]) -> list[str] | None:
    """Source lines (of a function whose argument is ``o`` and whose ``add`` appends bytes to its
    output) writing the fields of ``cls`` that hold no message as the message ``descriptor``
    serializes them; what they name is put in ``namespace``. None if one of the fields has a type
    they do not write."""
    namespace.update(varint=varint, packed=packed_varints, pack=struct.pack)
    lines = []
    for number, (name, kind, _, _) in enumerate(field_plan(cls)):
        if kind not in SCALAR_KINDS:
            continue
        field = descriptor.fields_by_name[name]
        lines += [f"    v = o.{name}", *_write_field(field, kind, f"K{number}", namespace)]
        if lines[-1] == "UNSUPPORTED":
            return None
    return lines


def _write_field(field: FieldDescriptor, kind: str, key: str, namespace: dict) -> list[str]:
    """Source lines writing value ``v`` of ``field``; ["UNSUPPORTED"] for a type not handled."""
    repeated = kind.startswith("repeated")
    if field.type in _VARINT_TYPES:
        if repeated:
            if not field.is_packed:
                return ["UNSUPPORTED"]
            namespace[key] = varint(field.number << 3 | 2)
            return [
                "    if v:",
                "        b = packed(v)",
                f"        add({key} + varint(len(b)) + b)",
            ]
        namespace[key] = varint(field.number << 3)
        # The key and a value below 128 (most are: counts, seats, enums, booleans) in one piece.
        namespace[f"{key}_small"] = [namespace[key] + _SMALL[n] for n in range(0x80)]
        value = f"{key}_small[v] if -1 < v < 0x80 else {key} + varint(v)"
    elif field.type == FieldDescriptor.TYPE_STRING:
        namespace[key] = varint(field.number << 3 | 2)
        if repeated:
            namespace[f"{key}_strings"] = _strings_writer(namespace[key])
            return ["    if v:", f"        add({key}_strings(v))"]
        value = f"{key} + varint(len(b)) + b"
        condition = "v is not None" if field.has_presence else "v"
        return [f"    if {condition}:", "        b = v.encode()", f"        add({value})"]
    elif field.type in _FIXED:
        code, wire_type = _FIXED[field.type]
        if repeated:
            if not field.is_packed:
                return ["UNSUPPORTED"]
            namespace[key] = varint(field.number << 3 | 2)
            size = struct.calcsize(code)
            return [
                "    if v:",
                f'        add({key} + varint({size} * len(v)) + pack(f"<{{len(v)}}{code}", *v))',
            ]
        namespace[key] = varint(field.number << 3 | wire_type)
        value = f'{key} + pack("<{code}", v)'
    else:
        return ["UNSUPPORTED"]
    condition = "v is not None" if field.has_presence else "v"
    return [f"    if {condition}: add({value})"]
