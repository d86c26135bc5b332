from . import merkator_pb2 as _merkator_pb2
from . import ogallala_pb2 as _ogallala_pb2
from . import oregon_pb2 as _oregon_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ProtocolVersion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROTOCOL_VERSION_UNSPECIFIED: _ClassVar[ProtocolVersion]
    PROTOCOL_VERSION_1: _ClassVar[ProtocolVersion]

class Outcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OUTCOME_UNSPECIFIED: _ClassVar[Outcome]
    OUTCOME_FINISHED: _ClassVar[Outcome]
    OUTCOME_ILLEGAL: _ClassVar[Outcome]
    OUTCOME_TIMEOUT: _ClassVar[Outcome]
    OUTCOME_CRASH: _ClassVar[Outcome]
PROTOCOL_VERSION_UNSPECIFIED: ProtocolVersion
PROTOCOL_VERSION_1: ProtocolVersion
OUTCOME_UNSPECIFIED: Outcome
OUTCOME_FINISHED: Outcome
OUTCOME_ILLEGAL: Outcome
OUTCOME_TIMEOUT: Outcome
OUTCOME_CRASH: Outcome

class HandshakeRequest(_message.Message):
    __slots__ = ("protocol_version",)
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: ProtocolVersion
    def __init__(self, protocol_version: _Optional[_Union[ProtocolVersion, str]] = ...) -> None: ...

class HandshakeReply(_message.Message):
    __slots__ = ("name", "version", "protocol_version", "games")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    protocol_version: ProtocolVersion
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., protocol_version: _Optional[_Union[ProtocolVersion, str]] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class GameOption(_message.Message):
    __slots__ = ("name", "bool_value", "int_value", "float_value", "string_value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    BOOL_VALUE_FIELD_NUMBER: _ClassVar[int]
    INT_VALUE_FIELD_NUMBER: _ClassVar[int]
    FLOAT_VALUE_FIELD_NUMBER: _ClassVar[int]
    STRING_VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    bool_value: bool
    int_value: int
    float_value: float
    string_value: str
    def __init__(self, name: _Optional[str] = ..., bool_value: _Optional[bool] = ..., int_value: _Optional[int] = ..., float_value: _Optional[float] = ..., string_value: _Optional[str] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("move_seconds", "bank_seconds")
    MOVE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    move_seconds: float
    bank_seconds: float
    def __init__(self, move_seconds: _Optional[float] = ..., bank_seconds: _Optional[float] = ...) -> None: ...

class StartGameRequest(_message.Message):
    __slots__ = ("game_id", "game", "rules_version", "seat", "num_players", "player_names", "options", "time_control")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    game: str
    rules_version: str
    seat: int
    num_players: int
    player_names: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.RepeatedCompositeFieldContainer[GameOption]
    time_control: TimeControl
    def __init__(self, game_id: _Optional[str] = ..., game: _Optional[str] = ..., rules_version: _Optional[str] = ..., seat: _Optional[int] = ..., num_players: _Optional[int] = ..., player_names: _Optional[_Iterable[str]] = ..., options: _Optional[_Iterable[_Union[GameOption, _Mapping]]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ...) -> None: ...

class StartGameReply(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GameView(_message.Message):
    __slots__ = ("oregon", "ogallala", "merkator")
    OREGON_FIELD_NUMBER: _ClassVar[int]
    OGALLALA_FIELD_NUMBER: _ClassVar[int]
    MERKATOR_FIELD_NUMBER: _ClassVar[int]
    oregon: _oregon_pb2.OregonView
    ogallala: _ogallala_pb2.OgallalaView
    merkator: _merkator_pb2.MerkatorView
    def __init__(self, oregon: _Optional[_Union[_oregon_pb2.OregonView, _Mapping]] = ..., ogallala: _Optional[_Union[_ogallala_pb2.OgallalaView, _Mapping]] = ..., merkator: _Optional[_Union[_merkator_pb2.MerkatorView, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("oregon", "ogallala", "merkator")
    OREGON_FIELD_NUMBER: _ClassVar[int]
    OGALLALA_FIELD_NUMBER: _ClassVar[int]
    MERKATOR_FIELD_NUMBER: _ClassVar[int]
    oregon: _oregon_pb2.OregonEvent
    ogallala: _ogallala_pb2.OgallalaEvent
    merkator: _merkator_pb2.MerkatorEvent
    def __init__(self, oregon: _Optional[_Union[_oregon_pb2.OregonEvent, _Mapping]] = ..., ogallala: _Optional[_Union[_ogallala_pb2.OgallalaEvent, _Mapping]] = ..., merkator: _Optional[_Union[_merkator_pb2.MerkatorEvent, _Mapping]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("oregon", "ogallala", "merkator")
    OREGON_FIELD_NUMBER: _ClassVar[int]
    OGALLALA_FIELD_NUMBER: _ClassVar[int]
    MERKATOR_FIELD_NUMBER: _ClassVar[int]
    oregon: _oregon_pb2.OregonAction
    ogallala: _ogallala_pb2.OgallalaAction
    merkator: _merkator_pb2.MerkatorAction
    def __init__(self, oregon: _Optional[_Union[_oregon_pb2.OregonAction, _Mapping]] = ..., ogallala: _Optional[_Union[_ogallala_pb2.OgallalaAction, _Mapping]] = ..., merkator: _Optional[_Union[_merkator_pb2.MerkatorAction, _Mapping]] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("move_seconds", "bank_seconds")
    MOVE_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    move_seconds: float
    bank_seconds: float
    def __init__(self, move_seconds: _Optional[float] = ..., bank_seconds: _Optional[float] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("game_id", "decision_number", "decision_kind", "view", "legal_actions", "clock", "seat", "events")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DECISION_KIND_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    decision_number: int
    decision_kind: str
    view: GameView
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    clock: Clock
    seat: int
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, game_id: _Optional[str] = ..., decision_number: _Optional[int] = ..., decision_kind: _Optional[str] = ..., view: _Optional[_Union[GameView, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., seat: _Optional[int] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class DecisionReply(_message.Message):
    __slots__ = ("decision_number", "action_index", "comment")
    DECISION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    decision_number: int
    action_index: int
    comment: str
    def __init__(self, decision_number: _Optional[int] = ..., action_index: _Optional[int] = ..., comment: _Optional[str] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("seat", "player_name", "score", "rank", "outcome", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    player_name: str
    score: float
    rank: int
    outcome: Outcome
    reason: str
    def __init__(self, seat: _Optional[int] = ..., player_name: _Optional[str] = ..., score: _Optional[float] = ..., rank: _Optional[int] = ..., outcome: _Optional[_Union[Outcome, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class EndGameRequest(_message.Message):
    __slots__ = ("game_id", "results", "final_views", "voided", "seat", "events")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    FINAL_VIEWS_FIELD_NUMBER: _ClassVar[int]
    VOIDED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    results: _containers.RepeatedCompositeFieldContainer[SeatResult]
    final_views: _containers.RepeatedCompositeFieldContainer[GameView]
    voided: bool
    seat: int
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    def __init__(self, game_id: _Optional[str] = ..., results: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., final_views: _Optional[_Iterable[_Union[GameView, _Mapping]]] = ..., voided: _Optional[bool] = ..., seat: _Optional[int] = ..., events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ...) -> None: ...

class EndGameReply(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
