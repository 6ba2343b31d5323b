"""Moderators at a table: take actions back, skip a turn, remove a player (a replacement, an
AI, or a vacant seat whose turns are skipped), stop the game."""

from __future__ import annotations

import i18n
from bot import text
from bot.errors import LobbyError, NothingToUndo, NotSeated
from bot.game.play import Play
from bot.game.results import Outcome
from bot.language import of_game
from bot.seats import AI_LEVELS, ai_level, left_seat
from bot.store import GameRow, GameStatus, Seat


class Moderation(Play):
    """What `/sw-mod` does to the game of a channel."""

    async def mod_undo(self, channel_id: int, mod_id: int, steps: int = 1) -> Outcome:
        """Moderator: take back the last `steps` actions of the game, whoever made them."""
        async with self.session(channel_id) as s:
            if s.version == 0:
                raise NothingToUndo.said("svc.no_actions")
            return await self.take_back(s, max(1, min(steps, s.version)), by=mod_id, who=None)

    async def skip(self, channel_id: int, mod_id: int) -> Outcome:
        """Moderator: finish the current actor's turn (or survivor placement) for them."""
        async with self.session(channel_id) as s:
            if s.active.finished:
                raise NothingToUndo.said("svc.game_over")
            who = s.active.actor
            await s.play_out(mod_id)
            await s.autoplay_vacant()
            s.headline = [text.skipped_line(who, of_game(s.game))]
            return await self.finish(s.outcome(mod_id))

    async def kick(self, channel_id: int, mod_id: int, user_id: int, *,
                   replacement: tuple[int, str] | None = None,
                   ai: str | None = None) -> Outcome | GameRow:
        """Moderator: remove a player. In a lobby the seat goes; in a game a replacement takes
        the seat, or an AI of level `ai`, or without either the seat is vacant and its turns
        are skipped."""
        async with self.session(channel_id, want="open") as s:
            game = s.game
            seat = game.seat_of(user_id)
            if seat is None:
                raise NotSeated.said("svc.no_seat_member")
            if game.status is GameStatus.LOBBY:
                return await s.update_lobby(players=[x for x in game.players
                                                     if x.user_id != user_id])
            lang = of_game(game)
            left = left_seat(seat)
            if replacement is not None:
                new_id, _ = replacement
                if game.seat_of(new_id):
                    raise LobbyError.said("svc.replacement_seated")
                for check in self.seat_checks:
                    await check(game, new_id)
                taker = Seat(new_id, seat.name, left=left)
                line = text.replaced_line(seat.name, new_id, lang)
            elif ai is not None:
                if ai not in AI_LEVELS:
                    raise LobbyError.said("svc.no_ai_level", level=text.echo(ai))
                taker = Seat(0, seat.name, ai=ai, left=left)
                line = i18n.t("svc.ai_seat", lang, level=ai_level(ai), seat=seat.name)
            else:
                taker = Seat(0, seat.name, vacant=True, left=left)
                line = text.vacated_line(seat.name, lang)
            await s.set_players([taker if x.user_id == user_id else x for x in game.players])
            await s.departed(user_id)
            await s.autoplay_vacant()
            s.headline = [line]
            return await self.finish(s.outcome(mod_id))

    async def end(self, channel_id: int, mod_id: int) -> GameRow:
        """Moderator: stop the channel's game or lobby without a result."""
        async with self.session(channel_id, want="open") as s:
            return await s.set_status(GameStatus.ENDED)


