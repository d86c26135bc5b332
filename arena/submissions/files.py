"""Where a hosted arena keeps what authors upload, beside its database: ``<db>-hosted/`` (with
a PostgreSQL database, which has no directory, the user's data directory:
``~/.local/share/arena/<host>-<port>-<dbname>.hosted/``; processes on several machines share it
as a network file system mounted there, docs/hosting.md).

- ``archives/<sha256>``: each archive as uploaded, named by its hash (the same upload twice is
  stored once);
- ``bots/<submission id>/``: the directory of each version that became active, built; the
  version's ``directory`` points here, so the ladder runs it from here;
- ``work/<submission id>/``: a worker's scratch space while it handles one submission;
- ``logs/``: the bots' logs of a ladder played over this database (``arena ladder`` keeps them
  here unless ``--bot-logs`` says otherwise), which authors download game by game.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from arena.storage.target import DatabaseTarget, PostgresUrl


@dataclass(frozen=True)
class HostedFiles:
    root: Path

    @classmethod
    def beside(cls, database: DatabaseTarget) -> HostedFiles:
        if isinstance(database, PostgresUrl):
            return cls(database.local_dir("hosted"))
        return cls(database.resolve().parent / f"{database.stem}-hosted")

    @property
    def archives(self) -> Path:
        return self.root / "archives"

    @property
    def bots(self) -> Path:
        return self.root / "bots"

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def archive(self, archive_hash: str) -> Path:
        return self.archives / archive_hash

    def store_archive(self, data: bytes) -> str:
        """Keep ``data`` under its sha256 (written to a temporary name, then renamed: a reader
        never sees half an archive); the hash."""
        digest = hashlib.sha256(data).hexdigest()
        self.archives.mkdir(parents=True, exist_ok=True)
        try:  # uploaded again: fresh, so the worker's clean-up leaves it for its new upload
            os.utime(self.archive(digest))
        except FileNotFoundError:
            fd, name = tempfile.mkstemp(dir=self.archives, prefix=".upload-")
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.replace(name, self.archive(digest))
        return digest

    def remove_archives(self, kept: set[str], older_than: float) -> int:
        """Remove the archives not in ``kept`` last written more than ``older_than`` seconds
        ago (a younger one may belong to an upload being queued now); how many."""
        removed = 0
        cutoff = time.time() - older_than
        for path in self.archives.glob("[0-9a-f]*") if self.archives.is_dir() else []:
            try:
                if path.name not in kept and path.stat().st_mtime < cutoff:
                    path.unlink()
                    removed += 1
            except FileNotFoundError:
                pass
        return removed
