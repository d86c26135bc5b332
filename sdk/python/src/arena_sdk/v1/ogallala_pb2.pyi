from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OgallalaDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OGALLALA_DECISION_UNSPECIFIED: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_CHOOSE_STACK: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_PLACE_CARD: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_LASSO_TARGET: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_PLACE_STOLEN: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_ARCHER_TARGET: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_AXE_BOAT: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_ATTACK: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_PLACE_CAPTURED: _ClassVar[OgallalaDecision]
    OGALLALA_DECISION_DECLARE_END: _ClassVar[OgallalaDecision]

class OgallalaEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OGALLALA_END_REASON_UNSPECIFIED: _ClassVar[OgallalaEndReason]
    OGALLALA_END_REASON_DECLARED: _ClassVar[OgallalaEndReason]
    OGALLALA_END_REASON_FIVE_BOATS: _ClassVar[OgallalaEndReason]
    OGALLALA_END_REASON_CARDS_EXHAUSTED: _ClassVar[OgallalaEndReason]
    OGALLALA_END_REASON_TURN_CAP: _ClassVar[OgallalaEndReason]
    OGALLALA_END_REASON_STALL: _ClassVar[OgallalaEndReason]

class OgallalaSide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OGALLALA_SIDE_UNSPECIFIED: _ClassVar[OgallalaSide]
    OGALLALA_SIDE_LEFT: _ClassVar[OgallalaSide]
    OGALLALA_SIDE_RIGHT: _ClassVar[OgallalaSide]
OGALLALA_DECISION_UNSPECIFIED: OgallalaDecision
OGALLALA_DECISION_CHOOSE_STACK: OgallalaDecision
OGALLALA_DECISION_PLACE_CARD: OgallalaDecision
OGALLALA_DECISION_LASSO_TARGET: OgallalaDecision
OGALLALA_DECISION_PLACE_STOLEN: OgallalaDecision
OGALLALA_DECISION_ARCHER_TARGET: OgallalaDecision
OGALLALA_DECISION_AXE_BOAT: OgallalaDecision
OGALLALA_DECISION_ATTACK: OgallalaDecision
OGALLALA_DECISION_PLACE_CAPTURED: OgallalaDecision
OGALLALA_DECISION_DECLARE_END: OgallalaDecision
OGALLALA_END_REASON_UNSPECIFIED: OgallalaEndReason
OGALLALA_END_REASON_DECLARED: OgallalaEndReason
OGALLALA_END_REASON_FIVE_BOATS: OgallalaEndReason
OGALLALA_END_REASON_CARDS_EXHAUSTED: OgallalaEndReason
OGALLALA_END_REASON_TURN_CAP: OgallalaEndReason
OGALLALA_END_REASON_STALL: OgallalaEndReason
OGALLALA_SIDE_UNSPECIFIED: OgallalaSide
OGALLALA_SIDE_LEFT: OgallalaSide
OGALLALA_SIDE_RIGHT: OgallalaSide

class OgallalaCell(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OgallalaCardView(_message.Message):
    __slots__ = ("row", "col", "kind")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    kind: str
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ..., kind: _Optional[str] = ...) -> None: ...

class OgallalaSegmentView(_message.Message):
    __slots__ = ("row", "col", "length", "complete", "fight", "protected", "points")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    LENGTH_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    FIGHT_FIELD_NUMBER: _ClassVar[int]
    PROTECTED_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    length: int
    complete: bool
    fight: int
    protected: bool
    points: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ..., length: _Optional[int] = ..., complete: _Optional[bool] = ..., fight: _Optional[int] = ..., protected: _Optional[bool] = ..., points: _Optional[int] = ...) -> None: ...

class OgallalaDisplayView(_message.Message):
    __slots__ = ("seat", "height", "width", "cards", "segments", "complete_boats", "score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_FIELD_NUMBER: _ClassVar[int]
    WIDTH_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SEGMENTS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_BOATS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    height: int
    width: int
    cards: _containers.RepeatedCompositeFieldContainer[OgallalaCardView]
    segments: _containers.RepeatedCompositeFieldContainer[OgallalaSegmentView]
    complete_boats: int
    score: int
    def __init__(self, seat: _Optional[int] = ..., height: _Optional[int] = ..., width: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[OgallalaCardView, _Mapping]]] = ..., segments: _Optional[_Iterable[_Union[OgallalaSegmentView, _Mapping]]] = ..., complete_boats: _Optional[int] = ..., score: _Optional[int] = ...) -> None: ...

