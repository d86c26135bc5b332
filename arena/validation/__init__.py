"""``arena validate``: the conformance kit a bot author runs before submitting a bot.

It runs the bot (a directory, or ``NAME@HOST:PORT`` for a bot already running) through every
check a tournament relies on and reports each as PASS, FAIL, WARN or SKIP with a hint:

- ``report``: the check results and the whole report (a table's rows, or JSON);
- ``opponent``: the random bot it plays against, written to a temporary directory;
- ``process``: the checks on one started bot process: manifest, start to ready, handshake
  fields and name, refusing a wrong token, a clean exit;
- ``games``: the games it claims, at 2 and at the most seats, against the random bot and
  against itself, then every decision kind they missed from its constructed position
  (``arena.positions``) so that none stays unreached; reply times, the same seed giving the
  same game, several games at once for an address bot;
- ``runner``: ``validate(...)``, which runs them in order, within a time budget if given, and
  returns the report.
"""

from arena.validation.report import Check, Report, Status
from arena.validation.runner import validate

__all__ = ["Check", "Report", "Status", "validate"]
