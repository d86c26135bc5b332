"""``arena authors``: the operator adds the authors who submit bots over the network, gives
them tokens and revokes them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer
from rich.table import Table

from arena.commands import wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.storage import authors as stored_authors
from arena.storage import withdrawals
from arena.storage.database import open_database
from arena.storage.target import DatabaseTarget

app = typer.Typer(
    help="Authors who submit bots over the network (arena submit --to), and their tokens.",
    no_args_is_help=True,
)

T = TypeVar("T")
AuthorName = Annotated[str, typer.Argument(help="the author's name")]


def _print_token(name: str, token: str) -> None:
    typer.echo(token)
    typer.echo(
        f"the token of {name}: give it to them now (the arena keeps only its hash and cannot "
        "show it again); they keep it in a file and run arena submit --to URL --token-file FILE",
        err=True,
    )


def _change(db: DatabaseTarget, change: Callable[[Any, str], T], name: str) -> T:
    """``change(session, name)`` in one write transaction on the database at ``db``."""
    database = open_database(db, create=True)
    try:
        with database.write() as session:
            return change(session, name)
    finally:
        database.close()


@app.command("add")
def add(name: AuthorName, db: DbPath = DEFAULT_PATH) -> None:
    """Add an author and print their token (once: only its hash is stored)."""
    _print_token(name, _change(db, stored_authors.add, name))


@app.command("token")
def token(name: AuthorName, db: DbPath = DEFAULT_PATH) -> None:
    """Print a new token for an author (a lost one); their earlier tokens stop working."""
    _print_token(name, _change(db, stored_authors.new_token, name))


@app.command("revoke")
def revoke(
    name: AuthorName,
    withdraw: Annotated[
        bool,
        typer.Option(
            "--withdraw",
            help="also withdraw their bots from play (as arena bots withdraw: a leaked token "
            "needs no withdrawal, an abusive author does)",
        ),
    ] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Revoke an author's token: they can submit no more and are signed out of the web. Their
    bots stay and play, unless --withdraw."""

    def change(session: Any, name: str) -> tuple[bool, list[str]]:
        revoked = bool(stored_authors.revoke(session, name))
        if not withdraw:
            return revoked, []
        author = stored_authors.named(session, name).id or 0
        return revoked, withdrawals.withdraw_authors_bots(session, author, "its author was revoked")

    revoked, withdrawn = _change(db, change, name)
    typer.echo(f"{name}: token revoked" if revoked else f"{name}: had no token in force")
    if withdraw:
        typer.echo(f"withdrawn from play: {', '.join(withdrawn) or 'none (no bot in play)'}")


@app.command("list")
def list_authors(
    db: DbPath = DEFAULT_PATH,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """List the authors, with their bots' count and whether they hold a token."""
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            found = stored_authors.summaries(session)
    finally:
        database.close()
    if as_json:
        rows = [
            {
                "name": a.name,
                "created_at": a.created_at.isoformat(),
                "bots": a.bots,
                "token": a.has_token,
            }
            for a in found
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    table = Table("author", "bots", "token", "added (UTC)")
    for author in found:
        table.add_row(
            author.name,
            str(author.bots),
            "in force" if author.has_token else "none",
            author.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    wide_console().print(table)


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="authors")
