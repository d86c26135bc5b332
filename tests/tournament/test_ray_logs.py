"""Bot logs of a tournament on Ray: sent in pieces from the nodes, capped, written into DIR under
names no two actors share (``arena.tournament.ray_logs``; the cluster test is in test_ray.py)."""

import os
from pathlib import Path

from arena.log_names import kept_process_log_name
from arena.tournament.ray_logs import LogWriter, NodeLogs, sweep


def test_each_piece_is_what_a_log_gained_and_the_writer_puts_it_at_its_offset(tmp_path: Path):
    node = NodeLogs(cap_bytes=1 << 20, node="10.0.0.2", root=tmp_path / "node")
    log = node.directory / kept_process_log_name("first", "20261204T101010Z", 0)
    log.write_bytes(b"up\n")
    writer = LogWriter(tmp_path / "dir")
    writer.directory.mkdir()
    writer.new_actor(slot=1)
    writer.write(1, node.news())
    with open(log, "ab") as more:
        more.write(b"game 1\n")
    writer.write(1, node.news())
    assert node.news() == []  # nothing new
    assert (
        writer.directory / "first-20261204T101010Z-slot1-process0.log"
    ).read_bytes() == b"up\ngame 1\n"
    (node.directory / kept_process_log_name("quiet", "20261204T101010Z", 1)).touch()
    writer.write(1, node.news())
    assert (
        writer.directory / "quiet-20261204T101010Z-slot1-process1.log"
    ).read_bytes() == b""  # as locally
    node.close()
    assert not node.directory.exists() and node.news() == []


def test_a_log_longer_than_the_cap_is_cut_with_a_line_saying_so(tmp_path: Path):
    node = NodeLogs(cap_bytes=2 << 20, node="10.0.0.2", root=tmp_path)
    log = node.directory / kept_process_log_name("chatty", "20261204T101010Z", 0)
    log.write_bytes(b"a" * (1 << 20))
    first = node.news()
    log.write_bytes(b"a" * (3 << 20))
    (second,) = node.news()
    assert second.offset == 1 << 20
    sent = first[0].data + second.data
    assert sent.startswith(b"a" * (2 << 20))
    assert sent[2 << 20 :].decode() == (
        "\n[arena: log cut here, at 2 MiB (the bots' file-size limit), when sent from Ray node "
        "10.0.0.2]\n"
    )
    with open(log, "ab") as more:
        more.write(b"more")
    assert node.news() == []  # cut once, then nothing more
    node.close()


def test_a_slots_later_actor_numbers_its_processes_after_the_earlier_ones(tmp_path: Path):
    writer = LogWriter(tmp_path)
    writer.new_actor(slot=0)
    assert writer.name(0, "first-process0.log") == "first-slot0-process0.log"
    assert writer.name(0, "last-process1.log") == "last-slot0-process1.log"
    writer.new_actor(slot=0)  # its node died: the slot's new actor counts from 0 again
    assert writer.name(0, "first-process0.log") == "first-slot0-process2.log"
    writer.new_actor(slot=1)
    assert writer.name(1, "first-process0.log") == "first-slot1-process0.log"
    assert writer.name(1, "7-seat0-first.log") == "7-seat0-first.log"  # --fresh-bots: as locally


def test_a_piece_from_the_start_rewrites_the_file(tmp_path: Path):
    """A --fresh-bots game voided and played again on another actor: its log afresh."""
    writer = LogWriter(tmp_path)
    node = NodeLogs(cap_bytes=1 << 20, node="n", root=tmp_path / "node")
    (node.directory / "7-seat0-first.log").write_bytes(b"the first attempt, longer\n")
    writer.write(0, node.news())
    node.close()
    again = NodeLogs(cap_bytes=1 << 20, node="m", root=tmp_path / "node")
    (again.directory / "7-seat0-first.log").write_bytes(b"again\n")
    writer.write(1, again.news())
    again.close()
    assert (tmp_path / "7-seat0-first.log").read_bytes() == b"again\n"


def test_the_sweep_removes_only_the_directories_of_dead_actors(tmp_path: Path):
    live = NodeLogs(cap_bytes=1, node="n", root=tmp_path)
    dead = tmp_path / "actor-dead"
    dead.mkdir()
    starting = tmp_path / "actor-starting"  # made, its lock not yet taken
    starting.mkdir()
    for directory in (live.directory, dead):  # both old: the lock alone tells them apart
        os.utime(directory, (0, 0))
    sweep(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [live.directory.name, starting.name]
    )
    live.close()


def test_a_directory_that_cannot_be_written_is_said_once_and_the_games_go_on(
    tmp_path: Path, caplog
):
    writer = LogWriter(tmp_path / "missing")
    node = NodeLogs(cap_bytes=1 << 20, node="n", root=tmp_path / "node")
    (node.directory / "first-process0.log").write_bytes(b"x")
    (node.directory / "last-process1.log").write_bytes(b"y")
    writer.write(0, node.news())
    node.close()
    assert len([r for r in caplog.records if "--bot-logs" in r.getMessage()]) == 1
