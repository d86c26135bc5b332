"""The ``arena`` command line. Each command lives in its own module under ``arena.commands`` and
exposes ``register(app)``; add new commands to COMMAND_MODULES.

Every error a user can cause is one line on stderr, ``error: ...``, and exit code 2: the
library's ``InputError`` and typer's usage errors alike (which typer would draw as a box). A
database that cannot be used (``StorageError``: corrupt, locked, read-only, disk full) is one
line too, with exit code 4."""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from arena import stopping
from arena.commands import print_error
from arena.errors import InputError, StorageError
from arena.launcher import INTERRUPTED_CODE
from arena.utf8_arguments import refuse_non_utf8

if TYPE_CHECKING:  # mypy checks against the typer scripts/setup installs, which vendors click
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
else:
    try:  # typer >= 0.26 vendors click; older typer uses the click package
        from typer._click.exceptions import ClickException, NoArgsIsHelpError
    except ImportError:  # pragma: no cover - depends on the installed typer
        from click.exceptions import ClickException, NoArgsIsHelpError


def _plain_help_types() -> None:
    """Typer 0.2x writes each parameter's Python type in its help: ``--json <bool>`` for a flag,
    which takes no value, ``<list[str]>`` for one given once per value, and ``{name}`` for a
    required argument in the usage line. Here flags show no type, repeated parameters their
    element's (their help says "repeatable"), and usage lines read as POSIX writes them."""
    for kind in (TyperOption, TyperArgument):
        shown = getattr(kind, "display_type_rich", None)
        if shown is not None:  # else an older typer: click's own metavars
            kind.display_type_rich = _plain_type(shown)  # type: ignore[method-assign]
    if hasattr(TyperArgument, "_usage_display_name"):
        TyperArgument._usage_display_name = _usage_name  # type: ignore[method-assign]


def _plain_type(shown: Any) -> Any:
    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None
        text = shown(self, ctx)
        if isinstance(text, str) and text.startswith("<list[") and text.endswith("]>"):
            return f"<{text[6:-2]}>"
        return text

    return display_type_rich


def _usage_name(self: TyperArgument) -> str:
    """An argument in the usage line as POSIX writes it: ``NAME``, ``[NAME]`` when optional,
    ``NAME...`` when repeated."""
    name = self.metavar or (self.name or "").upper()
    if self.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if self.required else f"[{name}]"


_plain_help_types()

COMMAND_MODULES = [
    "arena.commands.games",
    "arena.commands.match",
    "arena.commands.submit",
    "arena.commands.bots",
    "arena.commands.tournament",
    "arena.commands.leaderboard",
    "arena.commands.sprt",
    "arena.commands.ladder",
    "arena.commands.replay",
    "arena.commands.validate",
    "arena.commands.new_bot",
    "arena.commands.fixtures",
    "arena.commands.history",
    "arena.commands.serve",
    "arena.commands.authors",
    "arena.commands.submissions",
    "arena.commands.logs",
]
USAGE_ERROR_CODE = 2
STORAGE_FAULT_CODE = 4


class OneLineErrors(TyperGroup):
    """The ``arena`` group: runs a command and turns what the user got wrong into one line."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        # Never standalone below: a usage error reaches us instead of being drawn as a box,
        # and an Exit's code is returned.
        run = partial(
            super().main,
            args,
            prog_name,
            complete_var,
            standalone_mode=False,
            windows_expand_args=windows_expand_args,
            **extra,
        )
        if not standalone_mode:
            return run()
        try:
            refuse_non_utf8(sys.argv[1:] if args is None else args)  # before any is used
            code = run()
        except NoArgsIsHelpError as exc:  # `arena` alone: the help (typer has printed it)
            if exc.format_message():
                typer.echo(exc.format_message(), err=True)
            sys.exit(USAGE_ERROR_CODE)
        except ClickException as exc:
            print_error(_usage_error_line(exc))
            sys.exit(USAGE_ERROR_CODE)
        except InputError as exc:
            print_error(str(exc))
            sys.exit(USAGE_ERROR_CODE)
        except StorageError as exc:
            print_error(str(exc))
            sys.exit(STORAGE_FAULT_CODE)
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: Any) -> Any:
        # A command that does not say itself what an interruption left behind (``arena
        # validate``, ``arena leaderboard``, ...) gets one line: typer would exit 130 in silence,
        # and an interrupt that trio wrapped in an exception group was a traceback.
        try:
            return super().invoke(ctx)
        except BaseException as exc:
            if not _only_interrupts(exc):
                raise
            stopping.command_stops()  # a repeat as it says so and exits: still 130
            print_error("interrupted")
            raise typer.Exit(INTERRUPTED_CODE) from None


def _only_interrupts(exc: BaseException) -> bool:
    if isinstance(exc, BaseExceptionGroup):
        return all(_only_interrupts(inner) for inner in exc.exceptions)
    return isinstance(exc, KeyboardInterrupt)


def _usage_error_line(exc: ClickException) -> str:
    """``exc``'s message, and where to look for help, on one line."""
    message = " ".join(exc.format_message().split())
    ctx = getattr(exc, "ctx", None)
    return f"{message} (see `{ctx.command_path} --help`)" if ctx is not None else message


app = typer.Typer(
    name="arena",
    cls=OneLineErrors,
    help="Bots in any language play board and card games over gRPC.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
for module in COMMAND_MODULES:
    importlib.import_module(module).register(app)


def _first_sentence(doc: str) -> str:
    """A docstring's first sentence on one line: the command list's entry. (Typer would show
    the whole docstring there, hard line breaks and all; ``arena CMD --help`` still has it.)"""
    words = " ".join(doc.split("\n\n", 1)[0].split())
    ends = [i for i in (words.find(". "), words.find("? ")) if i >= 0]
    return words[: min(ends) + 1] if ends else words


# the commands of the groups too (arena authors add, arena submissions work)
in_groups = [
    command
    for group in app.registered_groups
    if group.typer_instance is not None
    for command in group.typer_instance.registered_commands
]
for command in [*app.registered_commands, *in_groups]:
    if command.short_help is None and command.callback is not None:
        command.short_help = _first_sentence(inspect.getdoc(command.callback) or "")


def main() -> None:
    with stopping.for_the_command():
        app()
