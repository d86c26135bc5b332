"""``python -m arena.bench NAME [options]``, NAME one of protocol, storage, tournament, cluster,
web, gaps, sandbox, flood, ladder, hosting, live, instructions, logs, threads, calls: run one
benchmark
(``--help`` after the name lists its options)."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "protocol",
    "storage",
    "tournament",
    "cluster",
    "web",
    "gaps",
    "sandbox",
    "flood",
    "ladder",
    "hosting",
    "live",
    "instructions",
    "logs",
    "threads",
    "calls",
)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in BENCHMARKS:
        print(f"usage: python -m arena.bench {{{','.join(BENCHMARKS)}}} [options]", file=sys.stderr)
        raise SystemExit(2)
    # Imported by name: each benchmark loads only what it measures.
    importlib.import_module(f"arena.bench.{argv[0]}").main(argv[1:])


if __name__ == "__main__":
    main()
