"""Oregon's board and card enumerations, shared by actions and views. Values start at 1 and equal
the numbers of the proto enums
(0 is the proto's ``*_UNSPECIFIED``); internal indices are ``value - 1``."""

from __future__ import annotations

import enum


class Card(enum.IntEnum):
    """The 12 card types in canonical order (rules 4.3): 5 landscape symbols, 7 buildings."""

    WAGON = 1
    BISON = 2
    SETTLER = 3
    EAGLE = 4
    CAMPFIRE = 5
    POST_OFFICE = 6
    HARBOR = 7
    CHURCH = 8
    WAREHOUSE = 9
    TRAIN_STATION = 10
    COAL_PIT = 11
    GOLD_MINE = 12


class Building(enum.IntEnum):
    POST_OFFICE = 1
    HARBOR = 2
    CHURCH = 3
    WAREHOUSE = 4
    TRAIN_STATION = 5
    COAL_PIT = 6
    GOLD_MINE = 7


class Piece(enum.IntEnum):
    FARMER = 1
    BUILDING = 2


class Deck(enum.IntEnum):
    LANDSCAPE = 1
    BUILDING = 2


CARDS: tuple[Card, ...] = tuple(Card)
BUILDING_TYPES: tuple[Building, ...] = tuple(Building)
DECKS: tuple[Deck, ...] = tuple(Deck)
