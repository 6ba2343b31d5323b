"""A game's public action log as one JSON file that `python -m engine run FILE` replays:

    {"format": "smallworld-log/1", "game": 12, "finished": true,
     "scenario": {...the starting position...}, "actions": [{...}, ...]}

A finished game's scenario is its real start (board, seats, seed, options), so the replay is
the game itself. A running game must not give away what is still hidden: the seed decides
the stacks' order and every future die roll, so it is left out. The scenario then spells
out the opening row, the combos drawn so far (in order) and the die results rolled so far;
replayed, it reaches the same public position. Nothing in the file holds a coin total or
income: actions carry none, and the events (where the private ones live) are not exported.
"""

from __future__ import annotations

from typing import Any

import engine
from bot.seats import start_state
from bot.store import GameRow, GameStatus, Store

FORMAT = "smallworld-log/1"


class NotExportable(Exception):
    """The log cannot be written without giving away hidden information; `key` names the
    reason (its sentence is the catalog's `svc.export.<key>`)."""

    def __init__(self, key: str, sentence: str) -> None:
        super().__init__(sentence)
        self.key = key


def _start_row(snapshot0: dict[str, Any] | None, game: GameRow) -> list[dict[str, Any]]:
    state = start_state(game, snapshot0)
    return [{"race": c["race"], "power": c["power"], "coins": c.get("coins", 0)}
            for c in engine.observe(state, None)["row"]]


async def export_game(store: Store, game_id: int) -> dict[str, Any]:
    game = await store.get_game(game_id)
    if game is None or game.status is GameStatus.LOBBY or game.started_at is None:
        raise NotExportable("not_started", "This game has not started, so there is no log to export yet.")
    board = game.board
    players = [s.name for s in game.players]
    options = (game.options or {}).get("engine") or None
    rows = await store.actions(game_id)
    actions = [row.action for row in rows]
    scenario: dict[str, Any] = {"board": board, "players": players}
    if options:
        scenario["options"] = options
    finished = game.status is GameStatus.FINISHED
    if finished:
        scenario["seed"] = game.seed
    else:
        races: list[str] = []
        powers: list[str] = []
        dice: list[int] = []
        for row in rows:
            for ev in row.events:
                if ev.get("type") == "drew":
                    races.append(ev["race"])
                    powers.append(ev["power"])
                elif ev.get("type") == "rolled":
                    dice.append(int(ev["value"]))
                elif ev.get("type") == "reshuffled":
                    raise NotExportable("reshuffled", "This game reshuffled the power badges, which an "
                                        "exported log cannot replay before the end; export "
                                        "it when the game is over.")
        row0 = _start_row(await store.snapshot(game_id, 0), game)
        if len(set(races)) != len(races) or {c["race"] for c in row0} & set(races):
            raise NotExportable("race_back", "A race came back into the stack in this game, which an "
                                "exported log cannot replay before the end; export it when "
                                "the game is over.")
        scenario.update(seed=0, row=row0, stack={"races": races, "powers": powers},
                        dice=dice)
    return {"format": FORMAT, "game": game_id, "finished": finished, "scenario": scenario,
            "actions": actions}
