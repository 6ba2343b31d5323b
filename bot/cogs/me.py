"""Just you: `/sw-me notify` (a DM when it is your turn), `/sw-me stats` and `/sw-me history`
(anyone's record over the server's finished games; yours by default), and the long game:
`/sw-me away` (a vacation over all your games here), `/sw-me quiet` (quiet hours),
`/sw-me orders` (standing orders for your survivors), `/sw-me profile` (reliability) and
`/sw-me catchup` (what happened since your last move)."""

from __future__ import annotations

from datetime import UTC, datetime

import discord
from discord import app_commands

import i18n
from bot import answering
from bot.chat.archive import history_page, profile_text, stats_text
from bot.cogs.tree import Choice, Commands, channel_of, in_server, me
from bot.errors import NotSeated, ServiceError
from bot.game.moves import ORDERS
from bot.game.quiet import QuietError, QuietHours, find_zones
from bot.game.vacations import away_seconds
from bot.language import reply_language
from bot.ui import NO_MENTIONS, send

ORDER_CHOICES = [Choice(name=i18n.t(f"orders.{o}", "en"), value=o) for o in ORDERS]
REQUIREMENT_OVER = 50  # the last turns a profile's missed share is counted over


class MeCommands(Commands):
    """A member's own settings."""

    @me.command(name="notify", description="Get a DM when it is your turn (on or off)")
    @app_commands.describe(on="True: DM me when I must act; False: stop")
    async def notify(self, interaction: discord.Interaction, on: bool) -> None:
        await self.service.store.set_turn_dm(interaction.user.id, on)
        await send(interaction, i18n.t("notify.on" if on else "notify.off",
                                       await reply_language(interaction)), ephemeral=True)

    @me.command(name="stats", description="A record over this server's finished games: wins, "
                                          "ranks, favourite races and combos")
    @app_commands.describe(member="Whose (default: yours)")
    @in_server()
    async def stats(self, interaction: discord.Interaction,
                    member: discord.User | None = None) -> None:
        who = member or interaction.user
        await send(interaction, await stats_text(self.service.store, interaction.guild_id or 0,
                                                 who.id, await reply_language(interaction)),
                   ephemeral=True, allowed_mentions=NO_MENTIONS)

    @me.command(name="history", description="Finished games on this server, newest first, "
                                            "with their replays")
    @app_commands.describe(member="Whose (default: yours)")
    @in_server()
    async def history(self, interaction: discord.Interaction,
                      member: discord.User | None = None) -> None:
        who = member or interaction.user
        content, view = await history_page(self.service.store, interaction.guild_id or 0,
                                           who.id, 0, await reply_language(interaction))
        await send(interaction, content, view=view, ephemeral=True,
                   allowed_mentions=NO_MENTIONS)

    # -- the long game --------------------------------------------------------------------

    @me.command(name="away", description="Go away from all your games here for a while; "
                                         "/sw back ends it")
    @app_commands.describe(time="How long: 3d, 12h, 1d12h (spends days of your away bank)",
                           reason="Why (kept to yourself unless you share it)",
                           share="Show the reason in the game channels")
    @in_server()
    async def away(self, interaction: discord.Interaction,
                   time: app_commands.Range[str, 1, 20],
                   reason: app_commands.Range[str, 1, 120] | None = None,
                   share: bool = False) -> None:
        seconds = away_seconds(time)
        news = await self.service.go_away(interaction.guild_id or 0, interaction.user.id,
                                          seconds, reason=reason, share=share)
        assert news.vacation is not None
        lang = await reply_language(interaction)
        await send(interaction, i18n.t("away.done", lang, until=int(news.vacation.until),
                                       games=len(news.outcomes), days=news.vacation.days,
                                       left=news.bank.left, cap=news.bank.cap),
                   ephemeral=True)
        for outcome in news.outcomes:  # each channel: she is away, and until when
            await self.announcer.announce(outcome, fresh=False)

    @me.command(name="quiet", description="Quiet hours: no reminders or turn DMs then, and "
                                          "no deadline runs out in them")
    @app_commands.describe(hours="Local hours, like 23:00-07:00",
                           timezone="Your time zone, like Europe/Oslo",
                           off="True: no quiet hours any more")
    async def quiet(self, interaction: discord.Interaction,
                    hours: app_commands.Range[str, 1, 20] | None = None,
                    timezone: app_commands.Range[str, 1, 60] | None = None,
                    off: bool = False) -> None:
        store = self.service.store
        lang = await reply_language(interaction)
        if off:
            await store.set_quiet(interaction.user.id, None, None)
            await send(interaction, i18n.t("quiet.off", lang), ephemeral=True)
            return
        now = await store.member_settings(interaction.user.id)
        if hours is None and timezone is None:
            found = QuietHours.stored(now.quiet, now.zone)
            await send(interaction, i18n.t("quiet.none", lang) if found is None else
                       quiet_line(found, lang, self.service.now()), ephemeral=True)
            return
        try:
            found = QuietHours.parse(hours or now.quiet or "", timezone or now.zone or "")
        except QuietError as exc:
            raise ServiceError.said("quiet.refused", reason=i18n.Msg(exc.key, **exc.params)) from None
        await store.set_quiet(interaction.user.id, found.text, found.zone)
        await send(interaction, quiet_line(found, lang, self.service.now()), ephemeral=True)

    @quiet.autocomplete("timezone")
    async def _zones(self, interaction: discord.Interaction, current: str
                     ) -> list[Choice[str]]:
        return [Choice(name=z, value=z) for z in find_zones(current)]

    @me.command(name="orders", description="Standing orders: how your survivors are placed "
                                           "when you are attacked")
    @app_commands.describe(survivors="strongest: all on your strongest region; spread: one "
                                     "by one; keep-together; ask: you place them")
    @app_commands.choices(survivors=ORDER_CHOICES)
    async def orders(self, interaction: discord.Interaction, survivors: str) -> None:
        if survivors not in ORDERS:
            raise ServiceError.said("orders.unknown", value=survivors[:20])
        await self.service.store.set_orders(interaction.user.id, survivors)
        await send(interaction, i18n.t("orders.set", await reply_language(interaction),
                                       order=i18n.Msg(f"orders.{survivors}"),
                                       ask=survivors == "ask"), ephemeral=True)

    @me.command(name="profile", description="Reliability here: turns played and missed, "
                                            "time to act, games left, vacations")
    @app_commands.describe(member="Whose (default: yours)")
    @in_server()
    async def profile(self, interaction: discord.Interaction,
                      member: discord.User | None = None) -> None:
        who = member or interaction.user
        found = await self.service.store.reliability(interaction.guild_id or 0, who.id,
                                                     last=REQUIREMENT_OVER)
        await send(interaction, profile_text(who.id, found, await reply_language(interaction)),
                   ephemeral=True, allowed_mentions=NO_MENTIONS)

    @me.command(name="catchup", description="What happened in the game here since your last "
                                            "move (only you see it)")
    @in_server()
    async def catchup(self, interaction: discord.Interaction) -> None:
        loaded = await self.service.view(channel_of(interaction))
        if loaded.game.seat_of(interaction.user.id) is None:
            raise NotSeated.said("svc.not_playing")
        lang = await reply_language(interaction)
        await answering.defer(interaction, ephemeral=True, thinking=True)
        lines, files = await self.bot.dms.catch_up(loaded.game, interaction.user.id, lang)
        if not lines:
            lines = [i18n.t("catchup.nothing", lang)]
        await send(interaction, "\n".join(lines)[:1990], files=files, ephemeral=True,
                   allowed_mentions=NO_MENTIONS)


def quiet_line(found: QuietHours, lang: str, now: float) -> str:
    """Her quiet hours, and the time there now (so a wrong zone shows at once)."""
    here = datetime.fromtimestamp(now, UTC).astimezone(found.tz)
    return i18n.t("quiet.set", lang, hours=found.text, zone=found.zone,
                  time=here.strftime("%H:%M"), quiet=found.contains(now))
