"""Leagues, seasons, registration, players' preferences and settings: the base of the
league service (results, rounds and the service build on it), and the league's seat check
and lobbies for the game service."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import i18n
from bot.clock import format_duration
from bot.game.service import GameService
from bot.league import tables
from bot.league.audit import AuditEntry
from bot.league.models import (
    NAME_LIMIT,
    LeagueError,
    LeagueSettings,
    NoLeague,
    NoSeason,
    NotRegistered,
    clean_name,
    day_names,
    iso,
)
from bot.league.timers import LeagueTimers
from bot.seats import MAX_PLAYERS, MIN_PLAYERS, engine_name
from bot.store import (
    ChannelBusy,
    Duplicate,
    GameRow,
    GameStatus,
    League,
    Registration,
    Season,
    Seat,
    Store,
)


class LeagueBase:
    """Leagues, seasons, registration and settings, on top of the store's league methods;
    results, rounds and LeagueService build on it. `games` is the game service: the league
    changes a lobby only through its sessions (bot.game.core). `now` is the clock (tests set
    it). `timers` arms the league's timers on the one clock (bot.league.timers): every
    change that moves one re-arms them."""

    def __init__(self, store: Store, games: GameService, *,
                 now: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.games = games
        self.now = now or (lambda: datetime.now(UTC))
        self.timers = LeagueTimers(store, lambda: self.now())

    # -- leagues -------------------------------------------------------------------------

    async def leagues(self, guild_id: int) -> list[League]:
        return await self.store.leagues(guild_id)

    async def create_league(self, guild_id: int, name: str, by: int | None = None) -> League:
        name = clean_name(name, "league")
        try:
            league = await self.store.create_league(guild_id, name, by)
        except Duplicate:
            raise LeagueError.said("league.err.league_taken", name=name) from None
        await self.audit(league, by=by, action="create", detail=league.name)
        return league

    async def league(self, guild_id: int, name: str | None = None) -> League:
        """The named league, or the server's only league when no name is given."""
        leagues = await self.leagues(guild_id)
        if name:
            wanted = name.strip().casefold()
            for lg in leagues:
                if lg.name.casefold() == wanted:
                    return lg
            known = ", ".join(lg.name for lg in leagues)
            if known:
                raise NoLeague.said("league.err.no_league_named", name=name.strip(),
                                    leagues=known)
            raise NoLeague.said("league.err.no_league_named_none", name=name.strip())
        if not leagues:
            raise NoLeague.said("league.err.no_league")
        if len(leagues) > 1:
            raise NoLeague.said("league.err.several_leagues",
                                leagues=", ".join(lg.name for lg in leagues))
        return leagues[0]

    # -- seasons -------------------------------------------------------------------------

    async def seasons(self, league: League) -> list[Season]:
        return await self.store.seasons(league.id)

    async def open_season(self, league: League) -> Season | None:
        return await self.store.open_season(league.id)

    async def current_season(self, league: League) -> Season:
        """The open season; refuses with the way forward when none is open."""
        season = await self.open_season(league)
        if season is None:
            raise NoSeason.said("league.err.no_open_season", league=league.name)
        return season

    async def require_clock(self, guild_id: int, league_name: str, limit: int | None,
                            lang: str = "en") -> str:
        """The league's open season requires this turn limit of its games (None: no longer
        required). Returns the sentence that confirms it."""
        league = await self.league(guild_id, league_name)
        season = await self.current_season(league)
        await self.store.set_season_turn_limit(season.id, limit)
        return i18n.t("svc.league_clock", lang, league=league.name, season=season.name,
                      on=limit is not None,
                      limit=format_duration(limit) if limit is not None else "")

    async def season(self, league: League, name: str | None = None) -> Season:
        """The named season, else the open one, else the latest that ended."""
        seasons = await self.seasons(league)
        if name:
            wanted = name.strip().casefold()
            for s in seasons:
                if s.name.casefold() == wanted:
                    return s
            if seasons:
                raise NoSeason.said("league.err.no_season_named", league=league.name,
                                    name=name.strip(),
                                    seasons=", ".join(s.name for s in seasons))
            raise NoSeason.said("league.err.no_season_named_none", league=league.name,
                                name=name.strip())
        if not seasons:
            raise NoSeason.said("league.err.no_season_yet", league=league.name)
        open_ = [s for s in seasons if s.is_open]
        return open_[0] if open_ else seasons[-1]

    async def start_season(self, league: League, name: str, by: int | None = None, *,
                           rounds: int | None = None) -> Season:
        name = clean_name(name, "season")
        if rounds is not None and not 1 <= rounds <= 100:
            raise LeagueError.said("league.err.rounds_range")
        running = await self.open_season(league)
        if running is not None:
            raise LeagueError.said("league.err.season_running", season=running.name,
                                   league=league.name)
        try:
            season = await self.store.start_season(league.id, name, by)
        except Duplicate:
            again = await self.open_season(league)
            if again is not None:
                raise LeagueError.said("league.err.season_running", season=again.name,
                                       league=league.name) from None
            raise LeagueError.said("league.err.season_taken", league=league.name,
                                   name=name) from None
        if rounds is not None:
            await self.store.set_season_rounds(season.id, rounds)
        await self.audit(league, by=by, action="season start", season=season,
                         detail=season.name + (f", {rounds} rounds" if rounds else ""))
        await self.timers.arm(league.id)
        return season

    async def end_season(self, league: League, by: int | None = None) -> Season:
        season = await self.current_season(league)
        ended = await self.store.end_season(season.id, by)
        await self.audit(league, by=by, action="season end", season=ended, detail=ended.name)
        await self.timers.arm(league.id)  # no open season: no round window, no summary
        return ended

    # -- registration --------------------------------------------------------------------

    async def registration(self, season: Season, user_id: int) -> Registration | None:
        return await self.store.registration(season.id, user_id)

    async def is_registered(self, season: Season, user_id: int) -> bool:
        reg = await self.registration(season, user_id)
        return reg is not None and reg.active

    async def register(self, league: League, user_id: int, name: str, *,
                       substitute: bool = False) -> Season:
        """Register for the open season, as a player or as a substitute (seated only in
        place of a no-show)."""
        season = await self.current_season(league)
        reg = await self.registration(season, user_id)
        if reg is not None and reg.active:
            raise LeagueError.said("league.err.already_registered", season=season.name)
        await self.check_reliability(league, user_id)
        await self.store.register(season.id, user_id, name[:NAME_LIMIT] or "player")
        await self.store.set_registration_prefs(season.id, user_id,
                                                {"substitute": int(substitute), "sit_out": 0})
        return season

    async def check_reliability(self, league: League, user_id: int) -> None:
        """A league that asks for reliability ("at most 10% of the last 50 turns missed")
        refuses a member above it, with her figure and the requirement."""
        conf = await self.settings(league)
        if conf.max_missed is None or conf.max_missed >= 100:
            return
        over = conf.over_turns or 50
        found = await self.store.reliability(league.guild_id, user_id, last=over)
        if found.recent and found.missed_share * 100 > conf.max_missed:
            raise LeagueError.said("rel.refused", missed=found.recent_missed,
                                   turns=found.recent, share=round(found.missed_share * 100),
                                   most=conf.max_missed, over=over)

    async def unregister(self, league: League, user_id: int) -> Season:
        """Leave the open season; results already played stay in the standings."""
        season = await self.current_season(league)
        if not await self.is_registered(season, user_id):
            raise NotRegistered.said("league.err.not_registered_leave", season=season.name)
        await self.store.unregister(season.id, user_id)
        return season

    async def registrations(self, season: Season, *, include_left: bool = False
                            ) -> list[Registration]:
        return await self.store.registrations(season.id, include_left=include_left)

    # -- league games --------------------------------------------------------------------

    async def season_of_game(self, game_id: int) -> tuple[League, Season] | None:
        return await self.store.season_of_game(game_id)

    async def open_game(
        self,
        league: League,
        *,
        guild_id: int,
        channel_id: int,
        opener_id: int,
        opener_name: str,
        is_mod: bool,
        members: Sequence[tuple[int, str]] = (),
        seats: int | None = None,
        seed: int,
    ) -> tuple[GameRow, Season]:
        """Open a league lobby in the channel, tagged with the open season.

        The opener takes the first seat when registered (a moderator who is not registered
        opens it without a seat); `members` are seated too and must all be registered.
        """
        season = await self.current_season(league)
        opener_registered = await self.is_registered(season, opener_id)
        if not opener_registered and not is_mod:
            raise NotRegistered.said("league.err.not_registered_open", season=season.name)
        wanted: list[tuple[int, str]] = []
        if opener_registered:
            wanted.append((opener_id, opener_name))
        for uid, name in members:
            if any(uid == w[0] for w in wanted):
                continue
            if not await self.is_registered(season, uid):
                raise NotRegistered.said("league.err.member_not_registered", user=uid,
                                         season=season.name)
            wanted.append((uid, name))
        limit = seats if seats is not None else MAX_PLAYERS
        if not MIN_PLAYERS <= limit <= MAX_PLAYERS:
            raise LeagueError.said("league.err.player_range", min=MIN_PLAYERS,
                                   max=MAX_PLAYERS)
        if len(wanted) > limit:
            raise LeagueError.said("league.err.too_many_players", n=len(wanted), seats=limit)
        taken: list[str] = []
        seat_list = []
        for uid, name in wanted:
            seat = Seat(uid, engine_name(name, taken))
            taken.append(seat.name)
            seat_list.append(seat)
        options: dict[str, Any] = {"league": {"season_id": season.id, "season": season.name,
                                              "league": league.name}}
        if seats is not None:
            options["max_players"] = seats
        try:
            game = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, seed=seed, players=seat_list,
                options=options, opener_id=opener_id, season_id=season.id)
        except ChannelBusy:
            raise LeagueError.said("league.err.channel_busy") from None
        return game, season

    async def check_seat(self, game: GameRow, user_id: int) -> None:
        """GameService seat check: only registered members sit in a league game, and a round
        table's lobby only seats the players drawn for that table."""
        tagged = await self.season_of_game(game.id)
        if tagged is None:
            return
        _, season = tagged
        if not await self.is_registered(season, user_id):
            raise NotRegistered.said("league.err.seat_not_registered", user=user_id,
                                     season=season.name)
        tag = game.opts.league
        table = tag.table if tag is not None else None
        if game.status is GameStatus.LOBBY and table is not None and user_id not in table:
            raise LeagueError.said("league.err.not_drawn", user=user_id,
                                   round=tag.round if tag is not None else None,
                                   table=", ".join(f"<@{u}>" for u in table))


    # -- organisers and settings ---------------------------------------------------------

    async def settings(self, league: League) -> LeagueSettings:
        raw = await self.store.league_settings(league.id)
        return LeagueSettings(
            organiser_role_id=raw["organiser_role_id"], allow_ai=bool(raw["allow_ai"]),
            table_size=int(raw["table_size"]), start_minutes=int(raw["start_minutes"]),
            round_days=int(raw["round_days"]), summary_channel=raw["summary_channel"],
            summary_at=raw["summary_at"],
            channels=tuple(await self.store.league_channels(league.id)),
            away_days=raw["away_days"], max_missed=raw["max_missed"],
            over_turns=raw["over_turns"])

    async def is_organiser(self, league: League, role_ids: Iterable[int]) -> bool:
        role = (await self.settings(league)).organiser_role_id
        return role is not None and role in set(role_ids)

    async def audit(self, league: League, *, by: int | None, action: str, reason: str = "",
                    detail: str = "", season: Season | None = None,
                    game_id: int | None = None) -> None:
        await self.store.add_league_audit(
            league_id=league.id, season_id=season.id if season else None, game_id=game_id,
            actor_id=by, action=action, reason=reason, detail=detail, now=iso(self.now()))

    async def audit_log(self, league: League, limit: int = 20, *, action: str | None = None,
                        game_id: int | None = None) -> list[AuditEntry]:
        return [AuditEntry.of(r) for r in await self.store.league_audit(
            league.id, limit, action=action, game_id=game_id)]

    async def configure(self, league: League, by: int, changes: dict[str, Any]) -> LeagueSettings:
        """Change settings (validated here); logged with the old and new values."""
        if not changes:
            raise LeagueError.said("league.err.no_setting")
        if "table_size" in changes and not tables.MIN_TABLE <= changes["table_size"] <= \
                tables.MAX_TABLE:
            raise LeagueError.said("league.err.table_range")
        if "start_minutes" in changes and not 0 <= changes["start_minutes"] <= 24 * 60:
            raise LeagueError.said("league.err.window_range")
        if "round_days" in changes and not 1 <= changes["round_days"] <= 60:
            raise LeagueError.said("league.err.days_range")
        if changes.get("away_days") is not None and not 0 <= changes["away_days"] <= 30:
            raise LeagueError.said("league.err.away_range")
        if changes.get("max_missed") is not None and not 0 <= changes["max_missed"] <= 100:
            raise LeagueError.said("rel.bad_rule")
        if changes.get("over_turns") is not None and not 1 <= changes["over_turns"] <= 500:
            raise LeagueError.said("rel.bad_rule")
        old = await self.store.league_settings(league.id)
        stored = {k: (int(v) if isinstance(v, bool) else v) for k, v in changes.items()}
        await self.store.set_league_settings(league.id, stored)
        detail = ", ".join(f"{k}: {old.get(k)} → {stored[k]}" for k in stored)
        await self.audit(league, by=by, action="settings", detail=detail)
        await self.timers.arm(league.id)  # the summary channel set or taken away
        return await self.settings(league)

    async def set_channel(self, league: League, by: int, channel_id: int, on: bool) -> bool:
        changed = await self.store.set_league_channel(league.id, channel_id, on)
        if changed:
            await self.audit(league, by=by, action="channel add" if on else "channel remove",
                             detail=f"<#{channel_id}>")
        return changed

    async def set_rounds(self, league: League, by: int, rounds: int | None) -> Season:
        season = await self.current_season(league)
        if rounds is not None and not 1 <= rounds <= 100:
            raise LeagueError.said("league.err.rounds_range")
        await self.store.set_season_rounds(season.id, rounds)
        await self.audit(league, by=by, action="season rounds", season=season,
                         detail=str(rounds))
        return season

    # -- player preferences --------------------------------------------------------------

    async def _own_registration(self, league: League, user_id: int) -> Season:
        season = await self.current_season(league)
        if not await self.is_registered(season, user_id):
            raise NotRegistered.said("league.err.not_registered", season=season.name)
        return season

    async def set_days(self, league: League, user_id: int, text: str,
                       lang: str = i18n.DEFAULT) -> frozenset[int]:
        """The member's weekdays, named in English or in `lang` (the reader's language)."""
        season = await self._own_registration(league, user_id)
        try:
            days = tables.parse_days(text, day_names(lang), [i18n.t("league.any_day", lang)])
        except ValueError as exc:
            raise LeagueError.said("league.err.bad_day", day=repr(str(exc))) from None
        await self.store.set_registration_prefs(
            season.id, user_id, {"days": " ".join(tables.WEEKDAYS[d] for d in sorted(days))})
        return days

    async def set_sit_out(self, league: League, user_id: int, on: bool) -> Season:
        season = await self._own_registration(league, user_id)
        await self.store.set_registration_prefs(season.id, user_id, {"sit_out": int(on)})
        return season

    async def set_substitute(self, league: League, user_id: int, on: bool) -> Season:
        season = await self._own_registration(league, user_id)
        await self.store.set_registration_prefs(season.id, user_id, {"substitute": int(on)})
        return season
