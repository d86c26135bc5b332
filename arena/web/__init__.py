"""The web arena (``arena serve``): a read-only web app over the arena's database.

``arena.storage.read_only`` reads the SQLite file (read-only), ``boards`` computes leaderboards
with the ``leaderboard`` package, ``replay`` turns a stored game into per-decision frames (a
seat's frames hold only that seat's view), ``pages`` assembles what each page shows, and ``app``
serves the pages (``templates/``, ``static/``) and their JSON twins. docs/web.md describes it
all. Importing this package alone loads nothing: ``arena match`` reads the address from here.
"""

# Where ``arena serve`` listens unless told otherwise.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
