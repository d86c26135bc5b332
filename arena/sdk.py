"""The Python bot SDK under its old name: it moved to its own package, ``arena_sdk``
(sdk/python, installable alone), which new bots import. This re-export keeps ``from arena import
sdk`` working for existing bots."""

from arena_sdk import *  # noqa: F403 - a re-export of the whole SDK
