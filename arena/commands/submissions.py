"""``arena submissions``: the queue of bots that authors uploaded, and the worker that builds,
validates and registers them (a process of its own beside ``arena serve``: the web only stores
an upload and queues it)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from arena import stopping
from arena.commands import stopped_by_signal, wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.options import MAX_SQL_INTEGER, MAX_VALIDATION_MINUTES, MoveTime
from arena.commands.sandbox_options import SandboxTool, resolve_policy
from arena.referee.bot_text import one_line, shown_lines
from arena.storage import authors, submissions
from arena.storage.database import open_database
from arena.submissions.files import HostedFiles
from arena.submissions.worker import (
    AUTHOR_DISK_MIB,
    VALIDATION_SECONDS,
    WorkerSettings,
    work_once,
)

app = typer.Typer(
    help="Bots uploaded by authors (arena submit --to): the queue, and the worker that builds, "
    "validates and registers them.",
    no_args_is_help=True,
)


@app.command("work")
def work(
    db: DbPath = DEFAULT_PATH,
    sandbox: SandboxTool = None,
    move_time: MoveTime = 2.0,
    validation_minutes: Annotated[
        float,
        typer.Option(
            "--validation-minutes",
            min=0.1,
            max=MAX_VALIDATION_MINUTES,  # inf overflowed when a claim's age was computed
            help="time budget of an upload's validation (its games; the build has a limit of "
            "its own): past it the upload fails and the worker goes on to the next",
        ),
    ] = VALIDATION_SECONDS / 60,
    once: Annotated[
        bool, typer.Option("--once", help="handle what is queued now, then stop")
    ] = False,
    poll: Annotated[
        float, typer.Option("--poll", min=0.1, help="seconds between looks at an empty queue")
    ] = 2.0,
    author_disk: Annotated[
        int,
        typer.Option(
            "--author-disk-mib",
            min=1,
            max=1 << 30,
            help="what the built versions of one author's bots may hold on disk together; an "
            "upload that would pass it fails",
        ),
    ] = AUTHOR_DISK_MIB,
) -> None:
    """Build, validate and register uploaded bots, authors in turn, each in the sandbox (a hosted
    arena runs strangers' code: without bubblewrap it refuses unless --sandbox none). Runs
    until interrupted, or with --once until the queue is empty. The uploads and the bots built
    from them live in DB-hosted/ beside the database (DB: its name without .db)."""
    settings = WorkerSettings(
        resolve_policy(sandbox, False, strict=True),
        move_seconds=move_time,
        validation_seconds=validation_minutes * 60,
        author_disk_mib=author_disk,
    )
    hosted = HostedFiles.beside(db)
    database = open_database(db, create=True)
    try:
        # Stopped, its usual end, it says "stopped", not "error: interrupted"; the upload in hand
        # waits for another worker. A stop signal is taken between uploads or in one's games.
        with stopped_by_signal("arena submissions work"), stopping.deferred_ctrl_c():
            typer.echo(f"building the uploads of {db} (their files in {hosted.root})", err=True)
            while True:
                stopping.stop_here()
                handled = work_once(database, hosted, settings)
                if handled is not None:
                    summary = one_line(handled.summary, 300)
                    typer.echo(f"#{handled.submission_id} {handled.bot_name}: {summary}")
                elif once:
                    return
                else:
                    stopping.interruptible_sleep(poll)
    finally:
        database.close()


@app.command("list")
def list_submissions(
    db: DbPath = DEFAULT_PATH,
    author: Annotated[
        str | None, typer.Option("--author", help="only this author's submissions")
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, max=MAX_SQL_INTEGER, help="the newest N")
    ] = 50,
    log: Annotated[
        bool, typer.Option("--log", help="print each submission's log after its row")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """List the newest submissions: author, bot, state (queued, building, validating, active,
    failed) and the last line of their log."""
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            author_id = authors.named(session, author).id if author is not None else None
            found = submissions.views(session, database.target, author_id=author_id, limit=limit)
    finally:
        database.close()
    if as_json:
        typer.echo(json.dumps([view.as_json() for view in found], indent=2))
        return
    console = wide_console()
    table = Table("id", "author", "bot", "state", "updated (UTC)", "last line of the log")
    for view in found:
        table.add_row(
            str(view.id),
            view.author,
            view.bot_name,
            view.state_words,
            view.updated_at.strftime("%Y-%m-%d %H:%M:%S"),
            one_line((view.log.splitlines() or [""])[-1], 300),
        )
    console.print(table)
    for view in found if log else []:
        console.print(f"--- #{view.id} {view.bot_name} ({view.state})", markup=False)
        console.print(shown_lines(view.log), markup=False, highlight=False)


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="submissions")
