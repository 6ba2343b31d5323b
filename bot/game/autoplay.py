"""AI seats and timeouts: the game's own deadline kinds, handled without Discord.

`AutoPlayer.play` plays one stint — an AI seat's turn, a timed-out member's turn, survivors
to place — planned in an AI worker (bot.game.ai_worker.plan_stint) and applied in one
session through the same commit-before-reply path and checks as a member's command
(bot.game.play.Play.play_stint); then the Announcer posts it (`post`). The deadline kinds
`ai`, `turn`, `half`, `near` and `survivors` (bot/clock.py) are handled here; the bot
registers them with the scheduler's dispatch.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import i18n
from bot.clock import ALARM, Deadline, Dispatch, format_duration, level_name
from bot.errors import NoGameHere, StaleVersion
from bot.game import ai_worker
from bot.game.quiet import QuietHours
from bot.game.results import Outcome
from bot.game.service import GameService
from bot.game.stints import stint_key
from bot.language import of_game
from bot.seats import TIMEOUT_LEVEL, actor_level, auto_level, vacant_seats
from bot.store import GameRow, GameStatus

log = logging.getLogger(__name__)

GAME_KINDS = ("ai", "turn", "half", "near", "survivors", "wake")
MAX_ATTEMPTS = 5  # a stint planned again after the game moved on meanwhile

Post = Callable[[Outcome], Awaitable[None]]
Remind = Callable[[int, int, int, str], Awaitable[None]]  # channel, game, user, text
Wake = Callable[[GameRow, Any], Awaitable[None]]  # game, its state: the actor's turn DM


def stint_levels(game: GameRow, forced: tuple[str, str] | None,
                 state: Any = None) -> dict[str, str]:
    """seat -> AI level of every seat the AI plays now (and a timed-out member's seat)."""
    levels = {seat.name: level for seat in game.players
              if (level := auto_level(game, seat.name))}
    # a member away on vacation keeps her turns, but her survivors cannot wait for her
    levels |= {seat.name: level for seat in game.players if seat.name not in levels
               and (level := auto_level(game, seat.name, placing=True))
               and state is not None and state.actor == seat.name
               and state.actor != state.players[state.current]}
    if forced is not None:
        levels[forced[0]] = forced[1]
    return levels


class AutoPlayer:
    """Plays AI stints through the service and handles the game's deadlines."""

    def __init__(self, service: GameService, post: Post, remind: Remind | None = None,
                 wake: Wake | None = None) -> None:
        self.service = service
        self.post = post
        self.remind = remind
        self.wake = wake
        self.stints = 0

    async def _orders(self, game: GameRow, state: Any) -> dict[str, str]:
        """Seat -> its member's standing orders (read only when survivors may come up: the
        stint attacks someone, or a defender places now)."""
        members = {s.user_id: s.name for s in game.players if s.user_id and not s.ai}
        if not members:
            return {}
        found = await self.service.store.standing_orders(members)
        return {members[uid]: order for uid, order in found.items()}

    def register(self, dispatch: Dispatch) -> None:
        for kind in GAME_KINDS:
            dispatch.on(kind, self.fire)

    async def play(self, channel_id: int, seat: str, *, forced: str | None = None,
                   header: Sequence[str] = ()) -> Outcome | None:
        """Play `seat`'s part of the current turn with the AI, then post one summary.

        `forced` is the level for a member's seat whose limit ran out (otherwise the seat's
        own AI level). AI defenders who must place survivors within the same turn are played
        too; the stint stops when a member must act, the next turn starts, or the game ends.
        """
        service = self.service
        pair = (seat, forced) if forced else None
        for _ in range(MAX_ATTEMPTS):
            try:
                loaded = await service.peek(channel_id)
            except NoGameHere:
                return None  # finished, or ended by a moderator
            if loaded.state.finished:
                return None
            game = loaded.game
            orders = await self._orders(game, loaded.state)
            moves = await ai_worker.plan_stint(
                loaded.state, game.seed, game.version, stint_levels(game, pair, loaded.state),
                list(vacant_seats(game)), orders)
            try:
                out = await service.play_stint(channel_id, moves, version=game.version,
                                               forced=pair, headline=header)
            except StaleVersion:
                continue  # somebody acted meanwhile: look again
            if out is None:
                return None
            self.stints += 1
            await self.post(out)
            return out
        log.warning("channel %s: the game kept moving while the AI planned", channel_id)
        return None

    async def fire(self, row: Deadline) -> None:
        """The dispatch's handler for every game deadline kind."""
        try:
            await self._fire(row)
        finally:
            self.service.forget_stint(row.game_id)

    async def _fire(self, row: Deadline) -> None:
        service = self.service
        game = await service.store.get_game(row.game_id)
        if game is None or game.status is not GameStatus.ACTIVE:
            return
        loaded = await service.loaded(game)
        state = loaded.state
        if state.finished:
            return
        actor = state.actor
        if row.kind == "ai":
            if not actor_level(game, state):  # her vacation ended meanwhile: her clock
                await service.resync(game)
            elif await self.play(game.channel_id, actor) is None:
                now = await service.loaded(await service.store.get_game(row.game_id) or game)
                if now.game.version == game.version and actor_level(now.game, now.state):
                    raise RuntimeError(f"the AI made no move for {actor}")  # retried later
            return
        if actor != row.seat or actor_level(game, state) or stint_key(game, state) != row.key:
            return  # the stint is over (or the AI has the seat): nothing to do
        if row.kind in ("half", "near"):
            await self._remind(game, row)
        elif row.kind == "wake":
            if self.wake is not None:
                await self.wake(game, state)
        elif row.kind == "turn":
            if await self._spend_day(game, row):
                return
            count, away = await service.timed_out(game.channel_id, actor)
            lang = of_game(game)
            level = await self.takeover(game)
            limit = format_duration(game.opts.turn_clock.limit)
            header = [ALARM + i18n.t("clock.timed_out", lang, seat=actor, limit=limit,
                                     level=level_name(level, lang))]
            seat = game.seat_named(actor)
            if away and seat is not None:
                header.append(i18n.t("clock.away", lang, n=count, seat=actor,
                                     user=seat.user_id))
            await self.play(game.channel_id, actor, forced=level, header=header)
        elif row.kind == "survivors":
            limit = format_duration(service.rules.survivor_limit)
            header = [ALARM + i18n.t("clock.survivors_timed_out", of_game(game), seat=actor,
                                     limit=limit)]
            await self.play(game.channel_id, actor, forced=await self.takeover(game),
                            header=header)

    async def _spend_day(self, game: GameRow, row: Deadline) -> bool:
        """Her turn ran out: one away day of her bank gives her a day more, if she has one
        (the channel is told when her turn now ends and how many days she has left)."""
        spent = await self.service.spend_day(game, row.seat, row.key)
        if spent is None:
            return False
        due, left = spent
        seat = game.seat_named(row.seat)
        line = ALARM + i18n.t("away.day_spent", of_game(game), seat=row.seat, until=int(due),
                              left=left, user=seat.user_id if seat else 0)
        out = await self.service.notice(game.channel_id, game.id, [line])
        if out is not None:
            await self.post(out)
        return True

    async def takeover(self, game: GameRow) -> str:
        """The AI level that plays a member's turn whose time ran out: the server's choice
        (/sw-mod server), else normal."""
        return (await self.service.store.guild_options(game.guild_id)).takeover or TIMEOUT_LEVEL

    async def _remind(self, game: GameRow, row: Deadline) -> None:
        seat = game.seat_named(row.seat)
        deadline = next((d for d in await self.service.store.deadlines(game.id)
                         if d.kind == "turn"), None)
        if seat is None or not seat.user_id or deadline is None or self.remind is None:
            return
        if deadline.due_at <= self.service.now():
            return  # her time ran out meanwhile (the bot was down): the timeout comes next,
            # not a reminder that she has 0s left
        settings = await self.service.store.member_settings(seat.user_id)
        quiet = QuietHours.stored(settings.quiet, settings.zone)
        if quiet is not None and quiet.contains(self.service.now()):
            return  # (set after this turn's deadlines were armed: they did not move)
        left = format_duration(max(0.0, deadline.due_at - self.service.now()))
        lang = of_game(game)  # a mention in the channel: the game's language
        if game.opts.turn_clock.remind == "dm" and self.service.dm_language:
            lang = await self.service.dm_language(seat.user_id, game)  # a DM: the reader's
        line = ALARM + i18n.t("clock.reminder", lang, user=seat.user_id, channel=game.channel_id,
                              game=game.id, left=left)
        await self.remind(game.channel_id, game.id, seat.user_id, line)
