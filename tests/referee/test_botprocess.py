"""Bot start-up details: the seed handed to bots and the address they listen on."""

from arena.referee.botprocess import _listen_address, bot_seed


def test_bot_seed_is_reproducible_and_differs_by_seat_and_bot():
    assert bot_seed(7, 0, "random-python") == bot_seed(7, 0, "random-python")
    seeds = {bot_seed(7, seat, name) for seat in range(4) for name in ("a", "b")}
    seeds |= {bot_seed(8, 0, "a")}
    assert len(seeds) == 9
    assert all(0 <= seed < 2**63 and seed not in (7, 8) for seed in seeds)


def test_local_bots_listen_on_a_unix_socket_in_the_match_directory(tmp_path):
    (tmp_path / "seat2.sock").write_text("left over by an earlier bot")
    assert _listen_address(tmp_path, 2) == f"unix:{tmp_path}/seat2.sock"
    assert not (tmp_path / "seat2.sock").exists(), "Node.js refuses to bind over an old socket"


def test_too_long_socket_paths_fall_back_to_tcp_loopback(tmp_path):
    deep = tmp_path / ("d" * 120)
    deep.mkdir()
    host, port = _listen_address(deep, 0).rsplit(":", 1)
    assert host == "127.0.0.1" and int(port) > 0
