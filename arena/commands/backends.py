"""Where the games of ``arena tournament`` and ``arena sprt`` are played: in this process, in
``--workers`` processes, or on the ``--ray`` cluster."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import typer

from arena.commands import fail
from arena.tournament import ray_backend


@contextmanager
def games_played_on(
    workers: int, ray_address: str | None, ray_cpus: float
) -> Iterator[ray_backend.RayCluster | None]:
    """The Ray cluster to play on (None: this machine), connected before anything is stored so
    that a cluster that cannot be used stores nothing."""
    if ray_address is not None and workers > 1:
        fail("give --workers (this machine's cores) or --ray (a cluster's), not both")
    if not ray_cpus > 0:  # wrong with or without --ray (it was taken without: outside review)
        fail("--ray-cpus must be > 0")
    with ExitStack() as stack:
        try:
            cluster = stack.enter_context(ray_backend.connected(ray_address, ray_cpus))
        except KeyboardInterrupt:
            fail("interrupted before the games started; nothing was stored", code=130)
        if cluster is not None:
            nodes = cluster.nodes()
            # on stderr, as every note beside the results (stdout may be --json)
            typer.echo(
                f"Ray cluster at {ray_address}: {len(nodes)} node(s) ({', '.join(nodes)})", err=True
            )
        yield cluster
