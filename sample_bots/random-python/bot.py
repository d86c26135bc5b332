import arena_sdk as sdk

rng = sdk.seeded_random()  # seeded from ARENA_BOT_SEED


def choose(request):  # an arena.bot.v1.DecisionRequest
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    sdk.run(choose)
