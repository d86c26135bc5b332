"""``--sandbox bwrap|none`` and ``--allow-network``, shared by ``arena match`` and
``arena tournament``: how local bots are confined (``arena.sandbox``)."""

from __future__ import annotations

from typing import Annotated

import typer

from arena.commands import warn
from arena.errors import SetupError
from arena.sandbox import TOOLS, SandboxPolicy, bwrap_problem

SandboxTool = Annotated[
    str | None,
    typer.Option(
        "--sandbox",
        metavar="bwrap|none",
        help="confine each local bot in a bubblewrap sandbox (default) or not at all "
        "(none: the bot "
        "runs as your user, with your files)",
    ),
]
AllowNetwork = Annotated[
    bool,
    typer.Option(
        "--allow-network",
        help="let sandboxed bots whose bot.toml says `network = true` use the network (default: no "
        "bot has network)",
    ),
]


def resolve_policy(tool: str | None, allow_network: bool, *, strict: bool) -> SandboxPolicy:
    """The policy asked for. Without ``--sandbox`` it is bwrap; where bwrap cannot run, a
    match (``strict`` False) says so in one line and runs bots unsandboxed, a tournament
    (``strict``) refuses unless ``--sandbox none`` is given. Raises SetupError."""
    if tool is not None and tool not in TOOLS:
        raise SetupError(f"--sandbox {tool!r}: expected one of {', '.join(TOOLS)}")
    policy = SandboxPolicy(tool=tool or "bwrap", allow_network=allow_network)
    if policy.tool == "bwrap" and (problem := bwrap_problem()) is not None:
        if tool is None and not strict:
            warn(f"{problem}; bots run unsandboxed")
            return SandboxPolicy(tool="none", allow_network=allow_network)
        raise SetupError(f"{problem}; give --sandbox none to run bots unsandboxed")
    return policy
