"""Engine values (frozen dataclasses of views and actions) as plain JSON values.

Views and actions follow the engine contract's typing conventions (``engine.core``): fields are
numbers, strings, booleans, IntEnums, nested dataclasses, tuples of those, or None. An enum
becomes its name, so the browser draws "FARMER", not 1."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


class JsonConverter:
    """Converts values, remembering every frozen dataclass instance it converted: the views of
    successive decisions share most of their parts (engines reuse unchanged sub-views), so a
    replay's frames convert each shared part once. Keep one converter per replay only: it holds
    the values it converted (so their ids stay theirs)."""

    def __init__(self) -> None:
        self._done: dict[int, tuple[Any, Any]] = {}

    def __call__(self, value: Any) -> Any:
        if (
            value is None
            or isinstance(value, (bool, int, float, str))
            and not isinstance(value, enum.Enum)
        ):
            return value
        if isinstance(value, enum.Enum):
            return value.name
        if isinstance(value, (tuple, list)):
            return [self(item) for item in value]
        known = self._done.get(id(value))
        if known is not None:
            return known[1]
        names = _FIELD_NAMES.get(type(value))
        if names is None:
            if not dataclasses.is_dataclass(value):
                return value
            names = _FIELD_NAMES[type(value)] = tuple(
                field.name for field in dataclasses.fields(value)
            )
        converted = {name: self(getattr(value, name)) for name in names}
        self._done[id(value)] = (value, converted)
        return converted


def to_json(value: Any) -> Any:
    return JsonConverter()(value)
