"""The seccomp filter every sandboxed bot runs under: system calls a bot never needs fail with
EPERM (ENOSYS for ``clone3``) instead of reaching the kernel.

Built with libseccomp (through ``pyseccomp``, its ctypes binding) and handed to bubblewrap as a
compiled BPF program (``bwrap --seccomp FD``), which loads it just before the bot's command runs.
A denylist, as Docker's and Flatpak's filters are, rather than an allowlist: bots are written in
any language and runtime (JVM, Go, Node, Python, C++), and an allowlist that misses a call one of
them makes breaks that bot in ways its author cannot see.

Refused, and why a bot does not need it:

* new namespaces and joining others (``unshare`` and ``clone`` with ``CLONE_NEWUSER``,
  ``setns``): a user namespace of its own would give it every capability there (mounts, raw
  sockets), kernel surface no game needs. ``clone3`` takes its flags in memory a filter cannot
  read, so it fails with ENOSYS, on which glibc and Go fall back to ``clone``;
* mounting (``mount``, ``umount2``, ``pivot_root``, the new mount API ``fsopen``... ,
  ``move_mount``, ``open_tree``, ``mount_setattr``);
* looking into or changing other processes (``ptrace``, ``process_vm_readv``/``writev``,
  ``kcmp``, ``pidfd_getfd``);
* kernel keyrings (``keyctl``, ``add_key``, ``request_key``: per host uid, so shared beyond the
  sandbox), BPF (``bpf``), performance counters (``perf_event_open``), ``userfaultfd`` (a tool
  of kernel exploits), ``io_uring_*`` (a large kernel surface that bypasses this filter's view
  of file operations);
* vsock sockets (``socket``/``socketpair`` of family ``AF_VSOCK``, EAFNOSUPPORT): vsock is not
  in the sandbox's network namespace, so a bot without network would reach the hypervisor and
  listen on the whole virtual machine;
* signals between sandboxes through the files they all see (/usr, the arena's Python): file
  locks (``flock``, ``fcntl``'s ``F_SETLK``, ``F_SETLKW``, ``F_OFD_SETLK``, ``F_OFD_SETLKW``)
  succeed without taking a lock, so no lock is ever seen; watches (``inotify_init``,
  ``inotify_init1``, ``fanotify_init``, ``fcntl``'s ``F_NOTIFY``) are refused;
* the machine's own state: ``kexec_load``, ``kexec_file_load``, ``reboot``, ``swapon``,
  ``swapoff``, ``init_module``, ``finit_module``, ``delete_module``, ``acct``, ``syslog``,
  ``settimeofday``, ``clock_settime``, ``clock_adjtime``, ``adjtimex``, ``quotactl``,
  ``open_by_handle_at``, ``name_to_handle_at``, ``lookup_dcookie``, ``vhangup``, ``iopl``,
  ``ioperm``.
"""

from __future__ import annotations

import errno
import functools
import os

CLONE_NEWUSER = 0x10000000
AF_VSOCK = 40  # socket.AF_VSOCK, which Python lacks where the platform has no vsock headers
# fcntl's commands that take a lock: F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW (<fcntl.h>)
LOCK_COMMANDS = (6, 7, 37, 38)
F_NOTIFY = 1026  # dnotify: a directory's watch

REFUSED = (
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "init_module",
    "finit_module",
    "delete_module",
    "acct",
    "syslog",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "quotactl",
    "open_by_handle_at",
    "name_to_handle_at",
    "lookup_dcookie",
    "vhangup",
    "iopl",
    "ioperm",
)


@functools.cache
def filter_problem() -> str | None:
    """Why no filter can be built here (libseccomp is missing), or None."""
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: the binding found no libseccomp.so.2
        return f"libseccomp cannot be loaded ({exc}): install the package libseccomp2"
    return None


@functools.cache
def filter_program() -> bytes | None:
    """The compiled BPF program (a few hundred bytes; built once per process), or None where
    libseccomp is missing (``filter_problem`` says why)."""
    if filter_problem() is not None:
        return None
    import pyseccomp as seccomp

    refuse = seccomp.ERRNO(errno.EPERM)
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    for name in REFUSED:
        try:
            rules.add_rule(refuse, name)
        except (RuntimeError, ValueError):
            pass  # a call this architecture does not have (iopl on arm64)
    new_user = seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)
    rules.add_rule(refuse, "unshare", new_user)
    rules.add_rule(refuse, "clone", new_user)
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    # vsock is not in the network namespace: a bot without network would reach the hypervisor
    # and listen on the whole virtual machine's vsock (as Docker's default profile, refused).
    for call in ("socket", "socketpair"):
        rules.add_rule(
            seccomp.ERRNO(errno.EAFNOSUPPORT), call, seccomp.Arg(0, seccomp.EQ, AF_VSOCK)
        )
    # File locks succeed and take nothing: a lock lives on the file, and every sandbox sees the
    # same /usr and Python, so two seats' bots signalled each other by locking those files and
    # testing for the other's lock (outside review). A bot's own locks then exclude nothing:
    # one process is one seat, and two processes of a bot have nothing to guard from each other.
    succeed = seccomp.ERRNO(0)
    rules.add_rule(succeed, "flock")
    for command in LOCK_COMMANDS:
        rules.add_rule(succeed, "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    # Watches on those files are the same channel the other way round: a read shows elsewhere.
    for call in ("inotify_init", "inotify_init1", "fanotify_init"):
        try:
            rules.add_rule(refuse, call)
        except (RuntimeError, ValueError):
            pass  # inotify_init is not on arm64
    rules.add_rule(refuse, "fcntl", seccomp.Arg(1, seccomp.EQ, F_NOTIFY))
    program = os.memfd_create("arena-seccomp")  # export_bpf writes to a file descriptor
    with open(program, "w+b") as exported:
        rules.export_bpf(exported)
        exported.seek(0)
        return exported.read()
