"""Serialized messages assembled from memoized pieces: the referee's fast view encoder.

Filling protobuf messages field by field from Python is what made encoding a request cost several
times the engine's step; protobuf's C layer itself serializes fast. So a message is serialized
here by one function generated per dataclass (straight-line Python, no call per field), which
writes the concatenation of its fields' wire forms (valid protobuf: a parser takes a message's
fields in any order; a repeated field's elements keep their order as they stay together):

* its fields that hold no message, written directly (``arena.wire.scalars``);
* each field holding a message (or a tuple of them): its wire form (key, length, body), memoized.
  Views are built of frozen dataclasses and tuples, and an engine hands out the same objects
  again for the parts that did not change (shared catalog objects, parts cached by the content
  they show, ``engine.parts``), so most of a view is bytes made at an earlier decision, found by
  the object's identity in one dict look-up. Failing that, a tuple is found by the identities of
  its elements, and a message by the values of its scalar fields and the identities of its
  messages (so the fresh but equal objects an engine builds at every view find their entry too;
  a message holding a tuple of messages only by its identity).

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
from operator import attrgetter
from typing import Any, TypeVar

from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from arena.wire.compiled import SCALAR_KINDS, encoder_for, scalar_encoder_for, variant_encoder
from arena.wire.convert import field_plan, variant_field
from arena.wire.scalars import scalar_terms, varint

BodyEncoder = Callable[[Any], bytes]
V = TypeVar("V")

MEMO_LIMIT = 5_000  # entries per memo (one per field, per member class of a field)


class Memo(dict[Any, V]):
    """A dict that empties itself when it grows past ``MEMO_LIMIT``, so memory stays bounded."""

    def put(self, key: Any, value: V) -> V:
        if len(self) >= MEMO_LIMIT:
            self.clear()
        self[key] = value
        return value


class IdentityWires(dict[int, bytes]):
    """Wire forms by the identity of the objects they encode, which it holds (so no id is reused
    while its entry lives); emptied when full. A plain dict look-up, so a run of objects is
    found by a C-level map (``map(wires.__getitem__, map(id, objects))``)."""

    __slots__ = ("_held",)

    def __init__(self) -> None:
        super().__init__()
        self._held: list[Any] = []

    def put(self, obj: Any, wire: bytes) -> bytes:
        if len(self) >= MEMO_LIMIT:
            self.clear()
            self._held.clear()
        if id(obj) not in self:  # held once, so the list stays as bounded as the dict
            self._held.append(obj)
        self[id(obj)] = wire
        return wire


def field_key(field: Any) -> bytes:
    """The key of a length-delimited field (a message, string or bytes) on the wire."""
    return varint(field.number << 3 | 2)


def length_delimited(key: bytes, body: bytes) -> bytes:
    return key + varint(len(body)) + body


def memoized(cls: type, encode: BodyEncoder) -> BodyEncoder:
    """``encode`` (a function of an instance of dataclass ``cls`` alone) memoized by
    ``_memo_key(cls)``."""
    key = _memo_key(cls)
    memo: Memo[tuple[Any, bytes]] = Memo()

    def memoized(value: Any) -> bytes:
        k = key(value)
        entry = memo.get(k)
        if entry is None:
            entry = memo.put(k, (value, encode(value)))
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
def body_encoder(cls: type, descriptor: Descriptor, from_fields: bool = False) -> BodyEncoder:
    """The serialized message of type ``descriptor`` for an instance of dataclass ``cls`` (with
    ``from_fields``, for the tuple of its fields' values in order, which an engine hands out
    without building the view: ``engine.core.GameState.view_fields``): one generated function
    joining its fields' wire forms, its scalars' found by value and its messages' by identity
    (not the whole memoized: a view is new at every decision)."""
    message_class = GetMessageClass(descriptor)
    plan = field_plan(cls)
    names = [name for name, _, _, _ in plan]
    namespace: dict[str, Any] = {"join": b"".join, "make": cls, "fields": _fields_getter(names)}
    # The values become locals, read at once from the tuple or by one C-level attrgetter.
    source = "(" + "".join(f"f_{name}, " for name in names) + ")"
    lines = ["def write(o):", f"    {source} = {'o' if from_fields else 'fields(o)'}"]
    terms = scalar_terms(cls, descriptor, namespace, "f_{}".format)
    if terms is None:  # a type the writers do not know: filled into a message instead
        namespace["scalars"] = _filled_scalars(cls, message_class)
        terms = ["scalars(make(*o))" if from_fields else "scalars(o)"]
    for number, (name, kind, inner, _) in enumerate(plan):
        if kind in SCALAR_KINDS:
            continue
        by_id, slow = f"I{number}", f"F{number}"
        namespace[by_id] = memo = IdentityWires()
        wire = _field_wire(message_class, name, kind, inner)
        if kind.startswith("repeated"):
            namespace[slow] = _run_wire(memo, wire)
            present = f"f_{name}"
        else:
            namespace[slow] = lambda value, memo=memo, wire=wire: memo.put(value, wire(value))
            present = f"f_{name} is not None"
        # A message's wire form is never empty (key and length at least).
        terms.append(f'(({by_id}.get(id(f_{name})) or {slow}(f_{name})) if {present} else b"")')
    lines.append(f"    return join(({''.join(term + ', ' for term in terms)}))")
    code = compile("\n".join(lines), f"<body of {cls.__name__}>", "exec")  # named in profiles
    exec(code, namespace)  # noqa: S102 - source built from field names and types
    return namespace["write"]


def _fields_getter(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of an object's attributes ``names``, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)
    return lambda obj: tuple([getattr(obj, name) for name in names])


def _filled_scalars(cls: type, message_class: type[Message]) -> BodyEncoder:
    fill = scalar_encoder_for(cls)

    def filled(obj: Any) -> bytes:
        message = message_class()
        fill(obj, message)
        return message.SerializeToString()

    return filled


def _run_wire(memo: IdentityWires, element: BodyEncoder) -> BodyEncoder:
    """The wire forms of a tuple's elements, joined, entered in ``memo`` by the tuple's identity;
    a fresh tuple of known elements (a view's tuple of players, rebuilt at every view from parts
    that did not change) is found by its elements' identities."""
    runs: Memo[tuple[Any, bytes]] = Memo()
    by_id = IdentityWires()

    def element_wire(item: Any) -> bytes:
        return by_id.get(id(item)) or by_id.put(item, element(item))

    def run(value: tuple[Any, ...]) -> bytes:
        key = tuple(map(id, value))
        entry = runs.get(key)
        if entry is None:
            entry = runs.put(key, (value, b"".join(map(element_wire, value))))
        return memo.put(value, entry[1])

    return run


