"""Forfeit reasons as the public reads them (arena.reasons): the arena's words, without the
bot's own (its error line, output, gRPC details) or the host's log path."""

import pytest

from arena.reasons import public_reason

LOG = "log: /srv/arena/logs/alice-crash-1f2e3d4c-process8.log"


@pytest.mark.parametrize(
    ("reason", "public"),
    [
        ("no Decide reply within 2 s", "no Decide reply within 2 s"),
        ("decision 5 took 3.1 s; limit 2 s", "decision 5 took 3.1 s; limit 2 s"),
        ("index 9 out of range 0..3 at decision 12", "index 9 out of range 0..3 at decision 12"),
        (
            "Decide failed: UNKNOWN: Exception calling application: ALICE-SECRET plan; "
            f"process exited with code 1; error: RuntimeError: ALICE-SECRET; {LOG}",
            "Decide failed: UNKNOWN; process exited with code 1",
        ),
        (
            "Decide failed: UNAVAILABLE: Socket closed; process killed by SIGKILL; "
            "last output: thinking about seat 1's hand; out of memory under the 512 MiB memory "
            "limit (all its processes together)",
            "Decide failed: UNAVAILABLE; process killed by SIGKILL; out of memory under the 512 "
            "MiB memory limit (all its processes together)",
        ),
        (  # the bot's details and lines may hold "; " themselves: nothing after them leaks
            "never became ready: handshake failed: INTERNAL: a; SECRET; error: X; b; SECRET2",
            "never became ready: handshake failed: INTERNAL",
        ),
        (
            "never became ready: did not answer the handshake within 10 s; process exited with "
            "code 1; error: ModuleNotFoundError: No module named 'mine'",
            "never became ready: did not answer the handshake within 10 s; process exited "
            "with code 1",
        ),
        ("", ""),
    ],
)
def test_the_public_reads_the_arenas_words_only(reason, public):
    assert public_reason(reason) == public
