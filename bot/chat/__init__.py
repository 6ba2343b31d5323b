"""The chat side of a game: the Announcer (the living message and every turn post), DMs,
the components and what a member's command or click does."""
