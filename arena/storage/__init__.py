"""The arena's SQLite storage: tables (``models``), opening and migrating the file
(``database``, ``migrations``), and the operations the commands need (``bots``, ``games``,
``tournaments``)."""

import logging

# SQLAlchemy logs a second report of an error it is raising, with its traceback (a Ctrl-C in the
# middle of a fetch: "Error closing cursor"), and with no handler of its own Python printed that
# on the operator's terminal. The error itself reaches the command, which says it in one line.
logging.getLogger("sqlalchemy").addHandler(logging.NullHandler())
