"""Reading a game: what anyone may see (status, log, board, the final reveal, the exported
log) and what the player who must act may do (legal actions, combos, targets). Nothing here
takes the channel's lock or writes (bot.game.core.GameCore.peek)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
import i18n
from bot import text
from bot.clock import format_duration
from bot.errors import NoGameHere, NotAllowed, NotSeated, NotYourTurn
from bot.export import NotExportable, export_game
from bot.game.core import GameCore
from bot.game.moves import dump
from bot.game.panel import ComboChoice, Panel, Target, combos
from bot.game.results import Loaded, Outcome, ScoreLine, make_outcome, mark
from bot.game.seat_clock import SeatClock
from bot.language import of_game
from bot.seats import actor_level, ai_level, auto_level
from bot.store import GameRow, GameStatus


class Reading(SeatClock, GameCore):
    """What can be read of the game of a channel."""

    async def view(self, channel_id: int) -> Loaded:
        """The active game of a channel and its current state."""
        return await self.peek(channel_id)

    async def _last_started(self, channel_id: int) -> GameRow:
        game = await self.store.open_game(channel_id)
        if game is None or game.status is not GameStatus.ACTIVE:
            last = await self.store.last_game(channel_id, started=True)
            if last is None or last.status.is_open:
                raise NoGameHere.said("svc.no_started_game")
            game = last
        return game

    async def last_view(self, channel_id: int) -> Loaded:
        """The active game, or else the channel's most recent started game."""
        return await self.loaded(await self._last_started(channel_id))

    async def panel(self, channel_id: int) -> Panel:
        """Everything the actor can do now, labelled for menus and buttons."""
        loaded = await self.peek(channel_id)
        return await self.panel_of(loaded.game, loaded.state)

    async def legal(self, channel_id: int, user_id: int) -> list[Any]:
        """The user's legal actions now (empty when someone else must act)."""
        loaded = await self.peek(channel_id)
        seat = loaded.game.seat_of(user_id)
        if seat is None or loaded.state.finished or loaded.state.actor != seat.name:
            return []
        return list(engine.legal_actions(loaded.state))

    async def targets(self, channel_id: int, user_id: int) -> tuple[Target, ...]:
        """Regions the user may attack now, with their cost (autocomplete for /sw conquer)."""
        loaded = await self.peek(channel_id)
        seat = loaded.game.seat_of(user_id)
        if seat is None or loaded.state.actor != seat.name:
            return ()
        known = self.known_targets(loaded.game)
        if known is not None:  # asked again while typing: no need to list actions again
            return known
        legal = [dump(a) for a in engine.legal_actions(loaded.state)]
        return self.targets_at(loaded.game, loaded.state, legal,
                               engine.observe(loaded.state, None))

    async def combos(self, channel_id: int, user_id: int | None = None) -> list[ComboChoice]:
        """The visible combo row (autocomplete for /sw pick). `can_pick` reflects the user's
        own coins only when the user is the one to pick; otherwise every slot shows True."""
        loaded = await self.peek(channel_id)
        state = loaded.state
        seat = loaded.game.seat_of(user_id) if user_id is not None else None
        if seat is not None and not state.finished and state.actor == seat.name:
            legal = [dump(a) for a in engine.legal_actions(state)]
        else:
            legal = [{"do": "pick", "slot": i} for i in range(len(state.row))]
        return combos(engine.observe(state, None), legal)

    async def hint_position(self, channel_id: int, user_id: int) -> Loaded:
        """The game a member asks a hint for: running, hints on (never in league games),
        and her turn (or her survivors to place)."""
        loaded = await self.peek(channel_id)
        game, state = loaded.game, loaded.state
        if state.finished:
            raise NotAllowed.said("coach.over")
        if game.opts.league is not None:
            raise NotAllowed.said("coach.league")
        if not game.opts.hints:
            raise NotAllowed.said("coach.off")
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotSeated.said("svc.not_playing")
        if auto_level(game, seat.name):
            raise NotYourTurn.said("svc.ai_plays_you")
        if state.actor != seat.name:
            raise NotYourTurn.said("coach.not_your_turn", who=state.actor)
        return loaded

    async def turn_conquests(self, game_id: int) -> tuple[int, ...]:
        """Regions conquered so far in the turn of the latest action."""
        return await self.recent.turn_conquests(game_id, await self.store.log_mark(game_id),
                                                locked=False)

    async def turn_story(self, game_id: int, since: int = 0,
                         lang: str = "en") -> tuple[list[str], list[str]]:
        """Public lines for the channel's living message: (finished, live); see
        bot.game.recent.RecentLog.story."""
        return await self.recent.story(game_id, await self.store.log_mark(game_id), since, lang)

    async def score(self, user_id: int, channel_id: int | None = None) -> list[ScoreLine]:
        """The user's coins in every active game they sit in (or only this channel's)."""
        games = await self.store.games_with(user_id)
        if channel_id is not None:
            games = [g for g in games if g.channel_id == channel_id]
        out = []
        for game in games:
            loaded = await self.loaded(game)
            seat = game.seat_of(user_id)
            assert seat is not None
            obs = engine.observe(loaded.state, seat.name)
            me = obs["players"][seat.name]
            out.append(ScoreLine(game, seat.name, me.get("coins"), obs["round"],
                                 loaded.state.actor == seat.name))
        return out

    async def status(self, channel_id: int,
                     lang: str | None = None) -> tuple[Loaded, list[str]]:
        """Public status lines: round, whose turn, what they can do, in `lang` (default: the
        game's language)."""
        game = await self.store.open_game(channel_id)
        if game is None:  # the last game here, if it was played to the end
            game = await self.store.last_game(channel_id, started=True)
            if game is None or game.status is not GameStatus.FINISHED:
                raise NoGameHere.said("svc.no_game")
        lang = lang or of_game(game)
        if game.status is GameStatus.LOBBY:
            return Loaded(game, None), text.lobby_lines(game, lang)
        loaded = await self.loaded(game)
        if loaded.state.finished:
            obs = engine.observe(loaded.state, None, reveal_all=True)
            return loaded, [text.over_line(game.id, game.finished_at, lang),
                            *text.ranking_lines(obs.get("ranking"), obs.get("players", {}),
                                                lang)]
        obs = engine.observe(loaded.state, None)
        legal = [dump(a) for a in engine.legal_actions(loaded.state)]
        lines = text.status_lines(game, obs, legal, lang)
        level = actor_level(game, loaded.state)
        if level:
            lines.insert(1, i18n.t("svc.status.ai", lang, level=ai_level(level),
                                   player=loaded.state.actor))
        lines[1:1] = await self.standing_lines(game, lang)
        for seat, kind, left in await self.time_left(game.id):
            lines.insert(1, i18n.t("svc.status.clock", lang, seat=seat,
                                   survivors=kind == "survivors",
                                   left=format_duration(max(0, left)),
                                   clock=game.opts.turn_clock.describe(lang)))
        return loaded, lines

    async def standing_lines(self, game: GameRow, lang: str) -> list[str]:
        """The table's state beyond the turn: a paused clock, members away (until when), an
        open vote."""
        now = self.now()
        lines = [i18n.t("status.paused", lang)] if game.opts.paused else []
        lines += [i18n.t("status.away", lang, seat=s.name, until=int(s.until))
                  for s in game.players if s.until is not None and s.away_at(now)]
        vote = await self.store.open_vote_of(game.id)
        if vote is not None:
            lines.append(i18n.t("status.vote", lang, what=i18n.Msg(
                f"vote.what.{vote.kind}", seat=vote.seat or "?",
                time=format_duration(vote.seconds or 0)), yes=len(vote.yes),
                needed=vote.needed, until=int(vote.expires_at)))
        return lines

    async def history(self, channel_id: int, limit: int = 15,
                      lang: str | None = None) -> list[str]:
        """The last actions of the channel's game, public lines only, in `lang` (default:
        the game's language)."""
        game = await self.store.open_game(channel_id) or await self.store.last_game(channel_id)
        if game is None:
            raise NoGameHere.said("svc.no_game")
        rows = await self.recent.rows(game.id, limit, lambda rows: False, mark(game),
                                      locked=False)
        lang = lang or of_game(game)
        votes: dict[int, list[str]] = {}
        first = rows[0].seq if rows else game.version + 1
        for vote in await self.store.votes_of(game.id):  # the table's votes, where they closed
            at = vote.version if vote.version is not None else game.version
            if at >= first - 1:
                votes.setdefault(at, []).append(i18n.t(
                    "vote.log", lang, outcome=i18n.Msg(f"vote.outcome.{vote.outcome}"),
                    yes=len(vote.yes),
                    no=len(vote.no), what=i18n.Msg(f"vote.what.{vote.kind}",
                                                   seat=vote.seat or "?",
                                                   time=format_duration(vote.seconds or 0))))
        lines = votes.get(first - 1, [])[:]
        for row in rows:
            lines.append(text.log_line(row.seq, row.action, text.describe_events(
                text.public_events(row.events), lang), lang))
            lines += votes.get(row.seq, [])
        return lines or [i18n.t("svc.log_empty", lang)]

    async def export_log(self, channel_id: int) -> dict[str, Any]:
        """The public action log of the channel's game (running, or the last one played) as
        the JSON document `python -m engine run` replays (bot.export)."""
        game = await self.store.open_game(channel_id)
        if game is None or game.status is GameStatus.LOBBY:
            game = await self.store.last_game(channel_id, started=True)
        if game is None:
            raise NoGameHere.said("svc.no_game")
        try:
            return await export_game(self.store, game.id)
        except NotExportable as exc:
            raise NotAllowed.said(f"svc.export.{exc.key}") from None

    async def catch_up(self, game: GameRow, shown: int) -> Outcome:
        """The outcome of every action after version `shown` (-1: the game's start), for a
        post the channel was owed when the bot stopped."""
        loaded = await self.loaded(game)
        rows = await self.store.actions(game.id, after=max(shown, 0))
        out = make_outcome(game, loaded.state, [e for r in rows for e in r.events], None)
        out.first_seq = rows[0].seq if rows else 0
        out.turn_started = out.turn_started or shown < 0
        return await self.finish(out)

    async def finished_game(self, guild_id: int, channel_id: int,
                            game_id: int | None = None) -> GameRow:
        """A finished game of this server: `game_id`, or the channel's last one."""
        if game_id is None:
            game = await self.store.last_game(channel_id, started=True)
            if game is None or game.status is not GameStatus.FINISHED:
                raise NoGameHere.said("archive.no_game")
            return game
        game = await self.store.get_game(game_id)
        if game is None or game.guild_id != guild_id:
            raise NoGameHere.said("archive.unknown_game", game=game_id)
        if game.status is GameStatus.ACTIVE or game.status is GameStatus.LOBBY:
            raise NotAllowed.said("archive.not_finished", game=game_id)
        if game.status is not GameStatus.FINISHED:
            raise NotAllowed.said("archive.not_played", game=game_id)
        return game

    async def final(self, channel_id: int) -> tuple[Loaded, Mapping[str, Any]]:
        """The channel's last started game with every coin total (for the end-of-game reveal)."""
        loaded = await self.last_view(channel_id)
        if not loaded.state.finished:
            raise NotAllowed.said("svc.secret")
        return loaded, engine.observe(loaded.state, None, reveal_all=True)
