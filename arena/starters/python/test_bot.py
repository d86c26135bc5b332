"""The unit test of choose: every decision kind of every game, on the requests the arena sends
there, recorded in fixtures/ (`arena fixtures --out fixtures` writes them again, e.g. after the
arena's rules change). Run it with the arena's Python, which has the SDK:

    python -m unittest test_bot
"""

import unittest
from pathlib import Path

from bot import choose

import arena_sdk as sdk

FIXTURES = Path(__file__).resolve().parent / "fixtures"


class ChooseTest(unittest.TestCase):
    def test_choose_answers_every_decision_kind_with_a_legal_index(self):
        kinds = sorted(FIXTURES.glob("*/*/decide.binpb"))  # GAME/KIND/decide.binpb
        self.assertTrue(kinds, f"no fixtures in {FIXTURES}: run `arena fixtures --out fixtures`")
        for decide in kinds:
            with self.subTest(f"{decide.parent.parent.name} {decide.parent.name}"):
                request = sdk.load_fixture(decide.parent)
                index = choose(request)
                self.assertIsInstance(index, int)
                self.assertIn(index, range(len(request.legal_actions)))


if __name__ == "__main__":
    unittest.main()
