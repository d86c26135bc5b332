"""Serialized messages assembled from memoized pieces: the referee's fast view encoder.

Filling protobuf messages field by field from Python is what made encoding a request cost several
times the engine's step; protobuf's C layer itself serializes fast. So a message is serialized
here as two parts concatenated, which is valid protobuf (a parser takes a message's fields in any
order; a repeated field's elements keep their order as they stay together):

* its fields that hold no message, filled by a compiled encoder (``arena.wire.compiled``) into a
  fresh message and serialized;
* each field holding a message (or a tuple of them): its wire form (key, length, body), memoized.
  Views are built of frozen dataclasses and tuples, and an engine hands out the same objects
  again for the parts that did not change (shared catalog objects, parts cached by the content
  they show, ``engine.parts``), so most of a view is bytes made at an earlier decision. A tuple
  is found by its identity; a message by the values of its scalar fields and the identities of
  its messages (so the fresh but equal objects an engine builds at every view find their entry
  too), or by its own identity if it holds a tuple of messages.

No memo can leak what one seat sees into another seat's request: an entry's key determines the
object it encodes (its identity, or its values and its parts' identities), so a request only ever
holds the encodings of objects equal to those of its own view. An entry holds the object it
keyed, so no id in a key is reused while the entry lives; each memo is emptied when it grows past
its limit.

An empty body is ambiguous (a message present with only default values, or absent), so whenever a
part encodes to nothing it is made by the compiled encoder in a fresh parent instead: the result
parses to exactly the message ``arena.wire.compiled`` builds
(tests/wire/test_request_equivalence.py).
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from typing import Any

from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from arena.wire.compiled import SCALAR_KINDS, encoder_for, scalar_encoder_for, variant_encoder
from arena.wire.convert import field_plan, variant_field
from arena.wire.scalars import scalar_writer, varint

BodyEncoder = Callable[[Any], bytes]

_MEMO_LIMIT = 5_000  # entries per memo (one per field, per member class of a field)


def field_key(field: Any) -> bytes:
    """The key of a length-delimited field (a message, string or bytes) on the wire."""
    return varint(field.number << 3 | 2)


def length_delimited(key: bytes, body: bytes) -> bytes:
    return key + varint(len(body)) + body


def memoized(cls: type, encode: BodyEncoder) -> BodyEncoder:
    """``encode`` (a function of an instance of dataclass ``cls`` alone) memoized by
    ``_memo_key(cls)``."""
    key = _memo_key(cls)
    memo: dict[Any, tuple[Any, bytes]] = {}

    def memoized(value: Any) -> bytes:
        k = key(value)
        entry = memo.get(k)
        if entry is None:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            entry = memo[k] = (value, encode(value))
        return entry[1]

    return memoized


@functools.cache
def _memo_key(cls: type) -> Callable[[Any], Any]:
    """What tells two instances of ``cls`` apart for encoding, cheaply: the values of its scalar
    fields and the identities of its messages (so fresh but equal objects that an engine builds
    at every view find their entry); the object's own identity if it holds a tuple of messages.
    An entry holds its object, and so the objects whose ids its key holds: no id is reused while
    the entry lives."""
    plan = field_plan(cls)
    if any(kind in ("repeated-message", "repeated-variant") for _, kind, _, _ in plan):
        return id
    terms = [f"o.{name}" if kind in SCALAR_KINDS else f"id(o.{name})" for name, kind, _, _ in plan]
    return eval(f"lambda o: ({', '.join(terms)},)")  # noqa: S307 - built from field names only


@functools.cache
def body_encoder(cls: type, descriptor: Descriptor) -> BodyEncoder:
    """The serialized message of type ``descriptor`` for an instance of dataclass ``cls`` (its
    parts memoized, not the whole: a view is new at every decision)."""
    message_class = GetMessageClass(descriptor)
    plan = field_plan(cls)
    fill_scalars = scalar_encoder_for(cls)

    def filled(obj: Any) -> bytes:
        message = message_class()
        fill_scalars(obj, message)
        return message.SerializeToString()

    scalars = scalar_writer(cls, descriptor) or filled

    parts = [
        _field_part(message_class, name, kind, inner)
        for name, kind, inner, _ in plan
        if kind not in SCALAR_KINDS
    ]
    if not parts:
        return scalars
    if len(parts) == len(plan):
        return lambda obj: b"".join([wire for part in parts if (wire := part(obj))])

    def encode(obj: Any) -> bytes:
        return scalars(obj) + b"".join([wire for part in parts if (wire := part(obj))])

    return encode


def _field_part(
    message_class: type[Message], name: str, kind: str, inner: Any
) -> Callable[[Any], bytes | None]:
    """The wire form of field ``name`` (holding messages) of an instance of the dataclass whose
    message is ``message_class``; None when the field is unset."""
    field = message_class.DESCRIPTOR.fields_by_name[name]
    key = field_key(field)

    def exact(fill: Callable[[Any, Message], None]) -> BodyEncoder:
        """The field (one element of it if repeated) as the compiled encoder writes it."""

        def wire(value: Any) -> bytes:
            message = message_class()
            target = getattr(message, name)
            fill(value, target.add() if kind.startswith("repeated") else target)
            return message.SerializeToString()

        return wire

    if kind in ("message", "repeated-message"):
        element = _wire_form(
            inner, body_encoder(inner, field.message_type), key, exact(encoder_for(inner))
        )
        members = {inner: element}
    else:
        members = {
            member: _wire_form(
                member,
                _variant_body(member, field.message_type),
                key,
                exact(variant_encoder(inner)),
            )
            for member in typing.get_args(inner)
        }
    if kind.startswith("repeated"):
        tuples: dict[int, tuple[Any, bytes]] = {}  # by identity: engines hand out tuples again

        def part(obj: Any) -> bytes | None:
            value = getattr(obj, name)
            if not value:
                return None
            entry = tuples.get(id(value))
            if entry is None:
                if len(tuples) >= _MEMO_LIMIT:
                    tuples.clear()
                wire = b"".join([members[type(item)](item) for item in value])
                entry = tuples[id(value)] = (value, wire)
            return entry[1]

    else:

        def part(obj: Any) -> bytes | None:
            value = getattr(obj, name)
            return None if value is None else members[type(value)](value)

    return part


def _wire_form(cls: type, encode_body: BodyEncoder, key: bytes, exact: BodyEncoder) -> BodyEncoder:
    """Key, length and body of an instance of ``cls``, memoized; an empty body is ambiguous (a
    present message with default values or none), so ``exact`` makes that case."""

    def wire(value: Any) -> bytes:
        body = encode_body(value)
        return length_delimited(key, body) if body else exact(value)

    return memoized(cls, wire)


def _variant_body(member: type, descriptor: Any) -> BodyEncoder:
    """The body of a message holding one oneof (a union of dataclasses) set to its ``member``
    class's field; empty when the member's own body is."""
    field = descriptor.fields_by_name[variant_field(member)]
    key, encode_member = field_key(field), body_encoder(member, field.message_type)

    def encode(value: Any) -> bytes:
        body = encode_member(value)
        return length_delimited(key, body) if body else b""

    return encode
