"""Merkator's goods, colours and locations, built from the data file in its canonical order (so
enum value = data index + 1); shared by actions and views."""

from __future__ import annotations

import enum

from engine.merkator import data

# The members come from the data file, so mypy cannot list them (it needs literal member names);
# code refers to members by value or by iteration, never by a name mypy would have to know.
Good = enum.IntEnum("Good", list(data.GOOD_IDS))  # type: ignore[misc]
Colour = enum.IntEnum("Colour", [c.upper() for c in data.COLOUR_IDS])  # type: ignore[misc]
Location = enum.IntEnum("Location", list(data.LOCATION_IDS))  # type: ignore[misc]
GOODS: tuple[Good, ...] = tuple(Good)
COLOURS: tuple[Colour, ...] = tuple(Colour)
LOCATIONS: tuple[Location, ...] = tuple(Location)
