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
