"""A replay is drawn a step at a time on its drawer, so a reply's picture asked for while it is
drawn waits for one step, not for the whole replay (bench/bot.py measured whole replays of
0.3-0.6 s holding up every other channel's maps at a game's end)."""

from __future__ import annotations

import asyncio

import engine
import render
import story
from bot import drawing, pictures


def test_a_drawer_draws_a_replay_a_frame_a_call_with_no_time_to_spare(game_log) -> None:
    tale = story.tell(*game_log("official-2p"))
    answers = [drawing.draw_step("t1", "replay_png", tale, {"lang": "en"}, 0.0)]
    while not answers[-1][0]:
        answers.append(drawing.draw_step("t1", "replay_png", None, None, 0.0))
    assert len(answers) == len(tale.frames) + 1
    assert answers[-1] == (True, render.replay_png(tale, lang="en"))
    # a token it does not know (its worker was replaced): nothing, so the caller starts again
    assert drawing.draw_step("t1", "replay_png", None, None, 0.0) == (True, None)


async def test_a_map_asked_for_during_a_replay_comes_before_it(game_log) -> None:
    pictures.use_render_thread()
    tale = story.tell(*game_log("official-2p"))
    done: list[str] = []

    async def replay() -> bytes | None:
        png = await pictures.replay_png(tale)
        done.append("replay")
        return png

    async def a_map() -> bytes | None:
        await asyncio.sleep(0)  # asked once the replay's first step is under way
        png = await pictures.map_png(engine.new_game("official-3p", ["a", "b", "c"], 3))
        done.append("map")
        return png

    whole, drawn = await asyncio.gather(replay(), a_map())
    assert done == ["map", "replay"]
    assert whole == render.replay_png(tale, lang="en")
    assert drawn is not None and drawn.startswith(b"\x89PNG")
