"""A CRASH reason shows the line of the bot's output that states the error (a Python traceback's
exception, a Go panic, a Node error, the JVM's first exception), not the stack frame printed
last."""

import os
from pathlib import Path

import pytest

from arena.log_names import numbered
from arena.manifest import BotSpec
from arena.referee.botprocess import RunningBot, error_line
from arena.referee.log_sink import LogSink, create_log

PYTHON = """ERROR:grpc._server:Exception calling application: 'PLAY'
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/grpc/_server.py", line 555, in _call_behavior
    response_or_iterator = behavior(argument, context)
  File "bot.py", line 12, in choose
    return plan[request.decision_kind]
KeyError: 'PLAY'
"""
GO = """panic: runtime error: index out of range [7] with length 3

goroutine 18 [running]:
main.(*server).Decide(0xc000010000, {0x0, 0x0}, 0xc00001c0f0)
\t/home/me/bot/main.go:41 +0x1d
google.golang.org/grpc.(*Server).processUnaryRPC(...)
\t/home/me/go/pkg/mod/google.golang.org/grpc@v1.60.0/server.go:1372 +0xd0
"""
NODE = """/home/me/bot/index.js:9
  throw new Error("no move for " + request.decision_kind);
  ^

Error: no move for PLAY
    at choose (/home/me/bot/index.js:9:9)
    at Object.Decide (/home/me/sdk/node/index.js:60:26)

Node.js v20.20.2
"""
NODE_TYPE = (
    "TypeError: Cannot read properties of undefined (reading 'length')\n    at x (a.js:1:1)\n"
)
JAVA = """Exception in thread "main" java.lang.IllegalStateException: bot.toml has no games
	at Bot.manifestLine(Bot.java:171)
	at Bot.main(Bot.java:190)
Exception in thread "Logging-Cleaner" java.lang.NoClassDefFoundError: Could not initialize class
	at java.base/java.lang.Thread.run(Thread.java:840)
"""
RUBY = """<internal:/usr/lib/ruby/3.1.0/rubygems/core_ext/kernel_require.rb>:85:in `require': \
cannot load such file -- nonexistent_gem (LoadError)
\tfrom <internal:/usr/lib/ruby/3.1.0/rubygems/core_ext/kernel_require.rb>:85:in `require'
\tfrom bot.rb:14:in `<main>'
"""
RUBY_34 = "bot.rb:7:in 'Bot#choose': no move (RuntimeError)\n\tfrom bot.rb:12:in '<main>'\n"
RUST = "thread 'main' panicked at src/main.rs:5:9:\nboom\nnote: run with `RUST_BACKTRACE=1`\n"
# Rust 1.88 on: the thread's id after its name (outside review G); a second panic is a consequence
RUST_188 = (
    "thread '<unnamed>' (3) panicked at src/main.rs:490:80:\n"
    "index out of bounds: the len is 0 but the index is 31\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    "thread 'main' (1) panicked at src/main.rs:12:5:\nworker died\n"
)
RUST_OLD = "thread 'main' panicked at 'boom', src/main.rs:5:9\nnote: run with `RUST_BACKTRACE=1`\n"


@pytest.mark.parametrize(
    "log, expected",
    [
        (PYTHON, "KeyError: 'PLAY'"),
        (GO, "panic: runtime error: index out of range [7] with length 3"),
        (NODE, "Error: no move for PLAY"),
        (NODE_TYPE, "TypeError: Cannot read properties of undefined (reading 'length')"),
        (RUST, "thread 'main' panicked at src/main.rs:5:9: boom"),
        (
            RUST_188,
            "thread '<unnamed>' (3) panicked at src/main.rs:490:80: index out of bounds: the len "
            "is 0 but the index is 31",
        ),
        (RUST_OLD, "thread 'main' panicked at 'boom', src/main.rs:5:9"),
        # Ruby states the error first, then its frames (outside review F, M1)
        (RUBY, RUBY.splitlines()[0]),
        (RUBY_34, "bot.rb:7:in 'Bot#choose': no move (RuntimeError)"),
        # the JVM's first exception, not the one of a thread failing as it shuts down
        (JAVA, 'Exception in thread "main" java.lang.IllegalStateException: bot.toml has no games'),
        ("listening\nthinking hard\n", ""),
    ],
)
def test_the_error_line_is_found_in_each_languages_crash_output(log, expected):
    assert error_line(log.splitlines()) == expected


def _bot_with_log(tmp_path: Path, text: str) -> RunningBot:
    spec = BotSpec(
        name="b", version="1", games=("oregon",), directory=tmp_path, command=("go-bot",)
    )
    log = LogSink(*create_log(tmp_path, numbered("seat0")), cap=1 << 20)
    os.write(log.write_fd, text.encode())  # as the bot would, then it ends
    log.close()
    return RunningBot(spec, "unix:/nowhere", "t", log=log)


def test_a_crash_reason_names_the_error_and_not_the_last_frame(tmp_path):
    reason = _bot_with_log(tmp_path, GO).crash_reason("Decide failed: UNAVAILABLE")
    assert reason == (
        "Decide failed: UNAVAILABLE; "
        "error: panic: runtime error: index out of range [7] with length 3"
    )


def test_without_an_error_line_the_last_output_is_shown(tmp_path):
    reason = _bot_with_log(tmp_path, "starting\nloaded 3 tables\n").crash_reason("died")
    assert reason == "died; last output: loaded 3 tables"
