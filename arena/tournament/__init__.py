"""Round-robin tournaments: creating and resuming one (``setup``), its settings (``settings``),
the schedule (``schedule``), and the trio runner that plays and records the games, reporting to
an observer (``runner``)."""
