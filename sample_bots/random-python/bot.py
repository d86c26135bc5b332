"""Random bot: picks a uniformly random legal action, seeded by the arena so games reproduce."""

import arena_sdk as sdk

rng = sdk.seeded_random()


def choose(request):
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    sdk.run(choose)
