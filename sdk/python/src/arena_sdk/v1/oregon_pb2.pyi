from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OregonCard(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OREGON_CARD_UNSPECIFIED: _ClassVar[OregonCard]
    OREGON_CARD_WAGON: _ClassVar[OregonCard]
    OREGON_CARD_BISON: _ClassVar[OregonCard]
    OREGON_CARD_SETTLER: _ClassVar[OregonCard]
    OREGON_CARD_EAGLE: _ClassVar[OregonCard]
    OREGON_CARD_CAMPFIRE: _ClassVar[OregonCard]
    OREGON_CARD_POST_OFFICE: _ClassVar[OregonCard]
    OREGON_CARD_HARBOR: _ClassVar[OregonCard]
    OREGON_CARD_CHURCH: _ClassVar[OregonCard]
    OREGON_CARD_WAREHOUSE: _ClassVar[OregonCard]
    OREGON_CARD_TRAIN_STATION: _ClassVar[OregonCard]
    OREGON_CARD_COAL_PIT: _ClassVar[OregonCard]
    OREGON_CARD_GOLD_MINE: _ClassVar[OregonCard]

class OregonBuilding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OREGON_BUILDING_UNSPECIFIED: _ClassVar[OregonBuilding]
    OREGON_BUILDING_POST_OFFICE: _ClassVar[OregonBuilding]
    OREGON_BUILDING_HARBOR: _ClassVar[OregonBuilding]
    OREGON_BUILDING_CHURCH: _ClassVar[OregonBuilding]
    OREGON_BUILDING_WAREHOUSE: _ClassVar[OregonBuilding]
    OREGON_BUILDING_TRAIN_STATION: _ClassVar[OregonBuilding]
    OREGON_BUILDING_COAL_PIT: _ClassVar[OregonBuilding]
    OREGON_BUILDING_GOLD_MINE: _ClassVar[OregonBuilding]

class OregonPiece(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OREGON_PIECE_UNSPECIFIED: _ClassVar[OregonPiece]
    OREGON_PIECE_FARMER: _ClassVar[OregonPiece]
    OREGON_PIECE_BUILDING: _ClassVar[OregonPiece]

class OregonDeck(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OREGON_DECK_UNSPECIFIED: _ClassVar[OregonDeck]
    OREGON_DECK_LANDSCAPE: _ClassVar[OregonDeck]
    OREGON_DECK_BUILDING: _ClassVar[OregonDeck]

class OregonDecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OREGON_DECISION_KIND_UNSPECIFIED: _ClassVar[OregonDecisionKind]
    OREGON_DECISION_KIND_PLACE_START_TILE: _ClassVar[OregonDecisionKind]
    OREGON_DECISION_KIND_PLAY: _ClassVar[OregonDecisionKind]
    OREGON_DECISION_KIND_USE_EXTRA_TURN: _ClassVar[OregonDecisionKind]
    OREGON_DECISION_KIND_DISCARD_WHEN_STUCK: _ClassVar[OregonDecisionKind]
    OREGON_DECISION_KIND_DRAW: _ClassVar[OregonDecisionKind]
OREGON_CARD_UNSPECIFIED: OregonCard
OREGON_CARD_WAGON: OregonCard
OREGON_CARD_BISON: OregonCard
OREGON_CARD_SETTLER: OregonCard
OREGON_CARD_EAGLE: OregonCard
OREGON_CARD_CAMPFIRE: OregonCard
OREGON_CARD_POST_OFFICE: OregonCard
OREGON_CARD_HARBOR: OregonCard
OREGON_CARD_CHURCH: OregonCard
OREGON_CARD_WAREHOUSE: OregonCard
OREGON_CARD_TRAIN_STATION: OregonCard
OREGON_CARD_COAL_PIT: OregonCard
OREGON_CARD_GOLD_MINE: OregonCard
OREGON_BUILDING_UNSPECIFIED: OregonBuilding
OREGON_BUILDING_POST_OFFICE: OregonBuilding
OREGON_BUILDING_HARBOR: OregonBuilding
OREGON_BUILDING_CHURCH: OregonBuilding
OREGON_BUILDING_WAREHOUSE: OregonBuilding
OREGON_BUILDING_TRAIN_STATION: OregonBuilding
OREGON_BUILDING_COAL_PIT: OregonBuilding
OREGON_BUILDING_GOLD_MINE: OregonBuilding
OREGON_PIECE_UNSPECIFIED: OregonPiece
OREGON_PIECE_FARMER: OregonPiece
OREGON_PIECE_BUILDING: OregonPiece
OREGON_DECK_UNSPECIFIED: OregonDeck
OREGON_DECK_LANDSCAPE: OregonDeck
OREGON_DECK_BUILDING: OregonDeck
OREGON_DECISION_KIND_UNSPECIFIED: OregonDecisionKind
OREGON_DECISION_KIND_PLACE_START_TILE: OregonDecisionKind
OREGON_DECISION_KIND_PLAY: OregonDecisionKind
OREGON_DECISION_KIND_USE_EXTRA_TURN: OregonDecisionKind
OREGON_DECISION_KIND_DISCARD_WHEN_STUCK: OregonDecisionKind
OREGON_DECISION_KIND_DRAW: OregonDecisionKind

class OregonPlacedFarmer(_message.Message):
    __slots__ = ("row", "col", "seat")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    seat: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class OregonPlacedBuilding(_message.Message):
    __slots__ = ("row", "col", "building", "start_tile")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    START_TILE_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    building: OregonBuilding
    start_tile: bool
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ..., building: _Optional[_Union[OregonBuilding, str]] = ..., start_tile: _Optional[bool] = ...) -> None: ...

class OregonPlayerInfo(_message.Message):
    __slots__ = ("seat", "score", "farmers_in_supply", "farmers_on_board", "joker_active", "extra_turn_active", "start_tile", "start_tile_placed", "landscape_cards", "building_cards", "coal_tiles", "gold_tiles", "coal_values", "gold_values")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    FARMERS_IN_SUPPLY_FIELD_NUMBER: _ClassVar[int]
    FARMERS_ON_BOARD_FIELD_NUMBER: _ClassVar[int]
    JOKER_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    EXTRA_TURN_ACTIVE_FIELD_NUMBER: _ClassVar[int]
    START_TILE_FIELD_NUMBER: _ClassVar[int]
    START_TILE_PLACED_FIELD_NUMBER: _ClassVar[int]
    LANDSCAPE_CARDS_FIELD_NUMBER: _ClassVar[int]
    BUILDING_CARDS_FIELD_NUMBER: _ClassVar[int]
    COAL_TILES_FIELD_NUMBER: _ClassVar[int]
    GOLD_TILES_FIELD_NUMBER: _ClassVar[int]
    COAL_VALUES_FIELD_NUMBER: _ClassVar[int]
    GOLD_VALUES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    score: int
    farmers_in_supply: int
    farmers_on_board: int
    joker_active: bool
    extra_turn_active: bool
    start_tile: OregonBuilding
    start_tile_placed: bool
    landscape_cards: int
    building_cards: int
    coal_tiles: int
    gold_tiles: int
    coal_values: _containers.RepeatedScalarFieldContainer[int]
    gold_values: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., score: _Optional[int] = ..., farmers_in_supply: _Optional[int] = ..., farmers_on_board: _Optional[int] = ..., joker_active: _Optional[bool] = ..., extra_turn_active: _Optional[bool] = ..., start_tile: _Optional[_Union[OregonBuilding, str]] = ..., start_tile_placed: _Optional[bool] = ..., landscape_cards: _Optional[int] = ..., building_cards: _Optional[int] = ..., coal_tiles: _Optional[int] = ..., gold_tiles: _Optional[int] = ..., coal_values: _Optional[_Iterable[int]] = ..., gold_values: _Optional[_Iterable[int]] = ...) -> None: ...

class OregonView(_message.Message):
    __slots__ = ("seat", "num_players", "round", "active_seat", "decision", "in_extra_play", "end_triggered", "game_over", "terrain", "players", "hand", "farmers", "buildings", "stacks", "landscape_deck_size", "building_deck_size", "landscape_discard", "building_discard", "out_of_game", "coal_stack_size", "gold_stack_size")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    IN_EXTRA_PLAY_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    TERRAIN_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    FARMERS_FIELD_NUMBER: _ClassVar[int]
    BUILDINGS_FIELD_NUMBER: _ClassVar[int]
    STACKS_FIELD_NUMBER: _ClassVar[int]
    LANDSCAPE_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    BUILDING_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    LANDSCAPE_DISCARD_FIELD_NUMBER: _ClassVar[int]
    BUILDING_DISCARD_FIELD_NUMBER: _ClassVar[int]
    OUT_OF_GAME_FIELD_NUMBER: _ClassVar[int]
    COAL_STACK_SIZE_FIELD_NUMBER: _ClassVar[int]
    GOLD_STACK_SIZE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_players: int
    round: int
    active_seat: int
    decision: OregonDecisionKind
    in_extra_play: bool
    end_triggered: bool
    game_over: bool
    terrain: _containers.RepeatedScalarFieldContainer[str]
    players: _containers.RepeatedCompositeFieldContainer[OregonPlayerInfo]
    hand: _containers.RepeatedScalarFieldContainer[OregonCard]
    farmers: _containers.RepeatedCompositeFieldContainer[OregonPlacedFarmer]
    buildings: _containers.RepeatedCompositeFieldContainer[OregonPlacedBuilding]
    stacks: _containers.RepeatedScalarFieldContainer[int]
    landscape_deck_size: int
    building_deck_size: int
    landscape_discard: _containers.RepeatedScalarFieldContainer[OregonCard]
    building_discard: _containers.RepeatedScalarFieldContainer[OregonCard]
    out_of_game: _containers.RepeatedScalarFieldContainer[OregonCard]
    coal_stack_size: int
    gold_stack_size: int
    def __init__(self, seat: _Optional[int] = ..., num_players: _Optional[int] = ..., round: _Optional[int] = ..., active_seat: _Optional[int] = ..., decision: _Optional[_Union[OregonDecisionKind, str]] = ..., in_extra_play: _Optional[bool] = ..., end_triggered: _Optional[bool] = ..., game_over: _Optional[bool] = ..., terrain: _Optional[_Iterable[str]] = ..., players: _Optional[_Iterable[_Union[OregonPlayerInfo, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[OregonCard, str]]] = ..., farmers: _Optional[_Iterable[_Union[OregonPlacedFarmer, _Mapping]]] = ..., buildings: _Optional[_Iterable[_Union[OregonPlacedBuilding, _Mapping]]] = ..., stacks: _Optional[_Iterable[int]] = ..., landscape_deck_size: _Optional[int] = ..., building_deck_size: _Optional[int] = ..., landscape_discard: _Optional[_Iterable[_Union[OregonCard, str]]] = ..., building_discard: _Optional[_Iterable[_Union[OregonCard, str]]] = ..., out_of_game: _Optional[_Iterable[_Union[OregonCard, str]]] = ..., coal_stack_size: _Optional[int] = ..., gold_stack_size: _Optional[int] = ...) -> None: ...

class OregonPlaceStartTile(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OregonPlay(_message.Message):
    __slots__ = ("piece", "building", "cards", "joker", "row", "col")
    PIECE_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    JOKER_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    piece: OregonPiece
    building: OregonBuilding
    cards: _containers.RepeatedScalarFieldContainer[OregonCard]
    joker: bool
    row: int
    col: int
    def __init__(self, piece: _Optional[_Union[OregonPiece, str]] = ..., building: _Optional[_Union[OregonBuilding, str]] = ..., cards: _Optional[_Iterable[_Union[OregonCard, str]]] = ..., joker: _Optional[bool] = ..., row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OregonUseExtraTurn(_message.Message):
    __slots__ = ("use",)
    USE_FIELD_NUMBER: _ClassVar[int]
    use: bool
    def __init__(self, use: _Optional[bool] = ...) -> None: ...

class OregonDiscardWhenStuck(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[OregonCard]
    def __init__(self, cards: _Optional[_Iterable[_Union[OregonCard, str]]] = ...) -> None: ...

class OregonDraw(_message.Message):
    __slots__ = ("deck",)
    DECK_FIELD_NUMBER: _ClassVar[int]
    deck: OregonDeck
    def __init__(self, deck: _Optional[_Union[OregonDeck, str]] = ...) -> None: ...

class OregonAction(_message.Message):
    __slots__ = ("place_start_tile", "play", "use_extra_turn", "discard_when_stuck", "draw")
    PLACE_START_TILE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    USE_EXTRA_TURN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_WHEN_STUCK_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    place_start_tile: OregonPlaceStartTile
    play: OregonPlay
    use_extra_turn: OregonUseExtraTurn
    discard_when_stuck: OregonDiscardWhenStuck
    draw: OregonDraw
    def __init__(self, place_start_tile: _Optional[_Union[OregonPlaceStartTile, _Mapping]] = ..., play: _Optional[_Union[OregonPlay, _Mapping]] = ..., use_extra_turn: _Optional[_Union[OregonUseExtraTurn, _Mapping]] = ..., discard_when_stuck: _Optional[_Union[OregonDiscardWhenStuck, _Mapping]] = ..., draw: _Optional[_Union[OregonDraw, _Mapping]] = ...) -> None: ...

class OregonEvent(_message.Message):
    __slots__ = ("action_taken", "card_drawn", "cards_left_game", "deck_rebuilt", "tile_taken", "start_tile_dealt")
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    CARDS_LEFT_GAME_FIELD_NUMBER: _ClassVar[int]
    DECK_REBUILT_FIELD_NUMBER: _ClassVar[int]
    TILE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    START_TILE_DEALT_FIELD_NUMBER: _ClassVar[int]
    action_taken: OregonActionTaken
    card_drawn: OregonCardDrawn
    cards_left_game: OregonCardsLeftGame
    deck_rebuilt: OregonDeckRebuilt
    tile_taken: OregonTileTaken
    start_tile_dealt: OregonStartTileDealt
    def __init__(self, action_taken: _Optional[_Union[OregonActionTaken, _Mapping]] = ..., card_drawn: _Optional[_Union[OregonCardDrawn, _Mapping]] = ..., cards_left_game: _Optional[_Union[OregonCardsLeftGame, _Mapping]] = ..., deck_rebuilt: _Optional[_Union[OregonDeckRebuilt, _Mapping]] = ..., tile_taken: _Optional[_Union[OregonTileTaken, _Mapping]] = ..., start_tile_dealt: _Optional[_Union[OregonStartTileDealt, _Mapping]] = ...) -> None: ...

class OregonActionTaken(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: OregonAction
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[OregonAction, _Mapping]] = ...) -> None: ...

class OregonCardDrawn(_message.Message):
    __slots__ = ("seat", "deck", "card", "dead")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    deck: OregonDeck
    card: OregonCard
    dead: bool
    def __init__(self, seat: _Optional[int] = ..., deck: _Optional[_Union[OregonDeck, str]] = ..., card: _Optional[_Union[OregonCard, str]] = ..., dead: _Optional[bool] = ...) -> None: ...

class OregonCardsLeftGame(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[OregonCard]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[OregonCard, str]]] = ...) -> None: ...

class OregonDeckRebuilt(_message.Message):
    __slots__ = ("deck", "size")
    DECK_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    deck: OregonDeck
    size: int
    def __init__(self, deck: _Optional[_Union[OregonDeck, str]] = ..., size: _Optional[int] = ...) -> None: ...

class OregonTileTaken(_message.Message):
    __slots__ = ("seat", "gold", "value")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    gold: bool
    value: int
    def __init__(self, seat: _Optional[int] = ..., gold: _Optional[bool] = ..., value: _Optional[int] = ...) -> None: ...

class OregonStartTileDealt(_message.Message):
    __slots__ = ("seat", "building")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    building: OregonBuilding
    def __init__(self, seat: _Optional[int] = ..., building: _Optional[_Union[OregonBuilding, str]] = ...) -> None: ...
