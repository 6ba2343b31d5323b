"""Reading the game: `/sw map|status|score|rules|help` one level deep, and
`/sw-game log|board`. Answers are private unless the member posts them for everyone."""

from __future__ import annotations

import io
import json

import discord
from discord import app_commands

import engine
import i18n
from bot import rules_text, text
from bot.chat.announce import clip
from bot.cogs.tree import Choice, Commands, channel_of, filter_choices, game, in_server, named, sw
from bot.language import of_game, reply_language
from bot.ui import NO_MENTIONS, send
from engine import data as engine_data

HELP = ("help.text", "help.long", "help.more")  # /sw help: the turn, the long game, the rest


class ReadingCommands(Commands):
    """What anyone may read of the game here, and the rules."""

    @sw.command(name="map", description="Show the map of the game here")
    @in_server()
    async def map(self, interaction: discord.Interaction) -> None:
        await self.flow.show_map(interaction)

    @sw.command(name="status", description="Whose turn it is and what they can do")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    @in_server()
    async def status(self, interaction: discord.Interaction, public: bool = False) -> None:
        lang = None if public else await reply_language(interaction)
        loaded, lines = await self.service.status(channel_of(interaction), lang)
        await send(interaction, clip(lines, lang=lang or of_game(loaded.game)),
                   ephemeral=not public, allowed_mentions=NO_MENTIONS)

    @sw.command(name="score", description="Your coins (only you see them)")
    async def score(self, interaction: discord.Interaction) -> None:
        rows = await self.service.score(interaction.user.id)
        here = interaction.channel_id
        rows.sort(key=lambda r: r.game.channel_id != here)
        lang = await reply_language(interaction)
        if not rows:
            await send(interaction, i18n.t("score.none", lang), ephemeral=True)
            return
        lines = [i18n.t("score.line", lang, game=r.game.id, channel=r.game.channel_id,
                        round=r.round, coins=r.coins or 0, turn=r.is_your_turn) for r in rows]
        await send(interaction, "\n".join(lines), ephemeral=True)

    @sw.command(name="rules", description="Rule text for a race, a special power or a topic")
    @app_commands.describe(race="A race, e.g. Ratmen", power="A special power, e.g. Flying",
                           topic="A rules topic, e.g. turn or decline")
    async def rules(self, interaction: discord.Interaction, race: str | None = None,
                    power: str | None = None, topic: str | None = None) -> None:
        await send(interaction, rules_text.lookup(race=race, power=power, topic=topic,
                                                  lang=await reply_language(interaction)),
                   ephemeral=True)

    @rules.autocomplete("race")
    async def _races(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = await reply_language(interaction)
        return filter_choices(current, [Choice(name=named("race", r, lang), value=r)
                                        for r in engine_data.RACES])

    @rules.autocomplete("power")
    async def _powers(self, interaction: discord.Interaction, current: str
                      ) -> list[Choice[str]]:
        lang = await reply_language(interaction)
        return filter_choices(current, [Choice(name=named("power", p, lang), value=p)
                                        for p in engine_data.POWERS])

    @rules.autocomplete("topic")
    async def _topics(self, interaction: discord.Interaction, current: str
                      ) -> list[Choice[str]]:
        lang = await reply_language(interaction)
        return filter_choices(current, [Choice(name=rules_text.topic_name(t, lang), value=t)
                                        for t in rules_text.TOPIC_IDS])

    @sw.command(name="help", description="How to play here: the turn and the commands")
    async def help_(self, interaction: discord.Interaction) -> None:
        lang = await reply_language(interaction)
        await send(interaction, "\n".join(i18n.t(k, lang) for k in HELP), ephemeral=True)

    # -- /sw-game -------------------------------------------------------------------------

    @game.command(name="log", description="The last actions of the game here")
    @app_commands.describe(count="How many actions (default 15)", public="Post it for everyone",
                           export="The whole log as a JSON file `python -m engine run` replays")
    @in_server()
    async def log_(self, interaction: discord.Interaction,
                   count: app_commands.Range[int, 1, 50] = 15, public: bool = False,
                   export: bool = False) -> None:
        channel_id = channel_of(interaction)
        if export:
            doc = await self.service.export_log(channel_id)
            data = json.dumps(doc, indent=1).encode()
            name = f"smallworld-game-{doc['game']}-log.json"
            lang = await reply_language(interaction)
            await send(interaction, i18n.t("svc.log_export", lang, game=doc["game"],
                                           n=len(doc["actions"]), file=name),
                       file=discord.File(io.BytesIO(data), filename=name),
                       ephemeral=not public, allowed_mentions=NO_MENTIONS)
            return
        if public:  # the channel reads it: the game's language, its note included
            lang = of_game((await self.service.last_view(channel_id)).game)
        else:
            lang = await reply_language(interaction)
        lines = await self.service.history(channel_id, count, lang)
        await send(interaction, clip(lines, newest=True, lang=lang),
                   ephemeral=not public, allowed_mentions=NO_MENTIONS)

    @game.command(name="board", description="Every region of the map as text, by holder")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    @in_server()
    async def board_(self, interaction: discord.Interaction, public: bool = False) -> None:
        loaded = await self.service.last_view(channel_of(interaction))
        lang = of_game(loaded.game) if public else await reply_language(interaction)
        terrains = [r.terrain for r in loaded.state.board.regions]
        lines = text.board_lines(engine.observe(loaded.state, None), terrains, lang)
        await send(interaction, clip(lines, lang=lang), ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    @game.command(name="final", description="A finished game's end card: the coin race, "
                                            "the combos, the regions")
    @app_commands.describe(game="Game number (default: the last one played here)",
                           public="Post it for everyone (default: only you see it)")
    @in_server()
    async def final(self, interaction: discord.Interaction, game: int | None = None,
                    public: bool = False) -> None:
        await self.flow.post_story(interaction, game, public=public, replay=False)

    @game.command(name="replay", description="A finished game's replay: one frame per turn")
    @app_commands.describe(game="Game number (default: the last one played here)",
                           public="Post it for everyone (default: only you see it)")
    @in_server()
    async def replay(self, interaction: discord.Interaction, game: int | None = None,
                     public: bool = False) -> None:
        await self.flow.post_story(interaction, game, public=public, replay=True)

    @game.command(name="review", description="A finished game's key moments: the biggest "
                                             "swings and your turn the AI would play better")
    @app_commands.describe(game="Game number (default: the last one played here)")
    @in_server()
    async def review(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await self.flow.post_review(interaction, game)
