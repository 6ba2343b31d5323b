"""Settings and the living message: a game's public message, members' turn DMs, a server's
default clock, and user and server languages."""

from __future__ import annotations

import json
from typing import Any

from bot.store.base import Driver, _dumps, now
from bot.store.rows import GAME_COLUMNS, GameRow, GuildOptions, Shards, game_row


class SettingsSQL(Driver):
    """Living messages, members' and servers' settings, languages."""

    async def game_message(self, game_id: int) -> tuple[int, str] | None:
        """The public message the game keeps current (lobby or turn panel): its id and the
        text it keeps once retired."""
        row = await self.fetchone(
            "SELECT message_id, summary FROM game_messages WHERE game_id = ?", (game_id,))
        return (int(row[0]), str(row[1])) if row else None

    async def set_game_message(self, game_id: int, message_id: int, summary: str = "", *,
                               shown: int = -1) -> None:
        """The game's living message is now `message_id`, showing the game at version
        `shown` (-1: the lobby)."""
        await self.execute(
            "INSERT INTO game_messages (game_id, message_id, summary, shown, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " message_id = excluded.message_id, summary = excluded.summary,"
            " shown = excluded.shown, updated_at = excluded.updated_at",
            game_id, message_id, summary, shown, now(),
        )

    async def set_shown(self, game_id: int, version: int) -> None:
        """The living message was edited to show the game at `version` (lower after an
        undo: the Announcer edits one game's message in order, newest change last)."""
        await self.execute("UPDATE game_messages SET shown = ? WHERE game_id = ?",
                           version, game_id)

    async def owed_posts(self, shards: Shards | None = None) -> list[tuple[GameRow, int]]:
        """Started games (on `shards`) whose living message shows an older version than the
        game's: the bot died between an action's commit and its post. With the version it
        shows (-1: still the lobby)."""
        cond, params = ("1 = 1", []) if shards is None else shards.sql("g.guild_id")
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        rows = await self.fetchall(
            f"SELECT {cols}, m.shown FROM games g JOIN game_messages m ON m.game_id = g.id"
            " WHERE g.status IN ('active', 'finished') AND m.shown < g.version"
            f" AND {cond}", params)
        return [(game_row(r[:-1]), int(r[-1])) for r in rows]

    async def turn_dm(self, user_id: int) -> bool:
        """The member asked for a DM when they must act."""
        row = await self.fetchone("SELECT turn_dm FROM user_settings WHERE user_id = ?",
                                  (user_id,))
        return bool(row and row[0])

    async def set_turn_dm(self, user_id: int, on: bool) -> None:
        await self.execute(
            "INSERT INTO user_settings (user_id, turn_dm, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET turn_dm = excluded.turn_dm,"
            " updated_at = excluded.updated_at",
            user_id, int(on), now(),
        )

    async def guild_options(self, guild_id: int | None) -> GuildOptions:
        """A server's choices for its games (the defaults for a server that made none)."""
        row = None if guild_id is None else await self.fetchone(
            "SELECT replays, takeover FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GuildOptions()
        return GuildOptions(replays=bool(row[0]), takeover=str(row[1]) if row[1] else None)

    async def set_guild_options(self, guild_id: int, options: GuildOptions) -> None:
        await self.execute(
            "INSERT INTO guild_settings (guild_id, replays, takeover) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET replays = excluded.replays,"
            " takeover = excluded.takeover",
            guild_id, int(options.replays), options.takeover)

    async def guild_clock(self, guild_id: int | None) -> dict[str, Any] | None:
        """The server's default clock for new lobbies (None: not set)."""
        if guild_id is None:
            return None
        row = await self.fetchone("SELECT clock FROM guild_settings WHERE guild_id = ?",
                                  (guild_id,))
        return json.loads(row[0]) if row and row[0] else None

    async def set_guild_clock(self, guild_id: int, clock: dict[str, Any] | None) -> None:
        await self.execute(
            "INSERT INTO guild_settings (guild_id, clock) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock",
            guild_id, None if clock is None else _dumps(clock))


    # -- language settings (i18n) ---------------------------------------------------------

    async def language(self, scope: str, target_id: int) -> str | None:
        """The language set for a user or a guild (scope "user" / "guild"), None if unset."""
        row = await self.fetchone(
            "SELECT language FROM language_settings WHERE scope = ? AND target_id = ?",
            (scope, target_id),
        )
        return None if row is None else str(row[0])

    async def set_language(self, scope: str, target_id: int, language: str | None) -> None:
        """Set (or with None clear) the language of a user or a guild."""
        if language is None:
            await self.execute(
                "DELETE FROM language_settings WHERE scope = ? AND target_id = ?",
                scope, target_id,
            )
        else:
            await self.execute(
                "INSERT INTO language_settings (scope, target_id, language, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (scope, target_id) DO UPDATE SET"
                " language = excluded.language, updated_at = excluded.updated_at",
                scope, target_id, language, now(),
            )

