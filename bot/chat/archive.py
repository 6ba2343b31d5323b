"""Members' records in chat: stats and history of finished games (a page of games with a
menu to watch any one's replay), and reliability (turns played and missed, time to act,
games left, vacations). Private answers; no coins of a game that is still running."""

from __future__ import annotations

import re
from typing import Any

import discord

import i18n
from bot import text
from bot.chat.views import handlers
from bot.clock import format_duration
from bot.store import Reliability, SeatResult, Store

PAGE = 8


def _combo(race: str, power: str) -> i18n.Msg:
    return i18n.Msg("combo", race=race, power=power)


def _names(kind: str, counted: tuple[tuple[str, int], ...], lang: str) -> str:
    return i18n.t("list.sep", lang).join(f"{i18n.name(kind, n, lang)} ({k})" for n, k in counted)


async def stats_text(store: Store, guild_id: int, member_id: int, lang: str) -> str:
    """A member's record over the server's finished games, in `lang`."""
    st = await store.member_stats(guild_id, member_id)
    who = f"<@{member_id}>"
    if not st.games:
        return i18n.t("archive.none", lang, member=who)
    lines = [i18n.t("archive.stats.head", lang, member=who, games=st.games, wins=st.wins,
                    rank=f"{st.avg_rank:.2f}", players=f"{st.avg_players:.1f}",
                    streak=st.streak)]
    if st.races:
        lines.append(i18n.t("archive.stats.races", lang, races=_names("race", st.races, lang)))
    if st.powers:
        lines.append(i18n.t("archive.stats.powers", lang,
                            powers=_names("power", st.powers, lang)))
    if st.best is not None:
        lines.append(i18n.t("archive.stats.best", lang,
                            combo=_combo(st.best.race, st.best.power),
                            coins=f"{st.best.coins:.1f}", n=st.best.games))
    return "\n".join(lines)


def profile_text(member_id: int, found: Reliability, lang: str) -> str:
    """A member's reliability in this server, in `lang`."""
    who = f"<@{member_id}>"
    if not found.turns and not found.games_left and not found.vacations:
        return i18n.t("rel.none", lang, member=who)
    lines = [i18n.t("rel.head", lang, member=who, played=found.played, missed=found.missed,
                    away=found.away)]
    if found.recent:
        lines.append(i18n.t("rel.recent", lang, missed=found.recent_missed, turns=found.recent,
                            share=round(found.missed_share * 100)))
    if found.median_seconds is not None:
        lines.append(i18n.t("rel.median", lang, time=format_duration(found.median_seconds)))
    lines.append(i18n.t("rel.left", lang, left=found.games_left, vacations=found.vacations))
    return "\n".join(lines)


def _game_line(seats: list[SeatResult], lang: str) -> str:
    first = seats[0]
    ranking = i18n.t("list.sep", lang).join(
        f"{s.rank}. {'**' + s.seat + '**' if s.rank == 1 else s.seat} {s.coins}"
        for s in seats if s.seat)
    return i18n.t("archive.history.line", lang, game=first.game_id,
                  date=first.finished_at[:10], board=text.board_label(first.board, lang,
                                                                      short=True),
                  ranking=ranking)


async def history_page(store: Store, guild_id: int, member_id: int, page: int,
                       lang: str) -> tuple[str, discord.ui.View | None]:
    """One page of a member's finished games, newest first, with the way to the others and
    a menu of their replays."""
    total, games = await store.member_games(guild_id, member_id, limit=PAGE,
                                            offset=page * PAGE)
    who = f"<@{member_id}>"
    if not total:
        return i18n.t("archive.none", lang, member=who), None
    pages = (total + PAGE - 1) // PAGE
    if not games:  # a page past the end (the games were fewer by now): the last one
        return await history_page(store, guild_id, member_id, pages - 1, lang)
    lines = [i18n.t("archive.history.head", lang, member=who, total=total, page=page + 1,
                    pages=pages)]
    lines += [_game_line(seats, lang) for seats in games]
    view = discord.ui.View(timeout=None)
    if page > 0:
        view.add_item(HistoryButton(member_id, page - 1, lang, newer=True))
    if page + 1 < pages:
        view.add_item(HistoryButton(member_id, page + 1, lang, newer=False))
    view.add_item(ReplaySelect([seats[0].game_id for seats in games], lang))
    return text.clip("\n".join(lines)), view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"sw:h:(?P<member>\d+):(?P<page>\d+)",
):
    """Newer / older games of a member's history."""

    def __init__(self, member_id: int, page: int, lang: str = "en", *,
                 newer: bool = True) -> None:
        label = i18n.t("archive.ui.newer" if newer else "archive.ui.older", lang)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"sw:h:{member_id}:{page}"))
        self.member_id, self.page = member_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> HistoryButton:
        return cls(int(match["member"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await handlers(interaction).history_click(interaction, self.member_id, self.page)


class ReplaySelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"sw:hr",
):
    """Watch the replay of one of the games listed."""

    def __init__(self, game_ids: list[int] | None = None, lang: str = "en") -> None:
        options = [discord.SelectOption(label=i18n.t("archive.ui.replay_of", lang, game=g),
                                        value=str(g)) for g in (game_ids or [])[:25]]
        super().__init__(discord.ui.Select(
            custom_id="sw:hr", placeholder=i18n.t("archive.ui.replay", lang),
            options=options or [discord.SelectOption(label="-", value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> ReplaySelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else "0"
        await handlers(interaction).replay_pick(interaction, int(value) if value.isdigit()
                                                else 0)


DYNAMIC_ITEMS = (HistoryButton, ReplaySelect)
