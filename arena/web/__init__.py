"""The web arena (``arena serve``): a read-only web app over the arena's database.

``queries`` reads the SQLite file (read-only), ``boards`` computes leaderboards with the
``leaderboard`` package, ``replay`` turns a stored game into per-decision frames (a seat's frames
hold only that seat's view), ``pages`` assembles what each page shows, and ``app`` serves the
pages (``templates/``, ``static/``) and their JSON twins. docs/web.md describes it all.
"""
