"""The table: open a lobby, join, start, come back (from a vacation, or to a seat the AI kept;
one level deep), and `/sw-table leave|ai-add|ai-remove|vote|settings`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

import i18n
from bot import text
from bot.clock import DurationError, clock_of, duration
from bot.cogs.tree import (
    LANGUAGE_CHOICES,
    REMIND_CHOICES,
    Choice,
    Commands,
    channel_of,
    clock_from,
    in_server,
    sw,
    table,
)
from bot.errors import ServiceError
from bot.game.votes import KINDS
from bot.language import of_game, reply_language
from bot.seats import AI_LEVELS, ai_level
from bot.store import GameRow
from bot.ui import display_name, send
from engine import data as engine_data

VOTE_CHOICES = [Choice(name=i18n.t(f"vote.choice.{k}", "en"), value=k) for k in KINDS]
VACATION_CHOICES = [Choice(name=i18n.t(f"rel.vacation.{v}", "en"), value=v)
                    for v in ("pause", "ai")]


def rules_line(game: GameRow, lang: str) -> str:
    """What the table asks, in `lang`."""
    need = game.opts.reliability
    return i18n.t("rel.table", lang, vacation=i18n.Msg(
        f"rel.away.{game.opts.vacation or 'pause'}"),
        most=need.max_missed if need else 100, over=need.over if need else 50,
        asks=need is not None)


class TableCommands(Commands):
    """Seats at the table of a channel."""

    @sw.command(name="new", description="Open a Small World lobby in this channel")
    @app_commands.describe(
        players="Number of seats (2-5); the matching official board is used",
        board="Board to play on (default: the official board for the player count)",
        seed="Seed for a reproducible game (random if left out)",
        clock="Turn time limit: off, 10m, 12h, 2d ... (default: the server's)",
        reminders="How the player whose turn it is gets reminded",
        language="Language of the game's public posts and pictures (default: the server's)",
        hints="Let players ask the AI for hints with /sw hint (default: on; never in leagues)",
    )
    @app_commands.choices(board=[
        Choice(name=text.board_choice(engine_data.board(b).players), value=b)
        for b in engine_data.BOARD_IDS], reminders=REMIND_CHOICES, language=LANGUAGE_CHOICES)
    @in_server()
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 5] | None = None,
        board: str | None = None,
        seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
        clock: app_commands.Range[str, 1, 20] | None = None,
        reminders: str | None = None,
        language: str | None = None,
        hints: bool | None = None,
    ) -> None:
        options: dict[str, Any] = {
            "language": await self.bot.languages.for_new_game(interaction.guild_id, language)}
        if hints is False:
            options["hints"] = False
        if clock is not None or reminders is not None:
            default = clock_of(await self.service.store.guild_clock(interaction.guild_id))
            chosen = clock_from(clock, reminders, default)
            self.service.check_limit(chosen)
            options["clock"] = chosen.to_json()
        game = await self.service.open_lobby(
            guild_id=interaction.guild_id, channel_id=channel_of(interaction),
            user_id=interaction.user.id, name=display_name(interaction.user), players=players,
            board=board, seed=seed, options=options)
        await self.announcer.post_lobby(interaction, game, i18n.t("lobby.new", of_game(game)))

    @sw.command(name="join", description="Join the lobby in this channel")
    @in_server()
    async def join(self, interaction: discord.Interaction) -> None:
        game = await self.service.join(channel_of(interaction), interaction.user.id,
                                       display_name(interaction.user))
        await self.announcer.lobby_changed(interaction, game, i18n.t(
            "lobby.joined", await reply_language(interaction), game=game.id))

    @sw.command(name="start", description="Start the game (the opener or a moderator)")
    @in_server()
    async def start(self, interaction: discord.Interaction) -> None:
        await self.flow.start_game(interaction)

    @sw.command(name="back", description="Back from a vacation, or take your seat back from "
                                         "the AI")
    @in_server()
    async def back(self, interaction: discord.Interaction) -> None:
        news = await self.service.come_back(interaction.guild_id or 0, interaction.user.id)
        try:
            outcome, seat = await self.service.back(channel_of(interaction),
                                                    interaction.user.id)
        except ServiceError:
            if news is None:  # neither on vacation nor a seat the AI keeps
                raise
            await send(interaction, i18n.t("away.ended", await reply_language(interaction),
                                           games=len(news.outcomes), left=news.bank.left,
                                           cap=news.bank.cap), ephemeral=True)
        else:
            outcome.lead(i18n.t("svc.welcome_back", of_game(outcome.game),
                                user=interaction.user.mention, seat=seat))
            outcome.public = list(outcome.headline)
            await self.announcer.announce(outcome, interaction, fresh=True)
        for told in news.outcomes if news is not None else ():
            await self.announcer.announce(told, fresh=False)

    # -- /sw-table ------------------------------------------------------------------------

    @table.command(name="leave", description="Leave the lobby in this channel")
    @in_server()
    async def leave(self, interaction: discord.Interaction) -> None:
        game = await self.service.leave(channel_of(interaction), interaction.user.id,
                                        is_mod=self.bot.is_mod(interaction))
        await self.announcer.lobby_changed(interaction, game, i18n.t(
            "lobby.left", await reply_language(interaction), game=game.id))

    @table.command(name="ai-add", description="Seat an AI player in the lobby here")
    @app_commands.describe(level="easy: makes mistakes; normal: plans each turn; hard: looks "
                                 "ahead")
    @app_commands.choices(level=[Choice(name=n, value=n) for n in AI_LEVELS])
    @in_server()
    async def ai_add(self, interaction: discord.Interaction, level: str = "normal") -> None:
        game = await self.service.add_ai(channel_of(interaction), interaction.user.id, level,
                                         is_mod=self.bot.is_mod(interaction))
        await self.announcer.lobby_changed(interaction, game, i18n.t(
            "svc.ai_joined", await reply_language(interaction), level=ai_level(level)))

    @table.command(name="vote", description="Call a vote of the players: pause, more time, a "
                                            "seat to the AI, end now")
    @app_commands.describe(kind="What the vote decides",
                           member="ai: whose seat the AI takes",
                           time="time: how much to add, like 12h")
    @app_commands.choices(kind=VOTE_CHOICES)
    @in_server()
    async def vote(self, interaction: discord.Interaction, kind: str,
                   member: discord.User | None = None,
                   time: app_commands.Range[str, 1, 20] | None = None) -> None:
        seconds = None
        if time is not None:
            try:
                seconds = duration(time)
            except DurationError as exc:
                raise ServiceError.said("clock.refused",
                                        reason=i18n.Msg(exc.key, **exc.params)) from None
        await self.bot.votes.call(interaction, kind, member=member.id if member else None,
                                  seconds=seconds)

    @table.command(name="settings", description="What this table asks (opener): vacations, "
                                                "reliability to join")
    @app_commands.describe(vacations="pause: an away player's clock waits; ai: the AI plays "
                                     "her turns",
                           max_missed="Join only with at most this % of turns missed (100: "
                                      "anyone)",
                           over="... counted over the member's last turns (default 50)")
    @app_commands.choices(vacations=VACATION_CHOICES)
    @in_server()
    async def settings(self, interaction: discord.Interaction, vacations: str | None = None,
                       max_missed: app_commands.Range[int, 0, 100] | None = None,
                       over: app_commands.Range[int, 1, 500] | None = None) -> None:
        game = await self.service.table_rules(channel_of(interaction), interaction.user.id,
                                              vacation=vacations, max_missed=max_missed,
                                              over=over, is_mod=self.bot.is_mod(interaction))
        changed = vacations is not None or max_missed is not None or over is not None
        lang = of_game(game) if changed else await reply_language(interaction)
        line = rules_line(game, lang)
        if changed:
            await self.announcer.lobby_changed(interaction, game, line)
        else:
            await send(interaction, line, ephemeral=True)

    @table.command(name="ai-remove", description="Remove the last AI player from the lobby here")
    @in_server()
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        game = await self.service.remove_ai(channel_of(interaction), interaction.user.id,
                                            is_mod=self.bot.is_mod(interaction))
        await self.announcer.lobby_changed(interaction, game,
                                           i18n.t("svc.ai_left", await reply_language(interaction)))
