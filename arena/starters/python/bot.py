"""An arena bot in Python. Edit choose(); `arena validate .` checks the bot.

The SDK (arena_sdk) serves the gRPC service, answers the handshake from bot.toml, refuses a
wrong token, keeps each game apart by its game_id and stops on SIGTERM.
"""

import time

import arena_sdk as sdk

rng = sdk.seeded_random()  # seeded from ARENA_BOT_SEED: the same game seed gives the same game


def choose(request):
    """The index of the action to play in request.legal_actions.

    request is an arena.bot.v1.DecisionRequest: decision_kind names the decision, view holds
    this seat's view (view.oregon, view.ogallala or view.merkator), seat and game_id say where;
    sdk.game_of(request) names the game and sdk.history_of(request) is every event this seat has
    received in it so far (docs/rules/ in the arena's repository explains kinds and events).
    """
    # The reply must arrive within the move limit plus what is left of the bank: keep a margin.
    deadline = time.monotonic() + 0.8 * request.clock.move_seconds  # noqa: F841 (for a search)
    history = sdk.history_of(request)  # noqa: F841 (the game so far)
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    sdk.run(choose)
