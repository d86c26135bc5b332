"""Merkator's goods, colours and locations, built from the data file in its canonical order (so
enum value = data index + 1); shared by actions and views."""

from __future__ import annotations

import enum

from engine.merkator import data

Good = enum.IntEnum("Good", list(data.GOOD_IDS))
Colour = enum.IntEnum("Colour", [c.upper() for c in data.COLOUR_IDS])
Location = enum.IntEnum("Location", list(data.LOCATION_IDS))
GOODS: tuple[Good, ...] = tuple(Good)
COLOURS: tuple[Colour, ...] = tuple(Colour)
LOCATIONS: tuple[Location, ...] = tuple(Location)