def _field_wire(message_class: type[Message], name: str, kind: str, inner: Any) -> BodyEncoder:
    """The wire form of a value of field ``name`` (one element if repeated) of the message
    ``message_class``, memoized by value (``memoized``)."""
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
        return _wire_form(
            inner, body_encoder(inner, field.message_type), key, exact(encoder_for(inner))
        )
    members = {
        member: _wire_form(
            member, variant_body(member, field.message_type), key, exact(variant_encoder(inner))
        )
        for member in typing.get_args(inner)
    }
    return lambda value: members[type(value)](value)


def _wire_form(cls: type, encode_body: BodyEncoder, key: bytes, exact: BodyEncoder) -> BodyEncoder:
    """Key, length and body of an instance of ``cls``, memoized; an empty body is ambiguous (a
    present message with default values or none), so ``exact`` makes that case."""

    def wire(value: Any) -> bytes:
        body = encode_body(value)
        return length_delimited(key, body) if body else exact(value)

    return memoized(cls, wire)


def variant_body(member: type, descriptor: Any) -> BodyEncoder:
    """The body of a message holding one oneof (a union of dataclasses) set to its ``member``
    class's field; empty when the member's own body is."""
    field = descriptor.fields_by_name[variant_field(member)]
    key, encode_member = field_key(field), body_encoder(member, field.message_type)

    def encode(value: Any) -> bytes:
        body = encode_member(value)
        return length_delimited(key, body) if body else b""

    return encode
