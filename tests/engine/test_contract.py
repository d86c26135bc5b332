"""The engine contract (engine/README.md), checked for every game in the registry at every player
count: a new game registered there gets these tests without writing any.

Each game's own directory keeps what only that game can check: its worked examples, its rules'
invariants during random play, what exactly its views must show and hide, and a bot's rebuilding
of the public record from its events.
"""

from __future__ import annotations

import dataclasses
import random
import typing

import pytest

from engine import all_games
from engine.core import EngineError, Game, GameOverError, IllegalActionError, OptionError
from tests.engine.harness import deep_check_count, play_random_game, random_decision_points

CASES = [
    pytest.param(game, players, id=f"{game.name}-{players}p")
    for game in all_games()
    for players in range(game.min_players, game.max_players + 1)
]
GAMES = [pytest.param(game, id=game.name) for game in all_games()]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_same_seed_and_actions_give_the_same_game_and_replay_reproduces_it(game: Game, players):
    """Same seed, same actions: identical full states (RNG included) at every step; re-running
    the action log, by hand or through ``Game.replay``, reproduces every state and the result."""
    for seed in range(deep_check_count(5)):
        first = game.new_game(players, seed)
        second = game.new_game(players, seed)
        rng = random.Random(seed)
        digests = [first.digest()]
        assert first.digest() == second.digest()
        while not first.is_over:
            index = rng.randrange(len(first.legal_actions()))
            first.apply_index(index)
            second.apply_index(index)
            assert first.digest() == second.digest()
            digests.append(first.digest())
        replayed = game.new_game(players, seed)
        for step, index in enumerate(first.history):
            assert replayed.digest() == digests[step]
            replayed.apply_index(index)
        assert replayed.digest() == digests[-1]
        assert replayed.result() == first.result()
        logged = game.replay(players, seed, first.history, rules_version=game.rules_version)
        assert logged.result() == first.result()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_clone_is_independent_of_its_original(game: Game, players):
    for seed in range(deep_check_count(3)):
        for state in random_decision_points(game, players, seed, every=5):
            if state.is_over:
                continue
            before = state.digest()
            copy = state.clone()
            assert type(copy) is type(state) and copy.digest() == before
            rng = random.Random(seed)
            while not copy.is_over:
                copy.apply_index(rng.randrange(len(copy.legal_actions())))
            assert state.digest() == before, "acting on a clone changed the original"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_illegal_input_is_rejected_and_changes_nothing(game: Game, players):
    for seed in range(deep_check_count(3)):
        for state in random_decision_points(game, players, seed, every=11):
            before = state.digest()
            if state.is_over:
                with pytest.raises(GameOverError):
                    state.apply_index(0)
            else:
                n = len(state.legal_actions())
                for bad in (n, -1, n + 5):
                    with pytest.raises(IllegalActionError):
                        state.apply_index(bad)
                with pytest.raises(IllegalActionError):
                    state.apply(object())
            assert state.digest() == before, "a rejected action changed the state"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_views_survive_resampling_of_hidden_information(game: Game, players):
    """The leak test: for every seat, a state resampled from that seat's view gives the seat the
    byte-identical view, and the same legal actions when it is that seat's decision."""
    for seed in range(deep_check_count(3)):
        rng = random.Random(seed)
        for state in random_decision_points(game, players, seed, every=5):
            for seat in range(players):
                view = state.view(seat)
                assert isinstance(view, game.view_type)
                for _ in range(2):
                    sampled = game.sample_state(view, rng)
                    assert repr(sampled.view(seat)) == repr(view), (
                        f"seat {seat}'s view changed when hidden information was resampled"
                    )
                    if not state.is_over and state.current_seat == seat:
                        assert repr(sampled.legal_actions()) == repr(state.legal_actions())


@pytest.mark.parametrize(("game", "players"), CASES)
def test_sampled_states_play_on_to_a_valid_end(game: Game, players):
    rng = random.Random(players)
    for state in random_decision_points(game, players, seed=9, every=17):
        if state.is_over:
            continue
        sampled = game.sample_state(state.view(state.current_seat), rng)
        assert sampled.decision_kind == state.decision_kind
        while not sampled.is_over:
            sampled.apply_index(rng.randrange(len(sampled.legal_actions())))
        assert len(sampled.result().ranks) == players


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_decision_is_real_and_every_seat_has_a_default(game: Game, players):
    """A decision with one option is applied by the engine, so a seat is only ever asked to
    choose among two or more; the arena's default for a failed seat is one of them; rendering
    works for the referee and for every seat."""

    def check(state, before, index) -> None:
        if state.is_over:
            assert state.decision_kind == "" and state.legal_actions() == ()
            return
        legal = state.legal_actions()
        assert len(legal) >= 2, f"a single-option {state.decision_kind} reached a seat"
        assert 0 <= state.default_action_index() < len(legal)
        assert all(dataclasses.is_dataclass(action) for action in legal)
        if before is not None:
            assert state.history == [*before.history, index]

    for seed in range(deep_check_count(2)):
        state = play_random_game(game, players, seed, on_step=check)
        assert state.render() and all(state.render(seat) for seat in range(players))
        with pytest.raises(GameOverError):
            state.apply_index(0)


@pytest.mark.parametrize("game", GAMES)
def test_player_counts_and_options_are_checked(game: Game):
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(EngineError, match=f"{game.min_players}-{game.max_players} players"):
            game.new_game(players, seed=1)
    with pytest.raises(OptionError, match="unknown option"):
        game.new_game(game.min_players, seed=1, options={"no_such_option": True})
    state = game.new_game(game.min_players, seed=1, options=dict(game.default_options))
    assert state.options == game.default_options and state.num_players == game.min_players
    with pytest.raises(EngineError):
        state.result()  # not over yet


