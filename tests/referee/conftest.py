"""The referee's tests leave nothing behind (tests/support/leftovers.py)."""

from tests.support.leftovers import nothing_left_behind  # noqa: F401 - an autouse fixture
