"""Playing: a member's action, taking actions back, and the AI's stints — each one session.

A member's End or Decline may first need her yes (tokens still in hand, a race about to
decline): `act(..., ask=True)` answers with an `Ask` instead of applying, from the same
loaded position, so a click costs one lock and one load either way.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import engine
from bot import text
from bot.errors import NothingToUndo, NotYourTurn, RuleBroken, StaleVersion
from bot.game.ai_worker import Move
from bot.game.core import GameCore
from bot.game.moves import dump, plain_action
from bot.game.panel import active_combo
from bot.game.results import Outcome, mark
from bot.game.session import Session
from bot.language import of_game
from bot.seats import actor_level, auto_level

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Ask:
    """End or Decline wants the member's yes first (the question and its Yes button are
    worded from this)."""

    game_id: int
    version: int
    verb: str  # "end" | "decline"
    hand: int  # tokens still in hand (End)
    active: tuple[str, str] | None  # the Active race and power (Decline)


def asks_first(state: engine.GameState, seat: str, verb: str) -> Ask | None:
    """Decline always asks; End asks while tokens are still in hand and no combo is to be
    picked (they would be placed for you). Only the actor's own turn asks."""
    if verb not in ("end", "decline") or state.finished or state.actor != seat:
        return None
    if state.players[state.current] != seat:
        return None  # a defender's "done" never asks
    verbs = {dump(a)["do"] for a in engine.legal_actions(state)}
    if verb not in verbs:
        return None  # refused anyway: the engine says why
    obs = engine.observe(state, None)
    hand = int(obs["players"][seat].get("hand") or 0)
    if verb == "end" and (hand == 0 or "pick" in verbs):
        return None
    return Ask(0, 0, verb, hand, active_combo(obs, seat))


class Play(GameCore):
    """Members' actions and undo; the AI's stints."""

    async def act(self, channel_id: int, user_id: int, action: Any, *,
                  game_id: int | None = None, version: int | None = None,
                  revision: int | None = None, ask: bool = False) -> Any:
        """Apply one action of the seated user who must act now; commit before returning.

        `action` is an engine Action or its protocol dict (the "player" field is filled in
        from the seat). With `game_id`/`version` (from a button) a newer game state is
        refused as stale instead of applying the click to a board the user did not see.
        With `ask`, an End or Decline that wants the member's yes first returns an `Ask`.
        `revision` (a board's): the log it was drawn from, else stale.
        """
        async with self.session(channel_id) as s:
            s.check_version(version, game_id, revision)
            seat = s.seat(user_id)
            if auto_level(s.game, seat.name):
                raise NotYourTurn.said("svc.ai_plays_you")
            s.check_actor(seat)
            if ask:
                question = asks_first(s.active, seat.name, str(dump(action).get("do")))
                if question is not None:
                    return Ask(s.game.id, s.version, question.verb, question.hand,
                               question.active)
            await s.act(seat, action, user_id)
            if seat.timeouts:  # she is here: her missed limits in a row start again
                await s.set_players(s.game.reseated(seat.name, timeouts=0))
            await s.autoplay_vacant()
            return await self.finish(s.outcome(user_id))

    async def undoable(self, channel_id: int, user_id: int) -> int:
        """How many of the user's latest actions can be taken back now."""
        loaded = await self.peek(channel_id)
        seat = loaded.game.seat_of(user_id)
        if seat is None or loaded.state.finished or loaded.state.actor != seat.name:
            return 0
        return await self.recent.undoable(loaded.game.id, seat.name, mark(loaded.game))

    async def undo(self, channel_id: int, user_id: int, *, steps: int = 1,
                   version: int | None = None, game_id: int | None = None,
                   revision: int | None = None) -> Outcome:
        """Take back the user's own last action(s) since the last die roll, draw or turn start."""
        if steps < 1:
            raise NothingToUndo.said("svc.undo_one")
        async with self.session(channel_id) as s:
            s.check_version(version, game_id, revision)
            seat = s.seat(user_id)
            s.check_actor(seat)
            n = await self.recent.undoable(s.game.id, seat.name, mark(s.game))
            if n == 0:
                raise NothingToUndo.said("svc.nothing_to_undo")
            return await self.take_back(s, min(steps, n), by=user_id, who=seat.name)

    async def take_back(self, s: Session, steps: int, *, by: int | None,
                        who: str | None) -> Outcome:
        """Cut the last `steps` actions from the session's game; the outcome says who took
        back what."""
        removed = await s.truncate(steps)
        s.headline = [text.undo_line(who, removed, of_game(s.game))]
        return await self.finish(s.outcome(by, events=[]))

    # -- the AI ----------------------------------------------------------------------------

    async def play_stint(self, channel_id: int, moves: Sequence[Move], *, version: int,
                         forced: tuple[str, str] | None = None,
                         headline: Sequence[str] = ()) -> Outcome | None:
        """Apply a stint the AI planned from `version` (bot.game.ai_worker.plan_stint) in one
        session, each move only while the game stands where it was planned: the same version,
        the same seat to act, and that seat still the AI's (`forced`: (seat, level) of a
        member's seat whose limit ran out). A refused move is replaced by the plainest legal
        one and the rest of the plan dropped (the next stint plans again). Raises StaleVersion
        when the game moved on before the stint began; None when nothing was done."""
        async with self.session(channel_id) as s:
            if s.version != version:
                raise StaleVersion.said("svc.stale")
            for move in moves:
                state = s.active
                if state.finished or s.version != move.version or state.actor != move.seat:
                    break
                if move.chosen and not (forced and forced[0] == move.seat) and \
                        not actor_level(s.game, state):
                    break  # its member took the seat back meanwhile
                seat = s.game.seat_named(move.seat)
                if seat is None:
                    break
                try:
                    await s.play(s.parse(seat, move.action), None, order=move.order)
                except RuleBroken as exc:
                    log.error("game %s: the AI chose a refused action %s (%s)", s.game.id,
                              move.action, exc.rule_code)
                    await s.play(plain_action(state), None)
                    break
                if move.chosen:
                    log.info("game %s: AI for %s: %s", s.game.id, move.seat,
                             text.action_phrase(move.action))
            await s.autoplay_vacant()
            if not s.events and not headline:
                return None
            s.headline = list(headline)
            return await self.finish(s.outcome(None))
