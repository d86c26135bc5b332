"""The referee: plays one game between bot processes and judges them.

``match`` (the match loop and the failure policy) runs bots through ``botprocess`` (start,
handshake, stop), which ties each process to the arena (``child``) under resource ``limits``, and
calls them through ``client`` (grpcio bridged into trio); in a tournament it borrows bots that
stay up across games from a ``pool``. What a game leaves behind is plain data
in ``arena.records``, so storage, wire and replay never import the referee."""
