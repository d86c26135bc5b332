"""Round-robin tournaments: the schedule (``schedule``), the trio runner that plays and records
the games (``runner``) and its progress bar (``progress``)."""
