"""A pytest plugin (``-p tests.toy_game.registered``) that registers Nim before the tests are
collected: the contract tests then run for it as for every built-in game."""

from engine import registry

registry.register("nim", "tests.toy_game.nim")
