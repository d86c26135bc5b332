"""A bot's stdout and stderr: a pipe that the referee drains into the bot's log file, up to a cap.

Why a pipe, not the file itself: a file handed to the bot is the bot's to seek in, truncate, or
fill until RLIMIT_FSIZE kills it (or fails its writes) mid-game. Through a pipe the bot can only
add to its log; past the cap what it writes is dropped (one line in the log says so) while its
writes still succeed, so a flooding bot neither fills the host's disk nor stalls on a full pipe
(it would time out) nor crashes on its log: the game goes on.

Cheap: a thread per bot, asleep in poll(2) while the bot is quiet, moves the bytes with
splice(2) (no copy through Python; a 1 MiB pipe, so a flood costs one call per MiB) and, past the
cap, splices them into ``/dev/null``.

A bot's kept logs in one directory share a quota (``LogBudget``): every sink of the bot's
processes running at once, in any arena process on the machine, takes what it writes from the
same budget, so processes started together (one per game slot or worker) cannot each spend the
whole remainder. When a log would pass the quota, the bot's oldest logs that no sink is writing
are removed to make room (``LogBudget.make_room``), so its newest games always have logs; only
when its logs still being written fill the quota is what it writes dropped.

Which logs are being written: each sink holds a lock on its file while it writes it, and a log is
removed only when no sink holds it (``arena.log_locks``).

Each log is a new file: created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` under the first of its
candidate names that does not exist (``create_log``), so a link planted where a log would go is
never followed, and nothing is ever written into a file that a stored game's slice points at.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import select
import struct
import termios
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from arena.log_locks import hold_while_written, remove_unless_written
from arena.log_names import logs_of

_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_COUNT_FILE = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
_COUNTS = struct.Struct("<qq")  # a bot's budget: bytes used, bytes ever spent
BUDGETS = ".budgets"  # the subdirectory of a logs directory that holds the bots' counts
_PIPE_BYTES = 1 << 20  # Linux's default pipe-max-size: an unprivileged process may ask for it
_CHUNK = 1 << 20
_SYNC_SECONDS = 0.05  # how long a reader waits for the pipe to empty (a flood never does)
_CLOSE_SECONDS = 2.0  # how long to wait for the last words of a stopped bot (EOF)


def create_log(directory: Path, names: Iterable[str]) -> tuple[Path, int]:
    """The first of ``names`` created anew in ``directory`` (never a link followed, never an
    existing file opened) and a descriptor open for writing it."""
    for name in names:
        path = directory / name
        try:
            fd = os.open(path, _NEW_FILE, 0o640)
        except FileExistsError:
            continue
        hold_while_written(fd)  # never removed while the sink writes it
        return path, fd
    raise FileExistsError(f"no free log name in {directory}")


class _Unkept(list[int]):
    """A count that could not be read: no room, and no log removed to make some."""


class LogBudget:
    """What one bot's kept logs in one directory may still take (``quota`` bytes in all), shared
    by the sinks of the bot's live processes in every arena process on this machine (``--workers``
    included). The count lives in a small file beside the logs (in ``BUDGETS``) and is held,
    under an exclusive ``flock(2)``, for each move of bytes into a log (``held``): the sinks take
    turns, so together they never pass the quota. It is counted anew from the disk whenever a
    process of the bot starts (``counting``, then ``counted``), so logs pruned meanwhile give
    their room back; bytes moved while the disk is listed are counted again rather than missed
    (an overcount only leaves a little room unused), and counted exactly whenever logs are
    removed to make room (``make_room``). A count that cannot be read leaves no room: the bot's
    output is dropped, its game goes on."""

    def __init__(self, directory: Path, bot: str, quota: int) -> None:
        self.directory = directory
        self.bot = bot
        self.path = directory / BUDGETS / budget_name(bot)
        self.quota = quota

    @contextlib.contextmanager
    def held(self) -> Iterator[list[int]]:
        """The count, [bytes used, bytes ever spent], locked until the block ends and then
        written back if changed. Spend from it only through this list: a second ``held`` in the
        same thread would wait for itself."""
        try:
            try:
                fd = os.open(self.path, _COUNT_FILE, 0o600)
            except FileNotFoundError:  # the first count in this directory
                self.path.parent.mkdir(mode=0o700, exist_ok=True)
                fd = os.open(self.path, _COUNT_FILE, 0o600)
        except OSError:
            yield _Unkept([self.quota, 0])  # no room; what is spent from it is not kept
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # released by the close
            data = os.pread(fd, _COUNTS.size, 0)
            counts = list(_COUNTS.unpack(data)) if len(data) == _COUNTS.size else [0, 0]
            before = list(counts)
            yield counts
            if counts != before:
                os.pwrite(fd, _COUNTS.pack(*counts), 0)
        finally:
            os.close(fd)

    def counting(self) -> int:
        """Call before listing the disk; hand the result to ``counted``."""
        with self.held() as (_, spent):
            return spent

    def counted(self, mark: int, kept: int) -> None:
        """``kept``: the bytes the bot's logs held on disk, listed after ``counting`` gave
        ``mark``."""
        with self.held() as counts:
            counts[0] = kept + counts[1] - mark

    def create(self, names: Iterable[str]) -> tuple[Path, int]:
        """``create_log`` in the bot's directory under the count's lock, so that ``make_room``
        (which holds it) never finds the new log before its sink holds it."""
        with self.held():
            return create_log(self.directory, names)

    def make_room(self, counts: list[int], wanted: int) -> None:
        """With ``counts`` held: remove the bot's oldest logs (by last write) that no sink holds
        until ``wanted`` more bytes fit the quota, or none is left to remove. The count is set
        to what the bot's logs hold on the disk then, exactly: every move into them holds it."""
        if isinstance(counts, _Unkept):
            return
        logs = sorted(logs_of(self.directory, self.bot), key=lambda log: (log[1].st_mtime, log[0]))
        used = sum(info.st_size for _, info in logs)
        for name, _ in logs:
            if used + wanted <= self.quota:
                break
            used -= remove_unless_written(self.directory / name) or 0
        counts[0] = used


