"""What a spectator of a game in play may see, and events in words.

A spectator sees only what every seat sees: seeing more, a bot's author watching live could
tell the bot another seat's hand. The engines define one view per seat and no public one, so the
spectator's view is built from all of them: every seat's view as JSON, the fields a game names
as the viewer's own (``_OWN_FIELDS``, e.g. an Oregon hand) emptied, then only what is the same
in every seat's view kept (a value that differs from seat to seat, such as a seat's coal values
filled for their owner alone, is emptied). What is kept is in each seat's view, so it
tells no seat anything new; ``tests/web/test_spectator.py`` checks it against states sampled
from each seat's view.

Events come from the state's event log as a seat sees them (``GameState.events_for``); the
spectator's are those of an audience that is no seat: public events in full, private ones in
their redacted form. Their words: the event type and its fields, an action described by its
engine (``describe_action``), a hidden (None) or false field left out.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from arena.web.jsonable import JsonConverter
from engine.core import GameState

SPECTATOR = -2  # an event audience that is no seat (EVERYONE is -1, seats count from 0)
# Per game, the view fields that hold the viewing seat's own secrets, emptied for spectators
# even where two seats' values happen to agree (two equal hands are still two secrets).
_OWN_FIELDS: dict[str, frozenset[str]] = {"oregon": frozenset({"hand"})}


def spectator_view(state: GameState, to_json: JsonConverter) -> dict[str, Any]:
    """The part of the position every seat sees, shaped like a seat's view (JSON), ``seat``
    None."""
    own = _OWN_FIELDS.get(state.game.name, frozenset())
    views = []
    for seat in range(state.num_players):
        view = dict(to_json(state.view(seat)))
        view["seat"] = None
        for name in own:
            view[name] = _empty(view.get(name))
        views.append(view)
    common = _common(views)
    assert isinstance(common, dict), "views are dataclasses"
    return common


def _empty(value: Any) -> Any:
    return [] if isinstance(value, list) else None


def _common(values: list[Any]) -> Any:
    """What ``values`` (JSON) share, in their shape: equal values as they are, dicts key by key
    and lists of one length item by item; where they differ, an empty list for lists and None
    for anything else (so a board drawing finds every field it expects)."""
    first = values[0]
    if all(value == first for value in values[1:]):
        return first
    if all(isinstance(value, dict) for value in values):
        keys = [key for key in first if all(key in value for value in values)]
        return {key: _common([value[key] for value in values]) for key in keys}
    if all(isinstance(value, list) for value in values):
        if all(len(value) == len(first) for value in values):
            return [_common([value[i] for value in values]) for i in range(len(first))]
        return []
    return None


def events_seen(state: GameState, seat: int | None, since: int) -> list[dict[str, Any]]:
    """The events of ``state.event_log[since:]`` as ``seat`` sees them (None: the referee, who
    sees every event in full; SPECTATOR: public ones and redacted forms), in words."""
    if seat is None:
        events = [make(*fields) for _, make, fields, _ in state.event_log[since:]]
    else:
        events = state.events_for(seat, since)
    return [describe_event(state, event) for event in events]


def describe_event(state: GameState, event: Any) -> dict[str, Any]:
    """``{"seat": the seat it is about or None, "text": "card drawn: deck landscape, ..."}``."""
    about = getattr(event, "seat", None)
    fields = [field.name for field in dataclasses.fields(event) if field.name != "seat"]
    if len(fields) == 1 and _is_action(state, value := getattr(event, fields[0])):
        return {"seat": about, "text": state.describe_action(value)}  # what the seat did
    parts = []
    for name in fields:
        words = _words(state, getattr(event, name))
        if words is not None:
            parts.append(f"{_name(name)} {words}".strip())
    kind = _name(type(event).__name__)
    return {"seat": about, "text": f"{kind}: {', '.join(parts)}" if parts else kind}


def _name(identifier: str) -> str:
    """ "CardDrawn" or "card_drawn" -> "card drawn"."""
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in identifier).strip()
    return spaced.replace("_", " ")


def _words(state: GameState, value: Any) -> str | None:
    """A field's value in words; "" for a true flag (its name says it), None to leave out."""
    if value is None or value is False or value == () or value == "":
        return None
    if value is True:
        return ""
    if isinstance(value, enum.Enum):
        return value.name.lower().replace("_", " ")
    if isinstance(value, tuple):
        items = [_words(state, item) for item in value]
        return ", ".join(item for item in items if item)
    if dataclasses.is_dataclass(value):
        return state.describe_action(value) if _is_action(state, value) else str(value)
    return str(value)


def _is_action(state: GameState, value: Any) -> bool:
    action_type = state.game.action_type
    members = getattr(action_type, "__args__", (action_type,))
    return isinstance(value, members)
