"""A game's story (story.tell) from what the store holds: its first state and its log, with
the events each action recorded (checked against the replay). Kept for the last few games
asked about: the end card, the replay and the stats of one game ask in turn."""

from __future__ import annotations

from collections import OrderedDict

import story
from bot.seats import start_state
from bot.store import GameRow, Store

KEPT = 16


class Stories:
    """Stories of games, told once per game version."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._kept: OrderedDict[tuple[int, int], story.Story] = OrderedDict()

    async def of(self, game: GameRow) -> story.Story:
        """The story of a started game as its log stands (no coins before the end)."""
        key = (game.id, game.version)
        told = self._kept.get(key)
        if told is None:
            seqs = await self.store.snapshot_seqs(game.id)
            start = start_state(game, await self.store.snapshot(game.id, 0) if 0 in seqs
                                else None)
            rows = await self.store.actions(game.id)
            told = story.tell(start, [r.action for r in rows], [r.events for r in rows])
            self._kept[key] = told
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return told
