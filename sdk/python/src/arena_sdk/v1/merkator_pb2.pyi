from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MerkatorGood(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MERKATOR_GOOD_UNSPECIFIED: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_LIVESTOCK: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_MUSKETS: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_GRAIN: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_SALTPETER: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_IRON: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_COPPER: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_HAM: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_FISH_OIL: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_VEGETABLES: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_CALFSKIN: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_CLOTH: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_COAL: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_PLUMS: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_WINE: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_CITRUS: _ClassVar[MerkatorGood]
    MERKATOR_GOOD_SPICES: _ClassVar[MerkatorGood]

class MerkatorColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MERKATOR_COLOUR_UNSPECIFIED: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_GREEN: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_YELLOW: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_BLACK: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_PURPLE: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_ORANGE: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_GREY: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_BLUE: _ClassVar[MerkatorColour]
    MERKATOR_COLOUR_RED: _ClassVar[MerkatorColour]

class MerkatorLocation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MERKATOR_LOCATION_UNSPECIFIED: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_HAM: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_HOL: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_DAN: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_SWE: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_ENG: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_FRA: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_RUS: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_SPA: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_DEN: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_BOH: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_ITA: _ClassVar[MerkatorLocation]
    MERKATOR_LOCATION_NEW: _ClassVar[MerkatorLocation]

class MerkatorDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MERKATOR_DECISION_UNSPECIFIED: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_INVEST: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_TRAVEL: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_SPLIT_CUBES: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_SPOILAGE_REFLIP: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_SPOIL_CHOOSE: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_FULFIL: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_TRADE_INPUT: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_JOIN: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_PERMIT_JOIN: _ClassVar[MerkatorDecision]
    MERKATOR_DECISION_FINAL_PLACE: _ClassVar[MerkatorDecision]

class MerkatorInvestOption(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MERKATOR_INVEST_OPTION_UNSPECIFIED: _ClassVar[MerkatorInvestOption]
    MERKATOR_INVEST_OPTION_SELL: _ClassVar[MerkatorInvestOption]
    MERKATOR_INVEST_OPTION_BUY_BONUS: _ClassVar[MerkatorInvestOption]
    MERKATOR_INVEST_OPTION_BUY_BUILDING: _ClassVar[MerkatorInvestOption]
    MERKATOR_INVEST_OPTION_DISCARD_COIN: _ClassVar[MerkatorInvestOption]
    MERKATOR_INVEST_OPTION_DONE: _ClassVar[MerkatorInvestOption]
MERKATOR_GOOD_UNSPECIFIED: MerkatorGood
MERKATOR_GOOD_LIVESTOCK: MerkatorGood
MERKATOR_GOOD_MUSKETS: MerkatorGood
MERKATOR_GOOD_GRAIN: MerkatorGood
MERKATOR_GOOD_SALTPETER: MerkatorGood
MERKATOR_GOOD_IRON: MerkatorGood
MERKATOR_GOOD_COPPER: MerkatorGood
MERKATOR_GOOD_HAM: MerkatorGood
MERKATOR_GOOD_FISH_OIL: MerkatorGood
MERKATOR_GOOD_VEGETABLES: MerkatorGood
MERKATOR_GOOD_CALFSKIN: MerkatorGood
MERKATOR_GOOD_CLOTH: MerkatorGood
MERKATOR_GOOD_COAL: MerkatorGood
MERKATOR_GOOD_PLUMS: MerkatorGood
MERKATOR_GOOD_WINE: MerkatorGood
MERKATOR_GOOD_CITRUS: MerkatorGood
MERKATOR_GOOD_SPICES: MerkatorGood
MERKATOR_COLOUR_UNSPECIFIED: MerkatorColour
MERKATOR_COLOUR_GREEN: MerkatorColour
MERKATOR_COLOUR_YELLOW: MerkatorColour
MERKATOR_COLOUR_BLACK: MerkatorColour
MERKATOR_COLOUR_PURPLE: MerkatorColour
MERKATOR_COLOUR_ORANGE: MerkatorColour
MERKATOR_COLOUR_GREY: MerkatorColour
MERKATOR_COLOUR_BLUE: MerkatorColour
MERKATOR_COLOUR_RED: MerkatorColour
MERKATOR_LOCATION_UNSPECIFIED: MerkatorLocation
MERKATOR_LOCATION_HAM: MerkatorLocation
MERKATOR_LOCATION_HOL: MerkatorLocation
MERKATOR_LOCATION_DAN: MerkatorLocation
MERKATOR_LOCATION_SWE: MerkatorLocation
MERKATOR_LOCATION_ENG: MerkatorLocation
MERKATOR_LOCATION_FRA: MerkatorLocation
MERKATOR_LOCATION_RUS: MerkatorLocation
MERKATOR_LOCATION_SPA: MerkatorLocation
MERKATOR_LOCATION_DEN: MerkatorLocation
MERKATOR_LOCATION_BOH: MerkatorLocation
MERKATOR_LOCATION_ITA: MerkatorLocation
MERKATOR_LOCATION_NEW: MerkatorLocation
MERKATOR_DECISION_UNSPECIFIED: MerkatorDecision
MERKATOR_DECISION_INVEST: MerkatorDecision
MERKATOR_DECISION_TRAVEL: MerkatorDecision
MERKATOR_DECISION_SPLIT_CUBES: MerkatorDecision
MERKATOR_DECISION_SPOILAGE_REFLIP: MerkatorDecision
MERKATOR_DECISION_SPOIL_CHOOSE: MerkatorDecision
MERKATOR_DECISION_FULFIL: MerkatorDecision
MERKATOR_DECISION_TRADE_INPUT: MerkatorDecision
MERKATOR_DECISION_JOIN: MerkatorDecision
MERKATOR_DECISION_PERMIT_JOIN: MerkatorDecision
MERKATOR_DECISION_FINAL_PLACE: MerkatorDecision
MERKATOR_INVEST_OPTION_UNSPECIFIED: MerkatorInvestOption
MERKATOR_INVEST_OPTION_SELL: MerkatorInvestOption
MERKATOR_INVEST_OPTION_BUY_BONUS: MerkatorInvestOption
MERKATOR_INVEST_OPTION_BUY_BUILDING: MerkatorInvestOption
MERKATOR_INVEST_OPTION_DISCARD_COIN: MerkatorInvestOption
MERKATOR_INVEST_OPTION_DONE: MerkatorInvestOption

class MerkatorInvest(_message.Message):
    __slots__ = ("option", "contract", "slot")
    OPTION_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    option: MerkatorInvestOption
    contract: str
    slot: int
    def __init__(self, option: _Optional[_Union[MerkatorInvestOption, str]] = ..., contract: _Optional[str] = ..., slot: _Optional[int] = ...) -> None: ...

class MerkatorTravel(_message.Message):
    __slots__ = ("location",)
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    location: MerkatorLocation
    def __init__(self, location: _Optional[_Union[MerkatorLocation, str]] = ...) -> None: ...

class MerkatorSplitCubes(_message.Message):
    __slots__ = ("good_a",)
    GOOD_A_FIELD_NUMBER: _ClassVar[int]
    good_a: int
    def __init__(self, good_a: _Optional[int] = ...) -> None: ...

class MerkatorSpoilageReflip(_message.Message):
    __slots__ = ("reflip",)
    REFLIP_FIELD_NUMBER: _ClassVar[int]
    reflip: bool
    def __init__(self, reflip: _Optional[bool] = ...) -> None: ...

class MerkatorSpoilChoose(_message.Message):
    __slots__ = ("good", "tile")
    GOOD_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    good: MerkatorGood
    tile: MerkatorColour
    def __init__(self, good: _Optional[_Union[MerkatorGood, str]] = ..., tile: _Optional[_Union[MerkatorColour, str]] = ...) -> None: ...

class MerkatorFulfil(_message.Message):
    __slots__ = ("contract", "done")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    contract: str
    done: bool
    def __init__(self, contract: _Optional[str] = ..., done: _Optional[bool] = ...) -> None: ...

class MerkatorTradeInput(_message.Message):
    __slots__ = ("markers", "good", "tile")
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    markers: bool
    good: MerkatorGood
    tile: MerkatorColour
    def __init__(self, markers: _Optional[bool] = ..., good: _Optional[_Union[MerkatorGood, str]] = ..., tile: _Optional[_Union[MerkatorColour, str]] = ...) -> None: ...

class MerkatorJoin(_message.Message):
    __slots__ = ("join",)
    JOIN_FIELD_NUMBER: _ClassVar[int]
    join: bool
    def __init__(self, join: _Optional[bool] = ...) -> None: ...

class MerkatorPermitJoin(_message.Message):
    __slots__ = ("allow",)
    ALLOW_FIELD_NUMBER: _ClassVar[int]
    allow: bool
    def __init__(self, allow: _Optional[bool] = ...) -> None: ...

class MerkatorFinalPlace(_message.Message):
    __slots__ = ("good",)
    GOOD_FIELD_NUMBER: _ClassVar[int]
    good: MerkatorGood
    def __init__(self, good: _Optional[_Union[MerkatorGood, str]] = ...) -> None: ...

class MerkatorAction(_message.Message):
    __slots__ = ("invest", "travel", "split_cubes", "spoilage_reflip", "spoil_choose", "fulfil", "trade_input", "join", "permit_join", "final_place")
    INVEST_FIELD_NUMBER: _ClassVar[int]
    TRAVEL_FIELD_NUMBER: _ClassVar[int]
    SPLIT_CUBES_FIELD_NUMBER: _ClassVar[int]
    SPOILAGE_REFLIP_FIELD_NUMBER: _ClassVar[int]
    SPOIL_CHOOSE_FIELD_NUMBER: _ClassVar[int]
    FULFIL_FIELD_NUMBER: _ClassVar[int]
    TRADE_INPUT_FIELD_NUMBER: _ClassVar[int]
    JOIN_FIELD_NUMBER: _ClassVar[int]
    PERMIT_JOIN_FIELD_NUMBER: _ClassVar[int]
    FINAL_PLACE_FIELD_NUMBER: _ClassVar[int]
    invest: MerkatorInvest
    travel: MerkatorTravel
    split_cubes: MerkatorSplitCubes
    spoilage_reflip: MerkatorSpoilageReflip
    spoil_choose: MerkatorSpoilChoose
    fulfil: MerkatorFulfil
    trade_input: MerkatorTradeInput
    join: MerkatorJoin
    permit_join: MerkatorPermitJoin
    final_place: MerkatorFinalPlace
    def __init__(self, invest: _Optional[_Union[MerkatorInvest, _Mapping]] = ..., travel: _Optional[_Union[MerkatorTravel, _Mapping]] = ..., split_cubes: _Optional[_Union[MerkatorSplitCubes, _Mapping]] = ..., spoilage_reflip: _Optional[_Union[MerkatorSpoilageReflip, _Mapping]] = ..., spoil_choose: _Optional[_Union[MerkatorSpoilChoose, _Mapping]] = ..., fulfil: _Optional[_Union[MerkatorFulfil, _Mapping]] = ..., trade_input: _Optional[_Union[MerkatorTradeInput, _Mapping]] = ..., join: _Optional[_Union[MerkatorJoin, _Mapping]] = ..., permit_join: _Optional[_Union[MerkatorPermitJoin, _Mapping]] = ..., final_place: _Optional[_Union[MerkatorFinalPlace, _Mapping]] = ...) -> None: ...

class MerkatorGoodCount(_message.Message):
    __slots__ = ("good", "count")
    GOOD_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    good: MerkatorGood
    count: int
    def __init__(self, good: _Optional[_Union[MerkatorGood, str]] = ..., count: _Optional[int] = ...) -> None: ...

class MerkatorContract(_message.Message):
    __slots__ = ("id", "value", "location", "goods")
    ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    id: str
    value: int
    location: MerkatorLocation
    goods: _containers.RepeatedCompositeFieldContainer[MerkatorGoodCount]
    def __init__(self, id: _Optional[str] = ..., value: _Optional[int] = ..., location: _Optional[_Union[MerkatorLocation, str]] = ..., goods: _Optional[_Iterable[_Union[MerkatorGoodCount, _Mapping]]] = ...) -> None: ...

class MerkatorHeldContract(_message.Message):
    __slots__ = ("contract", "fulfilled_this_turn")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    FULFILLED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    contract: MerkatorContract
    fulfilled_this_turn: bool
    def __init__(self, contract: _Optional[_Union[MerkatorContract, _Mapping]] = ..., fulfilled_this_turn: _Optional[bool] = ...) -> None: ...

class MerkatorBonusCard(_message.Message):
    __slots__ = ("id", "location", "good", "cost")
    ID_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    id: str
    location: MerkatorLocation
    good: MerkatorGood
    cost: int
    def __init__(self, id: _Optional[str] = ..., location: _Optional[_Union[MerkatorLocation, str]] = ..., good: _Optional[_Union[MerkatorGood, str]] = ..., cost: _Optional[int] = ...) -> None: ...

class MerkatorBuilding(_message.Message):
    __slots__ = ("id", "name", "cost", "type_dependent", "rule")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    TYPE_DEPENDENT_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    cost: int
    type_dependent: bool
    rule: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., cost: _Optional[int] = ..., type_dependent: _Optional[bool] = ..., rule: _Optional[str] = ...) -> None: ...

class MerkatorBonusSlot(_message.Message):
    __slots__ = ("slot", "card")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    slot: int
    card: MerkatorBonusCard
    def __init__(self, slot: _Optional[int] = ..., card: _Optional[_Union[MerkatorBonusCard, _Mapping]] = ...) -> None: ...

class MerkatorBuildingSlot(_message.Message):
    __slots__ = ("slot", "card")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    slot: int
    card: MerkatorBuilding
    def __init__(self, slot: _Optional[int] = ..., card: _Optional[_Union[MerkatorBuilding, _Mapping]] = ...) -> None: ...

class MerkatorPile(_message.Message):
    __slots__ = ("value", "count", "top")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    value: int
    count: int
    top: MerkatorContract
    def __init__(self, value: _Optional[int] = ..., count: _Optional[int] = ..., top: _Optional[_Union[MerkatorContract, _Mapping]] = ...) -> None: ...

class MerkatorTimeMarker(_message.Message):
    __slots__ = ("row", "space", "letters")
    ROW_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    LETTERS_FIELD_NUMBER: _ClassVar[int]
    row: int
    space: int
    letters: str
    def __init__(self, row: _Optional[int] = ..., space: _Optional[int] = ..., letters: _Optional[str] = ...) -> None: ...

class MerkatorMapCubes(_message.Message):
    __slots__ = ("location", "colour", "cubes")
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    CUBES_FIELD_NUMBER: _ClassVar[int]
    location: MerkatorLocation
    colour: MerkatorColour
    cubes: int
    def __init__(self, location: _Optional[_Union[MerkatorLocation, str]] = ..., colour: _Optional[_Union[MerkatorColour, str]] = ..., cubes: _Optional[int] = ...) -> None: ...

class MerkatorPlayer(_message.Message):
    __slots__ = ("seat", "coins", "markers", "contracts", "kontor", "tile", "bonus_cards", "buildings")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    KONTOR_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    BONUS_CARDS_FIELD_NUMBER: _ClassVar[int]
    BUILDINGS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    coins: int
    markers: int
    contracts: _containers.RepeatedCompositeFieldContainer[MerkatorHeldContract]
    kontor: _containers.RepeatedScalarFieldContainer[int]
    tile: _containers.RepeatedScalarFieldContainer[MerkatorColour]
    bonus_cards: _containers.RepeatedCompositeFieldContainer[MerkatorBonusCard]
    buildings: _containers.RepeatedCompositeFieldContainer[MerkatorBuilding]
    def __init__(self, seat: _Optional[int] = ..., coins: _Optional[int] = ..., markers: _Optional[int] = ..., contracts: _Optional[_Iterable[_Union[MerkatorHeldContract, _Mapping]]] = ..., kontor: _Optional[_Iterable[int]] = ..., tile: _Optional[_Iterable[_Union[MerkatorColour, str]]] = ..., bonus_cards: _Optional[_Iterable[_Union[MerkatorBonusCard, _Mapping]]] = ..., buildings: _Optional[_Iterable[_Union[MerkatorBuilding, _Mapping]]] = ...) -> None: ...

class MerkatorView(_message.Message):
    __slots__ = ("seat", "join_needs_permission", "alsterhaus_misprint", "max_rounds", "decision", "deciding_seat", "active_seat", "turn", "round", "end_triggered", "final_phase", "final_turns_left", "figure", "map", "pools", "time_board", "piles", "discard_count", "bonus_deck_count", "bonus_slots", "building_deck_count", "building_slots", "players", "gain_left", "spoil_letters", "spoil_loss_left", "trade_contract", "trades_left", "trade_inputs", "joiner", "final_place_colour")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    JOIN_NEEDS_PERMISSION_FIELD_NUMBER: _ClassVar[int]
    ALSTERHAUS_MISPRINT_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    DECIDING_SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    FINAL_PHASE_FIELD_NUMBER: _ClassVar[int]
    FINAL_TURNS_LEFT_FIELD_NUMBER: _ClassVar[int]
    FIGURE_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    POOLS_FIELD_NUMBER: _ClassVar[int]
    TIME_BOARD_FIELD_NUMBER: _ClassVar[int]
    PILES_FIELD_NUMBER: _ClassVar[int]
    DISCARD_COUNT_FIELD_NUMBER: _ClassVar[int]
    BONUS_DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    BONUS_SLOTS_FIELD_NUMBER: _ClassVar[int]
    BUILDING_DECK_COUNT_FIELD_NUMBER: _ClassVar[int]
    BUILDING_SLOTS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    GAIN_LEFT_FIELD_NUMBER: _ClassVar[int]
    SPOIL_LETTERS_FIELD_NUMBER: _ClassVar[int]
    SPOIL_LOSS_LEFT_FIELD_NUMBER: _ClassVar[int]
    TRADE_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRADES_LEFT_FIELD_NUMBER: _ClassVar[int]
    TRADE_INPUTS_FIELD_NUMBER: _ClassVar[int]
    JOINER_FIELD_NUMBER: _ClassVar[int]
    FINAL_PLACE_COLOUR_FIELD_NUMBER: _ClassVar[int]
    seat: int
    join_needs_permission: bool
    alsterhaus_misprint: bool
    max_rounds: int
    decision: MerkatorDecision
    deciding_seat: int
    active_seat: int
    turn: int
    round: int
    end_triggered: bool
    final_phase: bool
    final_turns_left: int
    figure: MerkatorLocation
    map: _containers.RepeatedCompositeFieldContainer[MerkatorMapCubes]
    pools: _containers.RepeatedScalarFieldContainer[int]
    time_board: _containers.RepeatedCompositeFieldContainer[MerkatorTimeMarker]
    piles: _containers.RepeatedCompositeFieldContainer[MerkatorPile]
    discard_count: int
    bonus_deck_count: int
    bonus_slots: _containers.RepeatedCompositeFieldContainer[MerkatorBonusSlot]
    building_deck_count: int
    building_slots: _containers.RepeatedCompositeFieldContainer[MerkatorBuildingSlot]
    players: _containers.RepeatedCompositeFieldContainer[MerkatorPlayer]
    gain_left: int
    spoil_letters: str
    spoil_loss_left: int
    trade_contract: str
    trades_left: int
    trade_inputs: int
    joiner: int
    final_place_colour: MerkatorColour
    def __init__(self, seat: _Optional[int] = ..., join_needs_permission: _Optional[bool] = ..., alsterhaus_misprint: _Optional[bool] = ..., max_rounds: _Optional[int] = ..., decision: _Optional[_Union[MerkatorDecision, str]] = ..., deciding_seat: _Optional[int] = ..., active_seat: _Optional[int] = ..., turn: _Optional[int] = ..., round: _Optional[int] = ..., end_triggered: _Optional[bool] = ..., final_phase: _Optional[bool] = ..., final_turns_left: _Optional[int] = ..., figure: _Optional[_Union[MerkatorLocation, str]] = ..., map: _Optional[_Iterable[_Union[MerkatorMapCubes, _Mapping]]] = ..., pools: _Optional[_Iterable[int]] = ..., time_board: _Optional[_Iterable[_Union[MerkatorTimeMarker, _Mapping]]] = ..., piles: _Optional[_Iterable[_Union[MerkatorPile, _Mapping]]] = ..., discard_count: _Optional[int] = ..., bonus_deck_count: _Optional[int] = ..., bonus_slots: _Optional[_Iterable[_Union[MerkatorBonusSlot, _Mapping]]] = ..., building_deck_count: _Optional[int] = ..., building_slots: _Optional[_Iterable[_Union[MerkatorBuildingSlot, _Mapping]]] = ..., players: _Optional[_Iterable[_Union[MerkatorPlayer, _Mapping]]] = ..., gain_left: _Optional[int] = ..., spoil_letters: _Optional[str] = ..., spoil_loss_left: _Optional[int] = ..., trade_contract: _Optional[str] = ..., trades_left: _Optional[int] = ..., trade_inputs: _Optional[int] = ..., joiner: _Optional[int] = ..., final_place_colour: _Optional[_Union[MerkatorColour, str]] = ...) -> None: ...

class MerkatorEvent(_message.Message):
    __slots__ = ("action_taken", "marker_revealed", "slot_refilled", "contract_drawn", "pile_rebuilt", "hand_dealt", "pile_top_shown")
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    MARKER_REVEALED_FIELD_NUMBER: _ClassVar[int]
    SLOT_REFILLED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_DRAWN_FIELD_NUMBER: _ClassVar[int]
    PILE_REBUILT_FIELD_NUMBER: _ClassVar[int]
    HAND_DEALT_FIELD_NUMBER: _ClassVar[int]
    PILE_TOP_SHOWN_FIELD_NUMBER: _ClassVar[int]
    action_taken: MerkatorActionTaken
    marker_revealed: MerkatorMarkerRevealed
    slot_refilled: MerkatorSlotRefilled
    contract_drawn: MerkatorContractDrawn
    pile_rebuilt: MerkatorPileRebuilt
    hand_dealt: MerkatorHandDealt
    pile_top_shown: MerkatorPileTopShown
    def __init__(self, action_taken: _Optional[_Union[MerkatorActionTaken, _Mapping]] = ..., marker_revealed: _Optional[_Union[MerkatorMarkerRevealed, _Mapping]] = ..., slot_refilled: _Optional[_Union[MerkatorSlotRefilled, _Mapping]] = ..., contract_drawn: _Optional[_Union[MerkatorContractDrawn, _Mapping]] = ..., pile_rebuilt: _Optional[_Union[MerkatorPileRebuilt, _Mapping]] = ..., hand_dealt: _Optional[_Union[MerkatorHandDealt, _Mapping]] = ..., pile_top_shown: _Optional[_Union[MerkatorPileTopShown, _Mapping]] = ...) -> None: ...

class MerkatorActionTaken(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: MerkatorAction
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[MerkatorAction, _Mapping]] = ...) -> None: ...

