"""``arena ladder --ray``: a ladder's games on the local two-node Ray cluster of the Ray tests
(``arena.bench.local_ray``), stored once each like a ladder's games played here.

Skipped only where ray is not installed (scripts/setup --for-tests, which CI runs, installs it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.bench.local_ray import HEAD_IP, SECOND_IP, LocalCluster
from tests.tournament.helpers import query, run_cli, start_cli
from tests.tournament.test_ray import (  # noqa: F401 (fixtures)
    SANDBOX,
    _first_and_last,
    cluster,
    needs_ray,
    two_nodes,
)


@needs_ray
@pytest.mark.slow
def test_a_ladder_plays_and_stores_its_games_on_two_nodes(
    tmp_path: Path,
    two_nodes: LocalCluster,  # noqa: F811
):
    db = tmp_path / "ladder.db"
    for bot in _first_and_last(tmp_path).split(","):
        submitted = run_cli("submit", bot, "--db", str(db), "--sandbox", SANDBOX)
        assert submitted.exit_code == 0, submitted.stdout + submitted.stderr
    ladder = start_cli(
        "ladder", "--game", "oregon", "--db", str(db), "--sandbox", SANDBOX, "--move-time", "10",
        "--concurrency", "2", "--until", "6", "--json", "--ray", two_nodes.address,
    )  # fmt: skip
    out, err = ladder.communicate(timeout=300)
    assert ladder.returncode == 0, out + err
    assert f"2 node(s) ({HEAD_IP}, {SECOND_IP})" in err
    assert re.search(r"Ray: 6 games played on 2 node\(s\)", err), err  # both nodes played
    summary = json.loads(out)
    assert summary["games"] == 6
    keys = [key for (key,) in query(db, "SELECT schedule_key FROM game WHERE status = 'finished'")]
    assert len(keys) == len(set(keys)) == 6
    assert all(key.startswith("round ") for key in keys)  # the ladder's own games
    seated = query(
        db,
        "SELECT DISTINCT b.name FROM seat s JOIN bot_version v ON v.id = s.bot_version_id "
        "JOIN bot b ON b.id = v.bot_id",
    )
    assert sorted(name for (name,) in seated) == ["first", "last"]
