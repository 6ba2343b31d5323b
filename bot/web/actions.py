"""A board's actions: the same game service calls as the slash commands and buttons, then the
same Announcer, so the channel's living message and turn posts come out as they do for a
member in chat (the path an AI's turn takes: no interaction to answer, the channel edited
and posted to).

Each message is answered once by its `id`: a page that resends an action it got no answer
for (a dropped socket, a restart) gets the first answer again, and the action is never
applied twice. A board names the log revision it was drawn from, so an action aimed at an
older board is refused as stale, never applied to a position its player did not see.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import i18n
from bot import text
from bot.chat.announce import Announcer
from bot.errors import RuleBroken, ServiceError
from bot.game import ai_worker
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.ui import refusal_text
from bot.web import snapshot
from bot.web.hub import Board
from bot.web.metrics import Metrics

log = logging.getLogger(__name__)

ANSWERS_KEPT = 2048
Answer = dict[str, Any]


class Actions:
    """What a board's member does, through the service; answered as docs/web.md says."""

    def __init__(self, service: GameService, announcer: Announcer, metrics: Metrics,
                 names: Callable[[int], dict[int, str]]) -> None:
        self.service = service
        self.announcer = announcer
        self.metrics = metrics
        self.names = names  # channel id -> its game's seated members' names, by user id
        self._answers: OrderedDict[tuple[int, int, str], asyncio.Future[Answer]] = OrderedDict()
        self._posts: set[asyncio.Task[Any]] = set()

    async def once(self, board: Board, msg_id: str,
                   work: Callable[[], Awaitable[Answer]]) -> Answer:
        """`work`'s answer to message `msg_id` of this member on this channel, made once."""
        key = (board.viewer.user_id, board.channel_id, msg_id)
        found = self._answers.get(key)
        if found is not None:
            return await asyncio.shield(found)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._answers[key] = future
        while len(self._answers) > ANSWERS_KEPT:
            self._answers.popitem(last=False)
        try:
            answer = await work()
        except BaseException as exc:
            self._answers.pop(key, None)  # not answered: a resend may try again
            future.cancel()
            if isinstance(exc, Exception):
                log.exception("board action %s of %r failed", msg_id, board.viewer)
                return self.refused(board, msg_id, exc)
            raise
        future.set_result(answer)
        return answer

    def refused(self, board: Board, msg_id: str, exc: BaseException) -> Answer:
        """The chat's sentence for a refusal, in the viewer's language (an apology for a
        bug); mentions become names."""
        worded = refusal_text(exc, board.lang)
        if worded is None:
            worded, code = i18n.t("ui.apology", board.lang), "error"
        elif isinstance(exc, RuleBroken):
            code = exc.rule_code
        else:
            code = getattr(exc, "code", "refused")
        self.metrics.actions["stale" if code == "stale" else "refused"] += 1
        return {"t": "err", "id": msg_id, "code": code,
                "text": snapshot.plain(worded, self.names(board.channel_id))}

    async def act(self, board: Board, msg_id: str, game_id: int, revision: int,
                  action: dict[str, Any]) -> Answer:
        async def work() -> Answer:
            try:
                outcome = await self.service.act(board.channel_id, board.viewer.user_id,
                                                 action, game_id=game_id, revision=revision)
            except ServiceError as exc:
                return self.refused(board, msg_id, exc)
            return self._applied(msg_id, outcome)
        return await self.once(board, msg_id, work)

    async def undo(self, board: Board, msg_id: str, game_id: int, revision: int) -> Answer:
        async def work() -> Answer:
            try:
                outcome = await self.service.undo(board.channel_id, board.viewer.user_id,
                                                  game_id=game_id, revision=revision)
            except ServiceError as exc:
                return self.refused(board, msg_id, exc)
            return self._applied(msg_id, outcome)
        return await self.once(board, msg_id, work)

    async def hint(self, board: Board, msg_id: str) -> Answer:
        """/sw hint for the board's member (the service says when hints are not hers)."""
        async def work() -> Answer:
            try:
                loaded = await self.service.hint_position(board.channel_id,
                                                          board.viewer.user_id)
            except ServiceError as exc:
                return self.refused(board, msg_id, exc)
            told = await ai_worker.hint(loaded.state, ai_worker.ai_seed(loaded.game.seed,
                                                                        loaded.version))
            words = [snapshot.plain(line, {}) for line in text.hint_lines(told, board.lang)]
            return {"t": "hint", "id": msg_id, "text": "\n".join(words),
                    "action": told["action"]}
        return await self.once(board, msg_id, work)

    def _applied(self, msg_id: str, outcome: Outcome) -> Answer:
        """Committed: the channel hears of it (in the background: the answer goes now)."""
        self.metrics.actions["applied"] += 1
        task = asyncio.create_task(self._announce(outcome), name="web-announce")
        self._posts.add(task)
        task.add_done_callback(self._posts.discard)
        return {"t": "ack", "id": msg_id, "v": outcome.game.revision}

    async def _announce(self, outcome: Outcome) -> None:
        try:
            await self.announcer.announce(outcome)
        except Exception:  # noqa: BLE001 - the action stands; the next post catches up
            log.exception("announcing a board action in game %s failed", outcome.game.id)

    async def drain(self, timeout: float = 10.0) -> None:
        """Let the posts in hand finish (shutdown)."""
        if self._posts:
            await asyncio.wait(set(self._posts), timeout=timeout)