class MerkatorMarkerRevealed(_message.Message):
    __slots__ = ("row", "space", "letters")
    ROW_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    LETTERS_FIELD_NUMBER: _ClassVar[int]
    row: int
    space: int
    letters: str
    def __init__(self, row: _Optional[int] = ..., space: _Optional[int] = ..., letters: _Optional[str] = ...) -> None: ...

class MerkatorSlotRefilled(_message.Message):
    __slots__ = ("building", "slot", "card")
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    building: bool
    slot: int
    card: str
    def __init__(self, building: _Optional[bool] = ..., slot: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class MerkatorContractDrawn(_message.Message):
    __slots__ = ("seat", "contract")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ...) -> None: ...

class MerkatorPileRebuilt(_message.Message):
    __slots__ = ("value", "size")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    value: int
    size: int
    def __init__(self, value: _Optional[int] = ..., size: _Optional[int] = ...) -> None: ...

class MerkatorHandDealt(_message.Message):
    __slots__ = ("seat", "markers", "contracts", "bonus_cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    BONUS_CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    markers: int
    contracts: _containers.RepeatedScalarFieldContainer[str]
    bonus_cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., markers: _Optional[int] = ..., contracts: _Optional[_Iterable[str]] = ..., bonus_cards: _Optional[_Iterable[str]] = ...) -> None: ...

class MerkatorPileTopShown(_message.Message):
    __slots__ = ("value", "size", "contract")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    value: int
    size: int
    contract: str
    def __init__(self, value: _Optional[int] = ..., size: _Optional[int] = ..., contract: _Optional[str] = ...) -> None: ...
