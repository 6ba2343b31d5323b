"""Helpers of the long-game e2e tests: a game set at a chosen position (opened and started
through the bot's own game service, then posted by its Announcer, as a league round starts
a table's game without anybody's command), and the secrets check for private texts."""

from __future__ import annotations

import re
from typing import Any

from fakediscord import Message
from long_scenarios import ATTACK, spec, start_scenario
from setups import make_bot

from bot.app import SmallWorldBot
from bot.game.results import Loaded, make_outcome
from bot.store import Store

# "N coins", "**N** coins", "you now have **N**": every coin figure a text gives
COIN_FIGURE = re.compile(r"(\d+)\**\s*(?:coins?|seiersmynt|Sejrsmønt)\b(?! on it)|"
                         r"you now have \**(\d+)", re.IGNORECASE)

__all__ = ["ATTACK", "spec", "scenario_game", "make_bot", "coin_figures", "leaks_of",
           "transcript"]


async def scenario_game(bot: SmallWorldBot, scenario: dict[str, Any], users: dict[str, Any],
                        channel: dict[str, Any], *, options: dict[str, Any] | None = None,
                        guild: int) -> Loaded:
    """A game of `users` (seat name -> fake user) in `channel` at `scenario`'s position, its
    first turn posted with the panel, as the bot posts a game that begins."""
    ids = {name: int(user["id"]) for name, user in users.items()}
    loaded = await start_scenario(bot.service, scenario, ids, channel=int(channel["id"]),
                                  guild=guild, options=options)
    out = await bot.service.finish(make_outcome(loaded.game, loaded.state, [], None))
    out.turn_started = True
    await bot.announcer.announce(out, fresh=True)
    return loaded


def coin_figures(text: str) -> set[int]:
    return {int(a or b) for a, b in COIN_FIGURE.findall(text)}


async def leaks_of(store: Store, game_id: int, reader_id: int, texts: list[str],
                   seat: str) -> list[str]:
    """Coin figures in a member's private texts that are not her own: her income and
    totals from her own scored events are hers to read; any other figure is a leak."""
    own: set[int] = set()
    for row in await store.actions(game_id):
        for e in row.events:
            if e.get("type") == "scored" and e.get("player") == seat:
                own |= {int(e.get("income") or 0), int(e.get("coins") or 0)}
    return [t for t in texts if coin_figures(t) - own - {0}]


def transcript(messages: list[Message], who: str) -> str:
    lines = []
    for m in messages:
        files = ", ".join(f"{a.filename} [alt: {a.description}]" for a in m.attachments)
        lines.append(f"--- {who}\n{m.content}" + (f"\n[files: {files}]" if files else ""))
    return "\n".join(lines)
