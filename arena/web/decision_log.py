"""The decision log beside the board: every decision and what became known after it, in words.

It is made from the frames of one viewer alone (``arena.web.replay.build_frames`` for the referee
or a seat, ``arena.web.live`` for a spectator), never from the stored game: watched as a seat, it
can hold nothing that seat's frames do not, so another seat's choice, time and comment stay out
of it as they stay out of the frames, and events come as that seat saw them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def log_entries(
    frames: Sequence[dict[str, Any]],
    scores: Sequence[Sequence[float]],
    *,
    start: int = 0,
    has_decision_details: bool = True,
) -> list[dict[str, Any]]:
    """One entry per decision from ``start`` on (``frames``: one per decision and the position
    after the last, with ``scores`` alike): ``number``, ``seat`` (who decided),
    ``decision`` (its kind, and what it is about where the frame says), ``events`` (what the
    viewer learnt after it, ``{"seat", "text"}``), ``scores`` (each seat's running score after
    it); and where the viewer sees the decision's details, ``action`` (the chosen one in words),
    ``seconds`` (None: the arena decided for a forfeited seat) and ``comment``. The events
    before the first decision (the deal) are the first frame's: ``setup_events`` gives them."""
    entries = []
    for frame in frames[start : len(frames) - 1]:  # the last is the position now, or the end
        number = frame["number"]
        entry: dict[str, Any] = {
            "number": number,
            "seat": frame["seat"],
            "decision": frame.get("decision") or frame["kind"],
            "events": frames[number + 1]["events"],
            "scores": list(scores[number + 1]),
        }
        if "legal" in frame:
            entry["action"] = frame["legal"][frame["chosen"]]
            entry["comment"] = frame["comment"]
            entry["seconds"] = frame["seconds"]
            entry["by_arena"] = frame["seconds"] is None and has_decision_details
        entries.append(entry)
    return entries


def setup_events(frames: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the viewer learnt before the first decision (the deal, the first draws)."""
    return frames[0]["events"] if frames else []


def decision_log(replay: dict[str, Any]) -> dict[str, Any]:
    """The log of a replay (``build_frames``' result) as the API sends it."""
    frames, scores = replay["frames"], replay["scores"]
    return {
        "game_id": replay["game_id"],
        "seat": replay["seat"],
        "num_players": replay["num_players"],
        "first_scores": list(scores[0]) if scores else None,
        "setup": setup_events(frames),
        "entries": log_entries(frames, scores, has_decision_details=replay["has_decision_details"]),
    }
