"""Bots submitted over the network: where their files live (``files``) and the worker that
turns a queued archive into a registered version (``worker``). The queue itself is stored by
``arena.storage.submissions``."""
