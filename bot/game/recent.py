"""The latest actions of each game, kept parsed: the undo count, the turn story of the living
message and a turn map's highlight all look back over the current turn, several times per
reply. Re-reading and re-parsing those rows was a large part of the bot's CPU.

`RecentLog` keeps each game's tail as the store holds it while the game row is at `mark`
(version, revision): every write of the log (append, undo) moves the revision in the same
transaction, so a log another process (or service) changed meanwhile never matches, even
when an undo and new actions brought the version back.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot import text
from bot.game.results import conquered
from bot.store import ActionRow, Store

Mark = tuple[int, int]
RECENT_FIRST = 24  # actions read first when looking back over the current turn (see recent)
TAIL_KEEP = 48  # parsed latest actions kept per game
TAIL_GAMES = 200  # games whose latest actions are kept (the least recently used go first)
SAID_ROWS = 4096  # rows whose public lines are kept (all forgotten at once past that)
STORY_ROWS = 120  # actions read back for the living message (a turn is far shorter)


@dataclass(slots=True)
class _Tail:
    mark: Mark
    rows: list[ActionRow]
    whole: bool  # rows start at the game's first action


@dataclass(slots=True)
class _Said:
    """A row's public events and, per language, each one's line (None: no line), as
    text.describe_events words them: the living message re-tells the turn on every reply."""

    row: ActionRow  # held, so the id keying it is not reused while it is kept
    public: list[dict[str, Any]]
    _lines: dict[str, list[str | None]] = field(default_factory=dict)

    def lines(self, lang: str) -> list[str | None]:
        got = self._lines.get(lang)
        if got is None:
            got = self._lines[lang] = [
                None if e.get("private") else text.describe_event(e, lang)
                for e in self.public]
        return got


def _turn_begins(i: int, row: ActionRow) -> bool:
    """Counting back from the newest row (i = 0), this older row ended the previous turn."""
    return i > 0 and row.ends_turn and any(e.get("type") == "turn_ended" for e in row.events)


class RecentLog:
    """Each game's latest actions, parsed and kept while they are the log's tail."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tails: OrderedDict[int, _Tail] = OrderedDict()  # game id -> its latest actions
        self._saids: dict[int, _Said] = {}  # id of a kept row -> its public lines

    async def rows(self, game_id: int, limit: int, enough: Callable[[list[ActionRow]], bool],
                   mark: Mark | None = None, *, locked: bool = True) -> list[ActionRow]:
        """The latest `limit` actions, or fewer when the latest RECENT_FIRST of them already
        answer the question (`enough`): the current turn is nearly always within them.

        `mark` is the game's (version, revision) as just read from the store, or as this
        process left it under the channel lock: the kept tail answers when it is at that
        mark. Rows read from the store are kept only when `locked` (the channel's lock is
        held, so the log cannot move between reading the mark and the rows)."""
        tail = self._tails.get(game_id) if mark is not None else None
        if tail is not None and tail.mark == mark:
            self._tails.move_to_end(game_id)
            rows = tail.rows[-limit:]
            first = rows[-RECENT_FIRST:]  # as from the store: the fewest rows that answer
            if len(first) < len(rows) and enough(first):
                return first
            if tail.whole or len(tail.rows) >= limit or enough(rows):
                return rows
        count = min(limit, RECENT_FIRST)
        rows = await self.store.recent_actions(game_id, count)
        whole = len(rows) < count
        if not (whole or count == limit or enough(rows)):
            rows = await self.store.recent_actions(game_id, limit)
            whole = len(rows) < limit
        if mark is not None and locked and (rows[-1].seq if rows else 0) == mark[0]:
            self._keep(game_id, _Tail(mark, rows[-TAIL_KEEP:], whole and len(rows) <= TAIL_KEEP))
        return rows

    def _keep(self, game_id: int, tail: _Tail) -> None:
        self._tails[game_id] = tail
        self._tails.move_to_end(game_id)
        while len(self._tails) > TAIL_GAMES:
            self._tails.popitem(last=False)

    def extend(self, before: Mark, row: ActionRow, revision: int) -> None:
        """This process appended `row` to a log that was at `before`, which is now at
        `revision`: the kept tail follows (or is dropped when it was not at `before`)."""
        tail = self._tails.get(row.game_id)
        if tail is None:
            return
        if tail.mark != before or row.seq != before[0] + 1:
            del self._tails[row.game_id]
            return
        tail.rows.append(row)
        if len(tail.rows) > TAIL_KEEP:
            del tail.rows[:-TAIL_KEEP]
            tail.whole = False
        tail.mark = (row.seq, revision)

    def forget(self, game_id: int) -> None:
        """The log was cut (undo): read it again next time."""
        self._tails.pop(game_id, None)

    # -- questions about the current turn -----------------------------------------------

    async def undoable(self, game_id: int, seat: str, mark: Mark) -> int:
        """How many of the latest actions are `seat`'s own, since the last die roll, draw or
        turn boundary (what undo may take back)."""
        def stops(row: ActionRow) -> bool:
            return row.player != seat or row.reveals or row.ends_turn

        n = 0
        for row in reversed(await self.rows(game_id, 100, lambda rows: any(map(stops, rows)),
                                            mark)):
            if stops(row):
                break
            n += 1
        return n

    async def turn_conquests(self, game_id: int, mark: Mark | None, *, locked: bool = True,
                             upto: int | None = None) -> tuple[int, ...]:
        """Regions conquered during the turn of the latest action, or of action `upto` (the
        turn map's highlight): back to the row that ended the turn before."""
        def cut(rows: list[ActionRow]) -> list[ActionRow]:
            return rows if upto is None else [r for r in rows if r.seq <= upto]

        rows = cut(await self.rows(game_id, 200, lambda rows: any(
            _turn_begins(i, row) for i, row in enumerate(reversed(cut(rows)))), mark,
            locked=locked))
        turn: list[dict[str, Any]] = []
        for i, row in enumerate(reversed(rows)):
            if _turn_begins(i, row):
                break
            turn[:0] = row.events
        return conquered(turn)

    async def story(self, game_id: int, mark: Mark | None, since: int = 0,
                    lang: str = "en") -> tuple[list[str], list[str]]:
        """Public lines for the channel's living message: (finished, live).

        `finished` tells the turns that ended in actions `since`.. (empty when none did), up
        to and including the last end of a turn; `live` is what happened after that."""
        Events = list[tuple[int, dict[str, Any], _Said, int]]  # seq, event, its row's, index

        def told(rows: list[ActionRow]) -> tuple[Events, list[int]]:
            events: Events = []
            for row in rows:
                said = self._said(row)
                events += [(row.seq, e, said, i) for i, e in enumerate(said.public)]
            return events, [i for i, (_, e, _, _) in enumerate(events)
                            if e.get("type") in ("turn_ended", "game_over")]

        def words(part: Events) -> list[str]:
            # text.describe_events of the part's events, each row's lines worded once
            return [line for _, _, said, i in part if (line := said.lines(lang)[i])]

        def enough(rows: list[ActionRow]) -> bool:
            # the same answer as from STORY_ROWS rows: an end of a turn is in the window,
            # and, when the finished part is asked for, one before `since` too
            events, ends = told(rows)
            return bool(ends) and (since <= 0 or any(events[i][0] < since for i in ends)
                                   or events[ends[-1]][0] < since)

        events, ends = told(await self.rows(game_id, STORY_ROWS, enough, mark, locked=False))
        if not ends:
            return [], words(events)
        last = ends[-1]
        live = words(events[last + 1:])
        if since <= 0 or events[last][0] < since:
            return [], live
        # the finished part starts after the last end of a turn before `since`
        start = max((i + 1 for i in ends if events[i][0] < since), default=0)
        return words(events[start:last + 1]), live

    def _said(self, row: ActionRow) -> _Said:
        """The public events of a kept row and their lines, worked out once per row object
        (a kept tail hands out the same objects; a row read again is a new object)."""
        said = self._saids.get(id(row))
        if said is None or said.row is not row:
            if len(self._saids) >= SAID_ROWS:
                self._saids.clear()
            said = self._saids[id(row)] = _Said(row, text.public_events(row.events))
        return said
