"""A channel's game: the unit of work (session), and the features built on it."""
