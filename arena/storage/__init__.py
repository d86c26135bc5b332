"""The arena's SQLite storage: tables (``models``), opening and migrating the file
(``database``, ``migrations``), and the operations the commands need (``bots``, ``games``,
``tournaments``)."""
