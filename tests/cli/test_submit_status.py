"""`arena submit --to URL --status` ends with the log of the newest failure, what to fix, unless
a newer upload of that bot is active: after a fixed bot became active, the old failure's log read
as if the bot still failed (outside review G)."""

from __future__ import annotations

from arena.commands.submit import _print_status


def upload(number: int, bot: str, state: str) -> dict:
    return {"id": number, "bot": bot, "state": state, "updated_at": "2026-12-06T17:00:00",
            "log": f"the log of upload {number}\nits last line"}  # fmt: skip


def test_the_newest_failure_s_log_is_shown(capsys):
    _print_status([upload(3, "b", "failed"), upload(2, "a", "active")], as_json=False)
    assert capsys.readouterr().out.endswith(
        "--- the log of #3 (b, failed)\nthe log of upload 3\nits last line\n"
    )


def test_a_failure_a_newer_active_upload_of_its_bot_fixed_is_not(capsys):
    _print_status([upload(5, "a", "active"), upload(2, "a", "failed")], as_json=False)
    assert "--- the log of" not in capsys.readouterr().out
    # another bot's failure, older still, is what there is to fix
    _print_status(
        [upload(5, "a", "active"), upload(2, "a", "failed"), upload(1, "b", "failed")],
        as_json=False,
    )
    assert "--- the log of #1 (b, failed)" in capsys.readouterr().out


def test_what_the_server_sends_cannot_drive_the_terminal(capsys):
    """A build's log (or a hostile server) held OSC and CSI sequences, which --status printed
    as they were: they could retitle, clear or hide the author's terminal (outside review)."""
    hostile = upload(4, "b\x1b[2J", "failed")
    hostile["log"] = "ESC-TEST \x1b]0;TITLE-PWNED\x07 \x1b[31mRED\x1b[0m\nlast \x1b[8mhidden"
    _print_status([hostile], as_json=False)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;TITLE-PWNED\\x07" in out and "last \\x1b[8mhidden" in out
