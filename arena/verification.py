"""What a stored game needs so that ``arena replay --verify`` detects any change to it.

A game is stored with its *seal*: the digest of the engine state after setup and after every
decision, and of the full final state with its RNG (``states``), and one digest (``digest``) over
everything that makes the game what it is:
game type, rules version, options, seed, player count, status, actions, those state digests, and
per seat the bot version (id and content hash), score, rank and outcome. Replaying the stored seed
and actions must give the same state digests (a changed action or seed shows at the first decision
it touches), and the stored fields must give the same seal digest (a changed score, rank or seat
assignment, which a replay cannot see, shows there).

A seal cannot be removed unnoticed: the database records from which game on it sealed every game
(``arena.storage.models.Sealing``, schema 4), so a game from there on without a seal fails.

The digests detect changes, not forgery: someone who edits a game and recomputes its seal with
this module is not caught, nor is someone who removes a seal and moves the sealing record past
that game (that would need a signing key kept away from the database).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.engines import load_game
from arena.errors import ReplayError, SetupError
from engine.core import EngineError, GameState, OptionValue

SEAL_FORMAT = 1
_STATE_DIGEST_HEX = 16  # 64 bits per decision: ample against accidents, small to store


@dataclass(frozen=True)
class SealedSeat:
    seat: int
    bot_version_id: int
    content_hash: str
    score: float
    rank: int
    outcome: str


@dataclass(frozen=True)
class SealedGame:
    """The fields of a stored game that its seal binds together."""

    game: str
    rules_version: str
    options: Mapping[str, OptionValue]
    seed: int
    num_players: int
    status: str
    actions: Sequence[int]
    seats: Sequence[SealedSeat]


def state_digests(game: SealedGame) -> list[str]:
    """Digests of the engine state after setup and after each action, replaying ``game``'s log
    (a voided game's log stops early: so does the list), and last the full ``state_digest`` of
    the final state. Per decision the digest covers the state's fields (``digest_fields``) but
    not its RNG, whose ``repr`` costs as much again; the RNG's state shows in the fields it
    deals into and, in full, in the last digest. Raises ReplayError if the log does not fit the
    engine. (Not ``Game.replay``: a log that does not replay stores this loop's error text in
    its seal, which must stay as it was for seals stored earlier to verify.)"""
    try:
        engine = load_game(game.game)
        if engine.rules_version != game.rules_version:
            raise ReplayError(
                f"recorded with rules {game.rules_version}, this engine "
                f"implements {engine.rules_version}"
            )
        state = engine.new_game(game.num_players, game.seed, dict(game.options))
        digests = [_fields_digest(state)]
        for number, index in enumerate(game.actions):
            if state.is_over:
                raise ReplayError(f"the log goes on after the game's end (action {number})")
            state.apply_index(index)
            digests.append(_fields_digest(state))
        digests.append(_short(state.state_digest()))
    except (EngineError, SetupError) as exc:
        raise ReplayError(f"the log does not replay: {exc}") from None
    return digests


def seal_digest(game: SealedGame, states: Sequence[str]) -> str:
    content: dict[str, Any] = {
        "format": SEAL_FORMAT,
        "game": game.game,
        "rules_version": game.rules_version,
        "options": dict(game.options),
        "seed": game.seed,
        "num_players": game.num_players,
        "status": game.status,
        "actions": list(game.actions),
        "states": list(states),
        "seats": [
            [s.seat, s.bot_version_id, s.content_hash, float(s.score), s.rank, s.outcome]
            for s in sorted(game.seats, key=lambda seat: seat.seat)
        ],
    }
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def replay_states(game: SealedGame) -> tuple[list[str], str]:
    """(state digests, "") or, for a log that does not replay (a game voided by an engine
    fault), ([], the reason): the state part of a seal, computed before storing."""
    try:
        return state_digests(game), ""
    except ReplayError as exc:
        return [], str(exc)


def seal(game: SealedGame, states: tuple[list[str], str]) -> dict[str, Any]:
    """The seal to store with ``game`` (the ``verification`` column), from ``replay_states``."""
    digests, replay_error = states
    sealed: dict[str, Any] = {
        "format": SEAL_FORMAT,
        "states": digests,
        "digest": seal_digest(game, digests),
    }
    if replay_error:
        sealed["replay_error"] = replay_error
    return sealed


def check(game: SealedGame, stored_seal: Mapping[str, Any]) -> list[str]:
    """Every way ``game`` disagrees with its stored seal; empty when it is intact."""
    if stored_seal.get("format") != SEAL_FORMAT:
        return [f"unknown seal format {stored_seal.get('format')!r}"]
    stored_states = list(stored_seal.get("states") or [])
    problems = []
    replayed, replay_error = replay_states(game)
    if replay_error != stored_seal.get("replay_error", ""):
        problems.append(replay_error or "the log replays now but did not when it was recorded")
    elif replayed != stored_states:
        first = next(
            (i for i, (a, b) in enumerate(zip(replayed, stored_states)) if a != b),
            min(len(replayed), len(stored_states)),
        )
        where = (
            "the deal (seed or options)"
            if first == 0
            else f"decision {first - 1}"
            if first < len(game.actions) + 1
            else "the end of the game"
        )
        problems.append(f"the replayed state differs from the recorded one from {where} on")
    if seal_digest(game, stored_states) != stored_seal.get("digest"):
        problems.append(
            "the game's seal does not match its stored seed, options, actions, "
            "seats, bot versions or result"
        )
    return problems


def _fields_digest(state: GameState) -> str:
    return _short(repr(sorted(state.digest_fields().items())).encode())


def _short(state_digest: bytes) -> str:
    return hashlib.sha256(state_digest).hexdigest()[:_STATE_DIGEST_HEX]
