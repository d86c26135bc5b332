"""Nim end to end, in a process of its own whose ``arena_sdk`` is generated from proto/ plus
nim.proto (tests/test_adding_a_game.py sets PYTHONPATH so): registered in the engine registry
and nowhere else, then carried over the wire, played by real bot processes through the referee,
stored, and replayed by the web arena. Prints what it saw as JSON.

    python -m tests.toy_game.play DATABASE
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import trio
from starlette.testclient import TestClient

from engine import registry

registry.register("nim", "tests.toy_game.nim")

import arena.bot.v1  # noqa: E402 - after the registration, as an arena with Nim built in
from arena.match_storage import store_match  # noqa: E402
from arena.records import Outcome  # noqa: E402
from arena.referee.match import play_match  # noqa: E402
from arena.web.app import create_app  # noqa: E402
from arena.wire import codec  # noqa: E402
from tests.support.bots import sample_bot  # noqa: E402

SEED = 5


def wire_round_trips() -> bool:
    """A view, every legal action and every event through protobuf bytes and back."""
    state = registry.get_game("nim").new_game(2, SEED)
    state.apply_index(1)

    def through_bytes(message: Any) -> Any:
        return type(message).FromString(message.SerializeToString())

    view = state.view(0)
    actions = list(state.legal_actions())
    events = state.events_for(0)
    return (
        codec.decode_view("nim", through_bytes(codec.encode_view("nim", view))) == view
        and [
            codec.decode_action("nim", through_bytes(codec.encode_action("nim", action)))
            for action in actions
        ]
        == actions
        and [
            codec.decode_event("nim", through_bytes(codec.encode_event("nim", event)))
            for event in events
        ]
        == events
    )


def main(db: Path) -> dict[str, Any]:
    bots = [sample_bot("random-python"), sample_bot("random-python")]
    record = trio.run(play_match, "nim", bots, SEED)
    game_id = store_match(db, record, bots, rated=True)  # on the board, as a tournament is
    client = TestClient(create_app(db, warm_up=False))
    replay = client.get(f"/api/games/{game_id}/replay").json()
    page = client.get(f"/games/{game_id}").text
    boards = client.get("/api/leaderboard", params={"game": "nim"}).json()["boards"]
    return {
        "pb2 modules": sorted(name for name in arena.bot.v1.__all__ if name.startswith("nim")),
        "wire round trips": wire_round_trips(),
        "outcomes": [seat.outcome is Outcome.FINISHED for seat in record.seats],
        "voided": record.void_reason,
        "decisions": len(record.actions),
        "replayed frames": len(replay["outline"]),
        "result": replay["result"]["ranks"],
        "ranks": [seat.rank for seat in record.seats],
        "page names the game": 'data-game="nim"' in page,
        "board scripts": page.count("/static/boards/"),
        "boards": [(board["game"], board["players"], len(board["rows"])) for board in boards],
    }


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
