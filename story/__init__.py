"""A game's story: its turns and rounds, told by replaying its action log (stdlib + engine).

Below render and the bot: the end card and the animated replay (render.storycard,
render.replay) draw from a Story, and the bot takes its turn maps' highlight from
`conquered_in_turn`, the same rule a replay's frames use.
"""

from .timeline import Deed, Frame, Placing, SecretUntilOver, Stint, Story, deeds, tell
from .turns import (
    Replayed,
    StoryError,
    conquered_in_turn,
    ends_a_turn,
    posts_a_map,
    replay,
)

__all__ = ["Deed", "Frame", "Placing", "Replayed", "SecretUntilOver", "Stint", "Story",
           "StoryError", "conquered_in_turn", "deeds", "ends_a_turn", "posts_a_map", "replay", "tell"]
