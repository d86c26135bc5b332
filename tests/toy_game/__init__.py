"""A fourth game registered only in the tests (``nim``): its engine and its .proto, the two
things besides its rules that adding a game takes (engine/README.md, "How to add a game")."""
