"""discord.py encodes and parses every gateway frame, request and answer with orjson when it
is installed (a dependency for that reason): the bot's main process spends its CPU per action
largely in discord.py's I/O (bench/bot.py)."""

import discord.utils


def test_discord_py_uses_orjson() -> None:
    assert discord.utils.HAS_ORJSON
    assert discord.utils._from_json('{"a": [1, "é"]}') == {"a": [1, "é"]}
    assert discord.utils._to_json({"a": [1, "é"]}).replace(" ", "") == '{"a":[1,"é"]}'
