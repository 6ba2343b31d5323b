"""Finished games: each seat's result (for members' stats and history) and each game's story
(for the end card and the replay)."""