@pytest.mark.parametrize("game", GAMES)
def test_replay_refuses_a_log_of_other_rules(game: Game):
    with pytest.raises(EngineError, match="recorded with rules"):
        game.replay(game.min_players, 1, [], rules_version=game.rules_version + "-other")


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_legal_action_has_its_own_words(game: Game, players):
    """``describe_action`` gives each legal action of a decision different, readable words (what
    ``arena match --show``, ``arena replay --moves`` and the web arena print), never a repr."""
    for seed in range(deep_check_count(3)):
        for state in random_decision_points(game, players, seed, every=3):
            if state.is_over:
                assert state.describe_decision() == ""
                continue
            words = [state.describe_action(action) for action in state.legal_actions()]
            assert len(set(words)) == len(words), words
            assert all(w and "<" not in w and "=" not in w for w in words), words
            assert state.describe_decision().startswith(state.decision_kind)


# --- events -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players"), CASES)
def test_events_tell_a_seat_nothing_its_views_do_not(game: Game, players):
    """The leak test of events: at a seat's decision, a state resampled from its view and stepped
    with the same choice gives the seat the same events (up to its next decision) whenever it
    gives the seat the same view afterwards. When the views differ the step showed the seat some
    chance, such as its own draw, and the events may differ with it. (Each game's
    tests/engine/<game>/test_events.py checks what other seats' private events show.)"""
    compared = 0
    for seed in range(deep_check_count(3)):
        rng = random.Random(seed)
        for state in random_decision_points(game, players, seed, every=2):
            if state.is_over:
                continue
            seat = state.current_seat
            index = rng.randrange(len(state.legal_actions()))
            for _ in range(2):
                real, sampled = state.clone(), game.sample_state(state.view(seat), rng)
                since_real, since_sampled = len(real.event_log), len(sampled.event_log)
                real.apply_index(index)
                sampled.apply_index(index)
                if repr(real.view(seat)) == repr(sampled.view(seat)):
                    compared += 1
                    assert real.events_for(seat, since_real) == sampled.events_for(
                        seat, since_sampled
                    ), f"seat {seat}'s events changed when hidden information was resampled"
    assert compared > 0


@pytest.mark.parametrize(("game", "players"), CASES)
def test_events_at_each_decision_add_up_to_the_seats_history(game: Game, players):
    """A seat told its events since its previous decision at each decision and at the end has
    its whole history; its ActionTaken events hold, in order, every action chosen at a real
    decision (draws are told by the games' CardDrawn events instead)."""
    kinds = set(typing.get_args(game.event_type))
    for seed in range(deep_check_count(2)):
        state = game.new_game(players, seed)
        rng = random.Random(seed)
        told = [0] * players
        received: list[list] = [[] for _ in range(players)]
        chosen = []
        while not state.is_over:
            seat = state.current_seat
            received[seat] += state.events_for(seat, told[seat])
            told[seat] = len(state.event_log)
            legal = state.legal_actions()
            index = rng.randrange(len(legal))
            chosen.append((seat, legal[index]))
            state.apply_index(index)
        for seat in range(players):
            received[seat] += state.events_for(seat, told[seat])
            history = state.events_for(seat)
            assert received[seat] == history
            assert all(type(event) in kinds for event in history)
            taken = iter((e.seat, e.action) for e in history if type(e).__name__ == "ActionTaken")
            for seat_and_action in chosen:
                if type(seat_and_action[1]).__name__ != "Draw":
                    assert seat_and_action in taken, f"{seat_and_action} missing or out of order"


@pytest.mark.parametrize("game", GAMES)
def test_replay_shows_each_position_before_its_action(game: Game):
    """``before_each`` (the replay viewer and ``arena replay --moves``) sees every decision in
    order, before its action is applied, and a log that does not fit is refused before the
    action is looked up."""
    played = play_random_game(game, game.min_players, seed=3)
    seen: list[tuple[int, int, int | None, int]] = []

    def before_each(step: int, state, index: int) -> None:
        seen.append((step, len(state.history), state.current_seat, index))

    final = game.replay(game.min_players, 3, played.history, before_each=before_each)
    assert final.result() == played.result()
    assert [(step, index) for step, _, _, index in seen] == list(enumerate(played.history))
    assert all(applied == step for step, applied, _, _ in seen)
    assert all(seat is not None for _, _, seat, _ in seen)

    first_legal = len(game.new_game(game.min_players, 3).legal_actions())
    for log, message in [
        ([first_legal], f"index {first_legal} of {first_legal} legal actions"),
        ([-1], "index -1 of"),
        ([*played.history, 0], "after the game's end"),
    ]:
        with pytest.raises(EngineError, match=message):
            game.replay(game.min_players, 3, log, before_each=lambda *_: None)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_running_scores_are_public_a_number_per_seat_alike_in_every_view(game: Game, players):
    """The web replay charts ``running_scores`` from one seat's view for every watcher: it must
    not depend on whose view it is (else it would leak, or differ between seats)."""
    assert game.running_score_label and game.running_score_label != "score"
    for seed in range(deep_check_count(3)):
        for state in random_decision_points(game, players, seed, every=5):
            scores = [game.running_scores(state.view(seat)) for seat in range(players)]
            assert all(s == scores[0] for s in scores), scores
            assert len(scores[0]) == players
            assert all(isinstance(value, float) for value in scores[0])
