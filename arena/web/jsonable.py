"""Engine values (frozen dataclasses of views and actions) as plain JSON values.

Views and actions follow the engine contract's typing conventions (``engine.core``): fields are
numbers, strings, booleans, IntEnums, nested dataclasses, tuples of those, or None. An enum
becomes its name, so the browser draws "FARMER", not 1."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any


def to_json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: to_json(getattr(value, field.name))
                for field in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    return value


def describe_generic(action: Any) -> str:
    """Words for an action when its engine offers none: "Play: piece farmer, cards settler, row
    9, col 7". Marker fields (constant True by default, as Ogallala's ``Stop``) are left out."""
    if not dataclasses.is_dataclass(action):
        return str(action)
    parts = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if value is None or value == "" or field.default is True:  # True markers say nothing
            continue
        parts.append(f"{field.name.replace('_', ' ')} {_words(value)}")
    name = type(action).__name__
    return f"{name}: {', '.join(parts)}" if parts else name


def _words(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return value.name.lower().replace("_", " ")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return "+".join(_words(item) for item in value) or "none"
    if dataclasses.is_dataclass(value):
        return describe_generic(value)
    return str(value)
