"""What an author uploads to a hosted arena: ``unpack`` (a stranger's archive unpacked safely)
and ``pack`` (a bot directory packed as ``arena submit --to`` sends it)."""
