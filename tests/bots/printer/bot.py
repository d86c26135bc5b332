"""Plays random legal actions and prints each decision to stdout the way a beginner debugs: a
plain ``print``, never flushed. The arena stops it with SIGTERM, which a Python process does not
survive to flush a block buffer: what it printed must reach its log all the same."""

import arena_sdk as sdk

rng = sdk.seeded_random()


def choose(request):
    print(f"printer decides {request.decision_number}")
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    sdk.run(choose)
