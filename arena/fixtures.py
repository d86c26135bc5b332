"""``arena fixtures``: the requests a bot receives at each decision kind of a game, recorded for
its author's unit tests. Each comes from the kind's constructed position (``arena.positions``),
encoded by the referee's own encoder as the bot in the deciding seat would receive it in
``arena validate``: its StartGame, then its first Decide, whose events tell the whole game so far.

The layout, one directory per game and kind (docs/bots.md, "Unit-testing your bot offline")::

    DIR/GAME/KIND/start_game.binpb   the StartGameRequest, wire bytes
    DIR/GAME/KIND/start_game.json    the same, as protobuf's JSON (the .proto's field names)
    DIR/GAME/KIND/decide.binpb       the DecisionRequest, wire bytes
    DIR/GAME/KIND/decide.json        the same, as JSON
    DIR/GAME/KIND/position.json      where it comes from: players, seed, options, the actions
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from google.protobuf import json_format
from google.protobuf.message import Message

from arena.bot.v1 import bot_pb2
from arena.errors import InputError
from arena.positions import Position, positions
from arena.records import TimeControl
from arena.wire.requests import DecisionEncoder, options_to_proto
from engine.registry import game_names

FILES = ("start_game.binpb", "start_game.json", "decide.binpb", "decide.json", "position.json")


def requests(
    start: Position, time_control: TimeControl = TimeControl()
) -> tuple[bot_pb2.StartGameRequest, bytes]:
    """The StartGameRequest and the serialized DecisionRequest the deciding seat of ``start``
    receives there."""
    state = start.state()
    seat = start.seat
    game_id = f"fixture-{start.game}-{start.kind.lower()}"
    start_game = bot_pb2.StartGameRequest(
        game_id=game_id,
        game=start.game,
        rules_version=state.game.rules_version,
        seat=seat,
        num_players=start.num_players,
        player_names=[f"player-{i}" for i in range(start.num_players)],
        options=options_to_proto(state.options),
        time_control=bot_pb2.TimeControl(
            move_seconds=time_control.move_seconds, bank_seconds=time_control.bank_seconds
        ),
    )
    decide = DecisionEncoder(start.game).request(
        game_id,
        len(state.history),
        state,
        seat,
        state.legal_actions(),
        time_control.move_seconds,
        time_control.bank_seconds,
        0,  # every event from the start
    )
    return start_game, decide


def _json(message: Message) -> str:
    return json_format.MessageToJson(message, preserving_proto_field_name=True) + "\n"


def write_fixtures(games: Sequence[str], out: Path) -> list[Path]:
    """Write the fixtures of ``games`` (every game if empty) under ``out``; the kind
    directories written. Raises InputError for an unknown game, or where ``out`` cannot be
    written."""
    unknown = [game for game in games if game not in game_names()]
    if unknown:
        raise InputError(
            f"unknown game {', '.join(map(repr, unknown))}; known games: {', '.join(game_names())}"
        )
    written = []
    for game in games or game_names():
        for start in positions(game):
            try:
                _write_position(start, out / game / start.kind)
            except OSError as exc:  # a file given as --out, no permission, a full disk
                raise InputError(
                    f"--out {out}: cannot write there: {exc.strerror or exc}"
                ) from None
            written.append(out / game / start.kind)
    return written


def _write_position(start: Position, folder: Path) -> None:
    start_game, decide = requests(start)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "start_game.binpb").write_bytes(start_game.SerializeToString())
    (folder / "start_game.json").write_text(_json(start_game), encoding="utf-8")
    (folder / "decide.binpb").write_bytes(decide)
    decide_json = _json(bot_pb2.DecisionRequest.FromString(decide))
    (folder / "decide.json").write_text(decide_json, encoding="utf-8")
    where = {**start.to_json(), "seat": start.seat}
    (folder / "position.json").write_text(json.dumps(where) + "\n", encoding="utf-8")
