"""The /sw command tree and what its cogs share: the groups, the checks, autocomplete helpers.

The surface is grouped by what a member is doing. Discord allows 25 subcommands and groups
per command, two levels, and 4000 characters per command counting each name, description
and choice at its longest translation: /sw alone came to 3990. So:

- `/sw`: playing a turn, one level deep (`pick|conquer|reinforce|roll|abandon|decline|
  deploy|move|end|undo|hint`, and `/sw power ...` for race and power actions) and the
  most used rest (`new|join|start|back|map|status|score|rules|help`);
- `/sw-table`: the table (leave, AI players, ...);
- `/sw-game`: reading the game (its log, the board, ...);
- `/sw-me`: herself (turn DMs, ...);
- `/sw-mod` (bot/cogs/mod.py): moderators, hidden by default permissions;
- `/league` and `/league-mod` (bot/cogs/league.py, league_mod.py): leagues, whose
  organisers' checks (`organiser_only`) sit here beside the moderators'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

import i18n
from bot.app import SmallWorldBot
from bot.chat.announce import Announcer
from bot.chat.flow import Flow
from bot.clock import ClockConfig, DurationError, duration
from bot.errors import ServiceError
from bot.game.service import GameService
from bot.league import LeagueError, NotOrganiser
from bot.ui import NotModerator, Refused

Choice = app_commands.Choice
T = TypeVar("T")

sw = app_commands.Group(name="sw", description="Play Small World")
power = app_commands.Group(name="power", description="Race and special power actions",
                           parent=sw)
# top-level commands of their own: Discord counts at most 4000 characters per command (each
# name, description and choice at its longest translation), and /sw alone is near that
table = app_commands.Group(name="sw-table", description="The table: leave, AI players",
                           guild_only=True)
game = app_commands.Group(name="sw-game",
                          description="Read a game here: its log, the board, its end card and replay",
                          guild_only=True)
me = app_commands.Group(name="sw-me",
                        description="You and the other players: turn DMs, stats, history")


# each language by its own name (Discord has no Icelandic locale: it comes only from here)
LANGUAGE_CHOICES = [Choice(name=i18n.t("lang.name", lang), value=lang)
                    for lang in i18n.LANGUAGES]
REMIND_CHOICES = [Choice(name=i18n.t(f"svc.remind_choice.{v}", "en"), value=v)
                  for v in ("dm", "mention", "off")]  # the translator words them per locale


def clock_from(limit: str | None, reminders: str | None, default: ClockConfig) -> ClockConfig:
    """A clock from command options; malformed input is refused with the format to use."""
    try:
        seconds = default.limit if limit is None else duration(limit)
    except DurationError as exc:
        # the limit's own sentence (bot.clock), worded in the reader's language
        raise ServiceError.said("clock.refused", reason=i18n.Msg(exc.key, **exc.params)) from None
    except ValueError as exc:
        raise ServiceError.said("svc.clock_error", error=str(exc)) from None
    try:
        return ClockConfig.model_validate({"limit": seconds,
                                           "remind": reminders or default.remind})
    except ValidationError:
        raise ServiceError.said("svc.reminders") from None


def bot_of(interaction: discord.Interaction) -> SmallWorldBot:
    return cast(SmallWorldBot, interaction.client)


def _in_server(interaction: discord.Interaction) -> bool:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage()
    return True


def in_server() -> Callable[[T], T]:
    """The command needs a server channel (a game lives in one); in a DM it is refused with
    one sentence (bot/ui.py words app_commands.NoPrivateMessage)."""
    return app_commands.check(_in_server)


def _is_moderator(interaction: discord.Interaction) -> bool:
    if not bot_of(interaction).is_mod(interaction):
        raise NotModerator()
    return True


def moderator_only() -> Callable[[T], T]:
    """Manage Server or the moderator role (MOD_ROLE_ID), checked on every use: Discord's
    default permissions only hide a command, and a server may show it to anyone."""
    return app_commands.check(_is_moderator)


async def require_organiser(interaction: discord.Interaction, doing: str) -> None:
    """Manage Server, the moderator role, or the organiser role of the league the command
    names (its `league` option; else the server's only league); else refused with what the
    member tried (`doing`, a choice of league.only_organisers) and who may."""
    bot = bot_of(interaction)
    if bot.is_mod(interaction):
        return
    league = await bot.leagues.league(guild_of(interaction),
                                      getattr(interaction.namespace, "league", None))
    roles = [r.id for r in getattr(interaction.user, "roles", [])]
    if await bot.leagues.is_organiser(league, roles):
        return
    org = (await bot.leagues.settings(league)).organiser_role_id
    raise NotOrganiser.said("league.only_organisers", doing=doing,
                            role=bot.settings.mod_role_id or 0, league=league.name, org=org or 0)


def organiser_only(doing: str) -> Callable[[T], T]:
    """A league organiser's command (require_organiser), checked on every use like
    moderator_only: /league-mod is only hidden by default permissions."""

    async def check(interaction: discord.Interaction) -> bool:
        try:
            await require_organiser(interaction, doing)
        except ServiceError as exc:  # a check may raise only a CheckFailure
            raise Refused(exc) from exc
        return True

    return app_commands.check(check)


def league_moderator_only(doing: str) -> Callable[[T], T]:
    """Manage Server or the moderator role, refused in the league's words (`doing`, a choice
    of league.only_mods)."""

    def check(interaction: discord.Interaction) -> bool:
        if not bot_of(interaction).is_mod(interaction):
            raise Refused(LeagueError.said("league.only_mods", doing=doing,
                                           role=bot_of(interaction).settings.mod_role_id or 0))
        return True

    return app_commands.check(check)


def guild_of(interaction: discord.Interaction) -> int:
    """The server a command came from (a server-only command: refused in a DM)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    """The channel of a command that passed `in_server`."""
    assert interaction.channel_id is not None
    return interaction.channel_id


def filter_choices(current: str, choices: list[Choice[Any]]) -> list[Choice[Any]]:
    needle = current.strip().casefold()
    hits = [c for c in choices if needle in c.name.casefold() or needle == str(c.value)]
    return hits[:25]


def named(kind: str, ident: str, lang: str) -> str:
    """A race or power as its box calls it in `lang`, with the English name for searching."""
    name = i18n.name(kind, ident, lang)
    return ident if name == ident else f"{name} ({ident})"


class Commands(commands.Cog):
    """What every room of /sw commands reads: the bot, its game service and Announcer, and
    the legal actions of the member typing (for autocomplete)."""

    bot: SmallWorldBot

    @property
    def service(self) -> GameService:
        return self.bot.service

    @property
    def flow(self) -> Flow:
        return self.bot.components

    @property
    def announcer(self) -> Announcer:
        return self.bot.announcer

    async def legal_of(self, interaction: discord.Interaction) -> list[dict[str, Any]]:
        if interaction.channel_id is None:
            return []
        try:
            actions = await self.service.legal(interaction.channel_id, interaction.user.id)
        except ServiceError:
            return []
        return [a.model_dump(mode="json") for a in actions]

    async def regions(self, interaction: discord.Interaction, current: str, verb: str,
                      key: str = "region", **match: Any) -> list[Choice[int]]:
        """Autocomplete: the regions the member's legal `verb` actions name."""
        seen: dict[int, str] = {}
        for a in await self.legal_of(interaction):
            if a["do"] != verb or any(a.get(k) != v for k, v in match.items()):
                continue
            seen.setdefault(a[key], f"Region {a[key]}")
        return filter_choices(current, [Choice(name=n, value=r) for r, n in sorted(seen.items())])
