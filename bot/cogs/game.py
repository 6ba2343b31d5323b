"""The /sw command group. Thin commands: parse options, call the service, send what comes back."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

import engine
import i18n
from bot import rules_text, text
from bot.app import SmallWorldBot
from bot.chat.announce import clip
from bot.chat.views import DYNAMIC_ITEMS
from bot.clock import ClockConfig, DurationError, clock_of, duration
from bot.errors import NoGameHere, ServiceError
from bot.game.service import GameService
from bot.language import FOLLOW_DISCORD, of_game, reply_language
from bot.seats import AI_LEVELS, ai_level
from bot.store import GameRow
from bot.ui import NO_MENTIONS, NotModerator, display_name, is_moderator, send
from engine import data as engine_data

log = logging.getLogger(__name__)

Choice = app_commands.Choice
PIECE_NAMES = {"fortress": "Fortress", "encampment": "Encampment", "hero": "Hero",
               "troll_lair": "Troll lair"}
# each language by its own name (Discord has no Icelandic locale: it comes only from here)
LANGUAGE_CHOICES = [Choice(name=i18n.t("lang.name", lang), value=lang)
                    for lang in i18n.LANGUAGES]


class ServerOnly(ServiceError):
    code = "server_only"


REMIND_CHOICES = [Choice(name=i18n.t(f"svc.remind_choice.{v}", "en"), value=v)
                  for v in ("dm", "mention", "off")]  # the translator words them per locale


def _clock(limit: str | None, reminders: str | None, default: ClockConfig) -> ClockConfig:
    """A clock from command options; malformed input is refused with the format to use."""
    try:
        seconds = default.limit if limit is None else duration(limit)
    except DurationError as exc:
        # the limit's own sentence (bot.clock), worded in the reader's language
        raise ServiceError.said("clock.refused", reason=i18n.Msg(exc.key, **exc.params)) from None
    except ValueError as exc:
        raise ServiceError.said("svc.clock_error", error=str(exc)) from None
    try:
        return ClockConfig(limit=seconds, remind=reminders or default.remind)
    except ValidationError:
        raise ServiceError.said("svc.reminders") from None


def _named(kind: str, ident: str, lang: str) -> str:
    """A race or power as its box calls it in `lang`, with the English name for searching."""
    name = i18n.name(kind, ident, lang)
    return ident if name == ident else f"{name} ({ident})"


def _channel(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServerOnly.said("ui.server_only")
    return interaction.channel_id


def _filter(current: str, choices: list[Choice[Any]]) -> list[Choice[Any]]:
    needle = current.strip().casefold()
    hits = [c for c in choices if needle in c.name.casefold() or needle == str(c.value)]
    return hits[:25]


class Game(commands.Cog):
    """Small World games, one per channel."""

    sw = app_commands.Group(name="sw", description="Play Small World")
    power = app_commands.Group(name="power", description="Race and special power actions",
                               parent=sw)
    # Discord lets only top-level commands carry default permissions: the moderator tools are
    # their own command, hidden from members unless a server gives them access (and the bot
    # still checks Manage Server / MOD_ROLE_ID on every use)
    mod = app_commands.Group(name="sw-mod", description="Moderator tools for the game here",
                             guild_only=True,
                             default_permissions=discord.Permissions(manage_guild=True))
    ai = app_commands.Group(name="ai", description="AI players in the lobby here", parent=sw)

    def __init__(self, bot: SmallWorldBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    # -- helpers --------------------------------------------------------------------------

    async def _legal(self, interaction: discord.Interaction) -> list[dict[str, Any]]:
        if interaction.channel_id is None:
            return []
        try:
            actions = await self.service.legal(interaction.channel_id, interaction.user.id)
        except ServiceError:
            return []
        return [a.model_dump(mode="json") for a in actions]

    async def _regions(
        self, interaction: discord.Interaction, current: str, verb: str, key: str = "region",
        **match: Any,
    ) -> list[Choice[int]]:
        seen: dict[int, str] = {}
        for a in await self._legal(interaction):
            if a["do"] != verb or any(a.get(k) != v for k, v in match.items()):
                continue
            rid = a[key]
            seen.setdefault(rid, f"Region {rid}")
        return _filter(current, [Choice(name=n, value=r) for r, n in sorted(seen.items())])

    def _require_mod(self, interaction: discord.Interaction) -> None:
        settings = self.bot.settings
        if not is_moderator(interaction, settings.mod_role_id):
            raise NotModerator()

    # -- lobby ----------------------------------------------------------------------------

    @sw.command(name="new", description="Open a Small World lobby in this channel")
    @app_commands.describe(
        players="Number of seats (2-5); the matching official board is used",
        board="Board to play on (default: the official board for the player count)",
        seed="Seed for a reproducible game (random if left out)",
        clock="Turn time limit: off, 10m, 12h, 2d ... (default: the server's)",
        reminders="How the player whose turn it is gets reminded",
        language="Language of the game's public posts and pictures (default: the server's)",
    )
    @app_commands.choices(board=[
        Choice(name=text.board_choice(engine_data.board(b).players), value=b)
        for b in engine_data.BOARD_IDS], reminders=REMIND_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 5] | None = None,
        board: str | None = None,
        seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
        clock: app_commands.Range[str, 1, 20] | None = None,
        reminders: str | None = None,
        language: str | None = None,
    ) -> None:
        channel_id = _channel(interaction)
        languages = self.bot.languages
        options: dict[str, Any] = {
            "language": await languages.for_new_game(interaction.guild_id, language)}
        if clock is not None or reminders is not None:
            default = clock_of(await self.service.store.guild_clock(interaction.guild_id))
            chosen = _clock(clock, reminders, default)
            self.service.check_limit(chosen)
            options["clock"] = chosen.to_json()
        game = await self.service.open_lobby(
            guild_id=interaction.guild_id, channel_id=channel_id, user_id=interaction.user.id,
            name=display_name(interaction.user), players=players, board=board, seed=seed,
            options=options,
        )
        await self.bot.announcer.post_lobby(interaction, game, i18n.t("lobby.new", of_game(game)))

    @sw.command(name="join", description="Join the lobby in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        game = await self.service.join(_channel(interaction), interaction.user.id,
                                       display_name(interaction.user))
        await self.bot.announcer.lobby_changed(interaction, game, i18n.t(
            "lobby.joined", await reply_language(interaction), game=game.id))

    @sw.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        settings = self.bot.settings
        game = await self.service.leave(_channel(interaction), interaction.user.id,
                                        is_mod=is_moderator(interaction, settings.mod_role_id))
        await self.bot.announcer.lobby_changed(interaction, game, i18n.t(
            "lobby.left", await reply_language(interaction), game=game.id))

    @sw.command(name="start", description="Start the game (the opener or a moderator)")
    async def start(self, interaction: discord.Interaction) -> None:
        _channel(interaction)
        await self.bot.components.start_game(interaction)

    # -- AI players and the clock -------------------------------------------------------

    def _is_mod(self, interaction: discord.Interaction) -> bool:
        return is_moderator(interaction, self.bot.settings.mod_role_id)

    @ai.command(name="add", description="Seat an AI player in the lobby here")
    @app_commands.describe(level="easy: makes mistakes; normal: plans each turn; hard: looks "
                                 "ahead")
    @app_commands.choices(level=[Choice(name=n, value=n) for n in AI_LEVELS])
    async def ai_add(self, interaction: discord.Interaction, level: str = "normal") -> None:
        game = await self.service.add_ai(_channel(interaction), interaction.user.id, level,
                                         is_mod=self._is_mod(interaction))
        await self.bot.announcer.lobby_changed(interaction, game, i18n.t(
            "svc.ai_joined", await reply_language(interaction), level=ai_level(level)))

    @ai.command(name="remove", description="Remove the last AI player from the lobby here")
    async def ai_remove(self, interaction: discord.Interaction) -> None:
        game = await self.service.remove_ai(_channel(interaction), interaction.user.id,
                                            is_mod=self._is_mod(interaction))
        await self.bot.announcer.lobby_changed(interaction, game,
                                 i18n.t("svc.ai_left", await reply_language(interaction)))

    @sw.command(name="back", description="Take your seat back from the AI after timeouts")
    async def back(self, interaction: discord.Interaction) -> None:
        outcome, seat = await self.service.back(_channel(interaction), interaction.user.id)
        outcome.public = [i18n.t("svc.welcome_back", of_game(outcome.game),
                                 user=interaction.user.mention, seat=seat)]
        outcome.headline = list(outcome.public)
        await self.bot.announcer.announce(outcome, interaction, fresh=True)

    # -- turn actions ---------------------------------------------------------------------

    @sw.command(name="pick", description="Pick a race and special power from the row")
    @app_commands.describe(slot="Combo number 1 (free) to 6, as on the combo picture")
    async def pick(self, interaction: discord.Interaction,
                   slot: app_commands.Range[int, 1, 6]) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "pick", "slot": slot - 1})

    @pick.autocomplete("slot")
    async def _pick_slots(self, interaction: discord.Interaction, current: str
                          ) -> list[Choice[int]]:
        try:
            combos = await self.service.combos(interaction.channel_id or 0, interaction.user.id)
        except ServiceError:
            return []
        lang = await reply_language(interaction)
        return _filter(current, [
            Choice(name=f"{c.slot + 1}. {c.pick_label(lang)}"[:100], value=c.slot + 1)
            for c in combos])

    @sw.command(name="conquer", description="Conquer a region with tokens in hand")
    @app_commands.describe(region="Region id (the list shows legal targets and their cost)",
                           ghouls="Conquer with your In Decline Ghouls")
    async def conquer(self, interaction: discord.Interaction, region: int,
                      ghouls: bool = False) -> None:
        _channel(interaction)
        action: dict[str, Any] = {"do": "conquer", "region": region}
        if ghouls:
            action["race"] = "decline"
        await self.bot.components.run_action(interaction, action)

    @conquer.autocomplete("region")
    async def _conquer_regions(self, interaction: discord.Interaction, current: str
                               ) -> list[Choice[int]]:
        try:
            targets = await self.service.targets(interaction.channel_id or 0, interaction.user.id)
        except ServiceError:
            return []
        seen: dict[int, Choice[int]] = {}
        lang = await reply_language(interaction)
        for t in targets:
            if t.verb.startswith("conquer") and t.region not in seen:
                seen[t.region] = Choice(name=t.label(lang)[:100], value=t.region)
        return _filter(current, list(seen.values()))

    @sw.command(name="reinforce", description="Final conquest: name a region, then roll the die")
    @app_commands.describe(region="Region 1-3 tokens out of reach",
                           ghouls="Attempt it with your In Decline Ghouls")
    async def reinforce(self, interaction: discord.Interaction, region: int,
                        ghouls: bool = False) -> None:
        _channel(interaction)
        action: dict[str, Any] = {"do": "reinforce", "region": region}
        if ghouls:
            action["race"] = "decline"
        await self.bot.components.run_action(interaction, action)

    @reinforce.autocomplete("region")
    async def _reinforce_regions(self, interaction: discord.Interaction, current: str
                                 ) -> list[Choice[int]]:
        return await self._regions(interaction, current, "reinforce")

    @sw.command(name="roll", description="Berserk: roll the die before your next conquest")
    async def roll(self, interaction: discord.Interaction) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "roll"})

    @sw.command(name="abandon", description="Empty one of your regions (before any conquest)")
    @app_commands.describe(region="One of your regions (the list shows which)")
    async def abandon(self, interaction: discord.Interaction, region: int) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "abandon", "region": region})

    @abandon.autocomplete("region")
    async def _abandon_regions(self, interaction: discord.Interaction, current: str
                               ) -> list[Choice[int]]:
        return await self._regions(interaction, current, "abandon")

    @sw.command(name="decline", description="Put your Active race into decline (ends the turn)")
    async def decline(self, interaction: discord.Interaction) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "decline"})

    @sw.command(name="deploy", description="Put tokens from your hand on one of your regions")
    @app_commands.describe(region="One of your regions", count="How many tokens")
    async def deploy(self, interaction: discord.Interaction, region: int,
                     count: app_commands.Range[int, 1, 30]) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "deploy", "region": region, "count": count})

    @deploy.autocomplete("region")
    async def _deploy_regions(self, interaction: discord.Interaction, current: str
                              ) -> list[Choice[int]]:
        return await self._regions(interaction, current, "deploy")

    @sw.command(name="move", description="Move tokens between your regions (redeployment)")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="Region to take tokens from", to="Region to put them on",
                           count="How many tokens")
    async def move(self, interaction: discord.Interaction, from_: int, to: int,
                   count: app_commands.Range[int, 1, 30]) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "move", "from": from_, "to": to,
                                            "count": count})

    @move.autocomplete("from_")
    async def _move_from(self, interaction: discord.Interaction, current: str
                         ) -> list[Choice[int]]:
        return await self._regions(interaction, current, "move", key="from")

    @move.autocomplete("to")
    async def _move_to(self, interaction: discord.Interaction, current: str
                       ) -> list[Choice[int]]:
        src = getattr(interaction.namespace, "from", None)
        match = {"from": src} if isinstance(src, int) else {}
        return await self._regions(interaction, current, "move", key="to", **match)

    @sw.command(name="end", description="End your turn (or your survivors' placement) and score")
    async def end(self, interaction: discord.Interaction) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "end"})

    @sw.command(name="undo", description="Take back your last action (not past a die roll or draw)")
    async def undo(self, interaction: discord.Interaction) -> None:
        _channel(interaction)
        await self.bot.components.run_undo(interaction)

    # -- powers ---------------------------------------------------------------------------

    @power.command(name="enchant", description="Sorcerers: convert a lone enemy token")
    @app_commands.describe(region="A region with a lone enemy token next to your Sorcerers")
    async def enchant(self, interaction: discord.Interaction, region: int) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "enchant", "region": region})

    @enchant.autocomplete("region")
    async def _enchant_regions(self, interaction: discord.Interaction, current: str
                               ) -> list[Choice[int]]:
        return await self._regions(interaction, current, "enchant")

    @power.command(name="dragon", description="Dragon Master: conquer with one token and the Dragon")
    @app_commands.describe(region="The region to take with the Dragon")
    async def dragon(self, interaction: discord.Interaction, region: int) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "dragon", "region": region})

    @dragon.autocomplete("region")
    async def _dragon_regions(self, interaction: discord.Interaction, current: str
                              ) -> list[Choice[int]]:
        return await self._regions(interaction, current, "dragon")

    @power.command(name="place", description="Place a fortress, encampment, hero or troll lair")
    @app_commands.choices(piece=[Choice(name=v, value=k) for k, v in PIECE_NAMES.items()])
    @app_commands.describe(piece="What to place", region="One of your regions")
    async def place(self, interaction: discord.Interaction, piece: str, region: int) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "place", "piece": piece, "region": region})

    @place.autocomplete("region")
    async def _place_regions(self, interaction: discord.Interaction, current: str
                             ) -> list[Choice[int]]:
        piece = getattr(interaction.namespace, "piece", None)
        return await self._regions(interaction, current, "place",
                                   **({"piece": piece} if piece else {}))

    @power.command(name="ally", description="Diplomat: choose an opponent at peace with you")
    @app_commands.describe(target="The opponent whose Active race may not attack you")
    async def ally(self, interaction: discord.Interaction, target: str) -> None:
        _channel(interaction)
        await self.bot.components.run_action(interaction, {"do": "ally", "target": target})

    @ally.autocomplete("target")
    async def _ally_targets(self, interaction: discord.Interaction, current: str
                            ) -> list[Choice[str]]:
        names = sorted({a["target"] for a in await self._legal(interaction)
                        if a["do"] == "ally"})
        return _filter(current, [Choice(name=n, value=n) for n in names])

    # -- information ----------------------------------------------------------------------

    @sw.command(name="map", description="Show the map of the game here")
    async def map(self, interaction: discord.Interaction) -> None:
        _channel(interaction)
        await self.bot.components.show_map(interaction)

    @sw.command(name="status", description="Whose turn it is and what they can do")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    async def status(self, interaction: discord.Interaction, public: bool = False) -> None:
        lang = None if public else await reply_language(interaction)
        loaded, lines = await self.service.status(_channel(interaction), lang)
        await send(interaction, clip(lines, lang=lang or of_game(loaded.game)),
                   ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    @sw.command(name="log", description="The last actions of the game here")
    @app_commands.describe(count="How many actions (default 15)", public="Post it for everyone",
                           export="The whole log as a JSON file `python -m engine run` replays")
    async def log_(self, interaction: discord.Interaction,
                   count: app_commands.Range[int, 1, 50] = 15, public: bool = False,
                   export: bool = False) -> None:
        if export:
            doc = await self.service.export_log(_channel(interaction))
            data = json.dumps(doc, indent=1).encode()
            name = f"smallworld-game-{doc['game']}-log.json"
            lang = await reply_language(interaction)
            await send(interaction, i18n.t("svc.log_export", lang, game=doc["game"],
                                           n=len(doc["actions"]), file=name),
                       file=discord.File(io.BytesIO(data), filename=name),
                       ephemeral=not public, allowed_mentions=NO_MENTIONS)
            return
        if public:  # the channel reads it: the game's language, its note included
            lang = of_game((await self.service.last_view(_channel(interaction))).game)
        else:
            lang = await reply_language(interaction)
        lines = await self.service.history(_channel(interaction), count, lang)
        await send(interaction, clip(lines, newest=True, lang=lang),
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
        return _filter(current, [Choice(name=_named("race", r, lang), value=r)
                                 for r in engine_data.RACES])

    @rules.autocomplete("power")
    async def _powers(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = await reply_language(interaction)
        return _filter(current, [Choice(name=_named("power", p, lang), value=p)
                                 for p in engine_data.POWERS])

    @rules.autocomplete("topic")
    async def _topics(self, interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        lang = await reply_language(interaction)
        return _filter(current, [Choice(name=rules_text.topic_name(t, lang), value=t)
                                 for t in rules_text.TOPIC_IDS])

    @sw.command(name="help", description="How to play here: the turn and the commands")
    async def help_(self, interaction: discord.Interaction) -> None:
        await send(interaction, i18n.t("help.text", await reply_language(interaction)),
                   ephemeral=True)

    @sw.command(name="board", description="Every region of the map as text, by holder")
    @app_commands.describe(public="Post it for everyone (default: only you see it)")
    async def board_(self, interaction: discord.Interaction, public: bool = False) -> None:
        loaded = await self.service.last_view(_channel(interaction))
        lang = of_game(loaded.game) if public else await reply_language(interaction)
        terrains = [r.terrain for r in loaded.state.board.regions]
        lines = text.board_lines(engine.observe(loaded.state, None), terrains, lang)
        await send(interaction, clip(lines, lang=lang), ephemeral=not public,
                   allowed_mentions=NO_MENTIONS)

    @sw.command(name="notify", description="Get a DM when it is your turn (on or off)")
    @app_commands.describe(on="True: DM me when I must act; False: stop")
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        await self.service.store.set_turn_dm(interaction.user.id, on)
        await send(interaction, i18n.t("notify.on" if on else "notify.off",
                                       await reply_language(interaction)), ephemeral=True)

    # -- language -------------------------------------------------------------------------

    # top level (like /sw-mod): /sw already holds Discord's limit of 25 subcommands
    @app_commands.command(name="sw-language",
                          description="Choose the language I answer you in (or this server's "
                                      "games, for moderators)")
    @app_commands.describe(language="A language, or Discord to follow your Discord setting",
                           server="Set it for this server's games (moderators)")
    @app_commands.choices(language=[*LANGUAGE_CHOICES,
                                    Choice(name="Discord", value=FOLLOW_DISCORD)])
    async def language(self, interaction: discord.Interaction, language: str | None = None,
                       server: bool = False) -> None:
        languages = self.bot.languages
        code = None if language in (None, FOLLOW_DISCORD) else i18n.normalize(language)
        if server:
            if interaction.guild_id is None:
                raise ServerOnly.said("ui.server_only")
            if not is_moderator(interaction, self.bot.settings.mod_role_id):
                lang = await reply_language(interaction)
                await send(interaction, i18n.t("lang.need_mod", lang), ephemeral=True)
                return
            if language is not None:
                await languages.set_guild(interaction.guild_id, code)
            said = ("lang.set_server" if code else "lang.reset_server") if language else "lang.show"
        else:
            if language is not None:
                await languages.set_user(interaction.user.id, code)
            said = ("lang.set_user" if code else "lang.reset_user") if language else "lang.show"
        lang = code if (server and code) else await reply_language(interaction)
        if said == "lang.show":
            mine = await languages.user(interaction.user.id)
            guild = await languages.guild(interaction.guild_id)
            text_ = i18n.t(said, lang,
                           user=i18n.t("lang.name", mine) if mine else i18n.t("lang.discord", lang),
                           server=i18n.t("lang.name", guild or i18n.DEFAULT))
        else:
            text_ = i18n.t(said, lang)
        await send(interaction, text_, ephemeral=True)

    # -- moderators -----------------------------------------------------------------------

    @mod.command(name="skip", description="Finish the current player's turn for them")
    async def mod_skip(self, interaction: discord.Interaction) -> None:
        channel_id = _channel(interaction)
        self._require_mod(interaction)
        outcome = await self.service.skip(channel_id, interaction.user.id)
        await self.bot.announcer.announce(outcome, interaction, fresh=True)

    @mod.command(name="kick", description="Remove a player (optionally hand the seat to someone)")
    @app_commands.describe(member="The player to remove",
                           replacement="Who takes over the seat (else its turns are skipped)",
                           ai="Or: an AI of this level plays the seat from now on")
    @app_commands.choices(ai=[Choice(name=n, value=n) for n in AI_LEVELS])
    async def mod_kick(self, interaction: discord.Interaction, member: discord.User,
                       replacement: discord.User | None = None, ai: str | None = None) -> None:
        channel_id = _channel(interaction)
        self._require_mod(interaction)
        if replacement is not None and ai is not None:
            raise ServiceError.said("svc.kick_both")
        repl = (replacement.id, display_name(replacement)) if replacement else None
        result = await self.service.kick(channel_id, interaction.user.id, member.id,
                                         replacement=repl, ai=ai)
        if isinstance(result, GameRow):  # still a lobby
            await self.bot.announcer.lobby_changed(interaction, result, i18n.t(
                "svc.member_removed", await reply_language(interaction), user=member.mention))
        else:
            await self.bot.announcer.announce(result, interaction, fresh=True)

    @mod.command(name="clock", description="The turn clock new lobbies on this server start with")
    @app_commands.describe(limit="Turn time limit: off, 10m, 12h, 2d ...",
                           reminders="How the player whose turn it is gets reminded",
                           league="Instead: require this limit in the league's open season")
    @app_commands.choices(reminders=REMIND_CHOICES)
    async def mod_clock(self, interaction: discord.Interaction,
                        limit: app_commands.Range[str, 1, 20],
                        reminders: str | None = None,
                        league: app_commands.Range[str, 1, 40] | None = None) -> None:
        _channel(interaction)
        self._require_mod(interaction)
        old = clock_of(await self.service.store.guild_clock(interaction.guild_id))
        clock = _clock(limit, reminders, old)
        if league is not None:
            self.service.check_limit(clock)
            line = await self.bot.leagues.require_clock(interaction.guild_id or 0, league,
                                                        clock.limit,
                                                        await reply_language(interaction))
            await send(interaction, line, ephemeral=True)
            return
        await self.service.set_server_clock(interaction.guild_id or 0, clock)
        lang = await reply_language(interaction)
        await send(interaction, i18n.t("svc.server_clock", lang, clock=clock.describe(lang)),
                   ephemeral=True)

    @mod.command(name="end", description="Stop the game or lobby in this channel")
    async def mod_end(self, interaction: discord.Interaction) -> None:
        channel_id = _channel(interaction)
        self._require_mod(interaction)
        game = await self.service.end(channel_id, interaction.user.id)
        ended = i18n.t("game.mod_ended", of_game(game), game=game.id)
        await self.bot.announcer.retire(game, ended)
        await send(interaction, ended)

    @mod.command(name="undo", description="Take back the last actions, whoever made them")
    @app_commands.describe(count="How many actions (default 1)")
    async def mod_undo(self, interaction: discord.Interaction,
                       count: app_commands.Range[int, 1, 50] = 1) -> None:
        channel_id = _channel(interaction)
        self._require_mod(interaction)
        outcome = await self.service.mod_undo(channel_id, interaction.user.id, count)
        await self.bot.announcer.announce(outcome, interaction, fresh=True)


async def setup(bot: SmallWorldBot) -> None:
    await bot.add_cog(Game(bot))


__all__ = ["Game", "NoGameHere", "setup"]