def _spend(counts: list[int] | None, size: int) -> None:
    if counts is not None:
        counts[0] += size
        counts[1] += size


def budget_name(bot: str) -> str:
    """The file of ``bot``'s count in ``BUDGETS``: named by a digest of the exact name, so that
    no two names share one."""
    return hashlib.sha256(bot.encode()).hexdigest()[:32]


def log_budget(directory: Path, bot: str, quota: int) -> LogBudget:
    """The budget of ``bot``'s kept logs in ``directory``, shared by every process that uses it
    (a subdirectory, which log retention and the listings of logs leave alone)."""
    return LogBudget(directory, bot, quota)


def cap_note(cap: int) -> bytes:
    return (
        f"\n[arena: this log reached its cap of {cap >> 20} MiB here; what the bot wrote "
        "after that is dropped]\n"
    ).encode()


def quota_note(quota_mib: int) -> bytes:
    return (
        f"\n[arena: this bot's kept logs reached their quota of {quota_mib} MiB together here, "
        "and no older one could be removed to make room (a log still being written is kept); "
        "what it wrote after that is dropped]\n"
    ).encode()


class LogSink:
    """The pipe a bot writes its stdout and stderr to (``write_fd``), drained into the file
    ``path`` (open as ``file_fd``, owned by the sink) until ``cap`` bytes or until ``budget`` (the
    bot's kept logs together) is spent, then a note of which where the dropping begins; ``close``
    after the bot has stopped."""

    def __init__(self, path: Path, file_fd: int, cap: int, budget: LogBudget | None = None) -> None:
        self.path = path
        self.cap = cap
        self._budget = budget
        self._noted = False
        self._file = file_fd
        self._read, self.write_fd = os.pipe2(os.O_CLOEXEC)
        try:
            fcntl.fcntl(self.write_fd, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
        except OSError:
            pass  # a lower pipe-max-size: the default 64 KiB pipe, more calls
        os.set_blocking(self._read, False)
        self._wake_read, self._wake = os.pipe2(os.O_CLOEXEC)
        self._null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
        self.written = 0  # bytes in the file (the cap's note not counted)
        self._final_size: int | None = None  # once closed
        self._thread = threading.Thread(target=self._drain, name=f"log {path.name}", daemon=True)
        self._thread.start()

    def started(self) -> None:
        """The bot has its copy of the pipe's write end: drop ours, so its exit ends the drain."""
        if self.write_fd >= 0:
            os.close(self.write_fd)
            self.write_fd = -1

    def sync(self, seconds: float = _SYNC_SECONDS) -> int:
        """Wait (briefly) until everything the bot wrote is in the file; the file's size."""
        deadline = time.monotonic() + seconds
        while self._thread.is_alive() and time.monotonic() < deadline:
            if not self._waiting():
                break
            time.sleep(0.001)
        return self.size()

    def _waiting(self) -> int:
        """The bytes in the pipe (0 if that cannot be told)."""
        try:
            return int.from_bytes(fcntl.ioctl(self._read, termios.FIONREAD, b"\0\0\0\0"), "little")
        except OSError:
            return 0

    def size(self) -> int:
        return self._final_size if self._final_size is not None else os.fstat(self._file).st_size

    def close(self, seconds: float = _CLOSE_SECONDS) -> None:
        """Drain until the bot's end of the pipe is closed (its process and children are gone),
        or ``seconds`` at most (a child that escaped still holds it), then release everything."""
        if self._final_size is not None:
            return
        self.started()
        self._thread.join(seconds)
        if self._thread.is_alive():
            os.write(self._wake, b"x")
            self._thread.join()
        self._final_size = self.size()
        for fd in (self._read, self._wake_read, self._wake, self._null, self._file):
            os.close(fd)

    def _drain(self) -> None:
        poller = select.poll()
        poller.register(self._read, select.POLLIN)
        poller.register(self._wake_read, select.POLLIN)
        while True:
            ready = dict(poller.poll())
            if self._read in ready and not self._move():
                return  # end of file: every writer has closed the pipe
            if self._wake_read in ready:
                return

    def _move(self) -> bool:
        """Move what the pipe holds into the file (or, past the cap or the quota, into
        /dev/null); False at the end of the pipe. A move into the file holds the bot's budget,
        so no other sink of the bot moves meanwhile; dropping holds nothing. What waits and
        would pass the quota first makes room by removing the bot's oldest logs."""
        room = self.cap - self.written
        if room > 0 and self._budget is not None:
            wanted = min(room, self._waiting())
            with self._budget.held() as counts:
                if self._budget.quota - counts[0] < wanted:
                    self._budget.make_room(counts, wanted)
                room = min(room, self._budget.quota - counts[0])
                if room > 0:
                    return self._keep(room, counts)
                self._say_dropped(counts)  # the quota spent already: before the first bytes dropped
        elif room > 0:
            return self._keep(room, None)
        self._say_dropped(None)  # a cap of 0: before the first bytes dropped (once only)
        try:
            return self._splice(self._null, _CHUNK) > 0
        except OSError:  # BlockingIOError: woken for nothing
            return True

    def _keep(self, room: int, counts: list[int] | None) -> bool:
        """Move up to ``room`` bytes into the file, spent from ``counts`` (the budget, held)."""
        try:
            moved = self._splice(self._file, min(_CHUNK, room))
        except BlockingIOError:
            return True  # woken for nothing
        except OSError:  # the host's disk is full, say: drop the rest, the bot plays on
            self.cap, self._noted = self.written, True  # no note: it would claim a cap
            return True
        self.written += moved
        _spend(counts, moved)
        if moved >= room:
            self._say_dropped(counts)
        return moved > 0

    def _splice(self, target: int, most: int) -> int:
        """Bytes moved from the pipe into ``target`` (raises BlockingIOError if none waited)."""
        try:
            return os.splice(self._read, target, most)
        except OSError as exc:
            if exc.errno != errno.EINVAL:
                raise
        data = os.read(self._read, most)  # a file system without splice
        if target == self._file:
            os.write(self._file, data)
        return len(data)

    def _say_dropped(self, counts: list[int] | None) -> None:
        """Once, where the dropping begins: which limit was reached (``counts``: the bot's
        budget, held). From then on this log takes nothing more, even if pruning gives the
        bot's quota room again."""
        if not self._noted:
            self._noted = True
            if self.written >= self.cap or self._budget is None:
                note = cap_note(self.cap)
            else:
                note = quota_note(self._budget.quota >> 20)
            self.cap = self.written
            with contextlib.suppress(OSError):
                os.write(self._file, note)
                _spend(counts, len(note))  # on the disk as the bot's, as listed later