class OgallalaKindCount(_message.Message):
    __slots__ = ("kind", "count")
    KIND_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    kind: str
    count: int
    def __init__(self, kind: _Optional[str] = ..., count: _Optional[int] = ...) -> None: ...

class OgallalaStackView(_message.Message):
    __slots__ = ("index", "size", "refilled", "contents")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    REFILLED_FIELD_NUMBER: _ClassVar[int]
    CONTENTS_FIELD_NUMBER: _ClassVar[int]
    index: int
    size: int
    refilled: bool
    contents: _containers.RepeatedCompositeFieldContainer[OgallalaKindCount]
    def __init__(self, index: _Optional[int] = ..., size: _Optional[int] = ..., refilled: _Optional[bool] = ..., contents: _Optional[_Iterable[_Union[OgallalaKindCount, _Mapping]]] = ...) -> None: ...

class OgallalaView(_message.Message):
    __slots__ = ("seat", "num_players", "turn", "stall_turns", "active_seat", "decision", "card", "duplicate", "draws", "completed", "display_changed", "attack_card", "captured", "displays", "stacks", "unseen", "discard", "end_reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    STALL_TURNS_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_SEAT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_CHANGED_FIELD_NUMBER: _ClassVar[int]
    ATTACK_CARD_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_FIELD_NUMBER: _ClassVar[int]
    DISPLAYS_FIELD_NUMBER: _ClassVar[int]
    STACKS_FIELD_NUMBER: _ClassVar[int]
    UNSEEN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    num_players: int
    turn: int
    stall_turns: int
    active_seat: int
    decision: OgallalaDecision
    card: str
    duplicate: bool
    draws: int
    completed: bool
    display_changed: bool
    attack_card: OgallalaCell
    captured: _containers.RepeatedScalarFieldContainer[str]
    displays: _containers.RepeatedCompositeFieldContainer[OgallalaDisplayView]
    stacks: _containers.RepeatedCompositeFieldContainer[OgallalaStackView]
    unseen: _containers.RepeatedCompositeFieldContainer[OgallalaKindCount]
    discard: _containers.RepeatedScalarFieldContainer[str]
    end_reason: OgallalaEndReason
    def __init__(self, seat: _Optional[int] = ..., num_players: _Optional[int] = ..., turn: _Optional[int] = ..., stall_turns: _Optional[int] = ..., active_seat: _Optional[int] = ..., decision: _Optional[_Union[OgallalaDecision, str]] = ..., card: _Optional[str] = ..., duplicate: _Optional[bool] = ..., draws: _Optional[int] = ..., completed: _Optional[bool] = ..., display_changed: _Optional[bool] = ..., attack_card: _Optional[_Union[OgallalaCell, _Mapping]] = ..., captured: _Optional[_Iterable[str]] = ..., displays: _Optional[_Iterable[_Union[OgallalaDisplayView, _Mapping]]] = ..., stacks: _Optional[_Iterable[_Union[OgallalaStackView, _Mapping]]] = ..., unseen: _Optional[_Iterable[_Union[OgallalaKindCount, _Mapping]]] = ..., discard: _Optional[_Iterable[str]] = ..., end_reason: _Optional[_Union[OgallalaEndReason, str]] = ...) -> None: ...

class OgallalaDraw(_message.Message):
    __slots__ = ("stack",)
    STACK_FIELD_NUMBER: _ClassVar[int]
    stack: int
    def __init__(self, stack: _Optional[int] = ...) -> None: ...

class OgallalaStop(_message.Message):
    __slots__ = ("stop",)
    STOP_FIELD_NUMBER: _ClassVar[int]
    stop: bool
    def __init__(self, stop: _Optional[bool] = ...) -> None: ...

class OgallalaPlaceCell(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OgallalaPlaceShift(_message.Message):
    __slots__ = ("row", "col", "side")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    side: OgallalaSide
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ..., side: _Optional[_Union[OgallalaSide, str]] = ...) -> None: ...

class OgallalaDiscard(_message.Message):
    __slots__ = ("discard",)
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    discard: bool
    def __init__(self, discard: _Optional[bool] = ...) -> None: ...

class OgallalaTarget(_message.Message):
    __slots__ = ("seat", "row", "col")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    row: int
    col: int
    def __init__(self, seat: _Optional[int] = ..., row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OgallalaSinkBoat(_message.Message):
    __slots__ = ("row", "col")
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    row: int
    col: int
    def __init__(self, row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OgallalaNoAttack(_message.Message):
    __slots__ = ("none",)
    NONE_FIELD_NUMBER: _ClassVar[int]
    none: bool
    def __init__(self, none: _Optional[bool] = ...) -> None: ...

class OgallalaAttack(_message.Message):
    __slots__ = ("seat", "row", "col")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROW_FIELD_NUMBER: _ClassVar[int]
    COL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    row: int
    col: int
    def __init__(self, seat: _Optional[int] = ..., row: _Optional[int] = ..., col: _Optional[int] = ...) -> None: ...

class OgallalaDeclare(_message.Message):
    __slots__ = ("declare",)
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    declare: bool
    def __init__(self, declare: _Optional[bool] = ...) -> None: ...

class OgallalaAction(_message.Message):
    __slots__ = ("draw", "stop", "place_cell", "place_shift", "discard", "target", "sink_boat", "no_attack", "attack", "declare")
    DRAW_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    PLACE_CELL_FIELD_NUMBER: _ClassVar[int]
    PLACE_SHIFT_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    SINK_BOAT_FIELD_NUMBER: _ClassVar[int]
    NO_ATTACK_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    draw: OgallalaDraw
    stop: OgallalaStop
    place_cell: OgallalaPlaceCell
    place_shift: OgallalaPlaceShift
    discard: OgallalaDiscard
    target: OgallalaTarget
    sink_boat: OgallalaSinkBoat
    no_attack: OgallalaNoAttack
    attack: OgallalaAttack
    declare: OgallalaDeclare
    def __init__(self, draw: _Optional[_Union[OgallalaDraw, _Mapping]] = ..., stop: _Optional[_Union[OgallalaStop, _Mapping]] = ..., place_cell: _Optional[_Union[OgallalaPlaceCell, _Mapping]] = ..., place_shift: _Optional[_Union[OgallalaPlaceShift, _Mapping]] = ..., discard: _Optional[_Union[OgallalaDiscard, _Mapping]] = ..., target: _Optional[_Union[OgallalaTarget, _Mapping]] = ..., sink_boat: _Optional[_Union[OgallalaSinkBoat, _Mapping]] = ..., no_attack: _Optional[_Union[OgallalaNoAttack, _Mapping]] = ..., attack: _Optional[_Union[OgallalaAttack, _Mapping]] = ..., declare: _Optional[_Union[OgallalaDeclare, _Mapping]] = ...) -> None: ...

class OgallalaEvent(_message.Message):
    __slots__ = ("action_taken", "card_drawn", "stack_refilled")
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    STACK_REFILLED_FIELD_NUMBER: _ClassVar[int]
    action_taken: OgallalaActionTaken
    card_drawn: OgallalaCardDrawn
    stack_refilled: OgallalaStackRefilled
    def __init__(self, action_taken: _Optional[_Union[OgallalaActionTaken, _Mapping]] = ..., card_drawn: _Optional[_Union[OgallalaCardDrawn, _Mapping]] = ..., stack_refilled: _Optional[_Union[OgallalaStackRefilled, _Mapping]] = ...) -> None: ...

class OgallalaActionTaken(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: OgallalaAction
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[OgallalaAction, _Mapping]] = ...) -> None: ...

class OgallalaCardDrawn(_message.Message):
    __slots__ = ("seat", "stack", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STACK_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    stack: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., stack: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class OgallalaStackRefilled(_message.Message):
    __slots__ = ("stack", "size")
    STACK_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    stack: int
    size: int
    def __init__(self, stack: _Optional[int] = ..., size: _Optional[int] = ...) -> None: ...
