"""The league's texts and embeds: standings (embed, picture, lines), a member's rating and
season card, a recorded result, the audit log, a round's tables and a table's begun lines,
and the league help. Pure builders: they word what the league service answers in a reader's
language; the cogs and the league's posts (bot.chat.league_posts) send them."""

from __future__ import annotations

from collections.abc import Sequence

import discord

import i18n
from bot import text
from bot.league import (
    START_RATING,
    AuditEntry,
    League,
    LeagueSettings,
    PlayerCard,
    RatingCard,
    Recorded,
    Registration,
    RoundStarted,
    Season,
    Standings,
    TableBegun,
)
from bot.league.ratings import sparkline
from bot.league.tables import WEEKDAYS, days_text
from render.standings import StandingsLine, standings_png

TABLE_ROWS = 30
MESSAGE_ROOM = 1900  # characters of a league message (Discord allows 2000)
FOOTER = i18n.t("league.pic.footer", "en")


def help_text(lang: str) -> str:
    """/league help: how leagues work and how standings are scored."""
    return i18n.t("league.help", lang, start=f"{START_RATING:.0f}")


def _num(x: float) -> str:
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _signed(x: float) -> str:
    if abs(x) < 0.05:
        return "±0.0"
    return f"{x:+.1f}"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _place(rank: int, n: int, lang: str) -> str:
    """"2nd of 4" in English, the language's own way elsewhere."""
    return i18n.t("league.place_of", lang, rank=_ordinal(rank) if lang == "en" else rank, n=n)


def days_named(days: frozenset[int], lang: str) -> str:
    """"mon sat" (or "any day") in English; the weekday names of `lang` elsewhere."""
    if lang == i18n.DEFAULT:
        return days_text(days)
    if len(days) == 7:
        return i18n.t("league.any_day", lang)
    return ", ".join(i18n.t(f"league.day.{WEEKDAYS[d]}", lang) for d in sorted(days))


def _state(final: bool, lang: str) -> str:
    return i18n.t("league.state.final" if final else "league.state.running", lang)


def standings_embed(st: Standings, *, final: bool = False,
                    lang: str = i18n.DEFAULT) -> discord.Embed:
    closed = final or not st.season.is_open
    embed = discord.Embed(
        title=i18n.t("league.standings.title", lang, league=st.league.name,
                     season=st.season.name, state=_state(closed, lang)),
        colour=discord.Colour.gold() if closed else discord.Colour.blurple(),
    )
    if not st.rows:
        embed.description = i18n.t("league.standings.empty", lang)
    else:
        col = {c: i18n.t(f"league.col.{c}", lang)
               for c in ("player", "gp", "left", "w", "avg", "pts", "rating")}
        lines = [f"{'#':>2} {col['player']:<14} {col['gp']:>2} {col['left']:>4} "
                 f"{col['w']:>4} {col['avg']:>4} {col['pts']:>5} {col['rating']:>6} {'Δ':>5}"]
        for i, r in enumerate(st.rows[:TABLE_ROWS], 1):
            avg = f"{r.avg_rank:.1f}" if r.avg_rank is not None else "—"
            left = "—" if r.left is None else str(r.left)
            name = r.name if r.registered or not st.season.is_open else f"{r.name}*"
            trend = _signed(r.trend) if r.played else "—"
            lines.append(f"{i:>2} {name[:14]:<14} {r.played:>2} {left:>4} {_num(r.wins):>4} "
                         f"{avg:>4} {_num(r.points):>5} {r.rating:>6.1f} {trend:>5}")
        if len(st.rows) > TABLE_ROWS:
            lines.append(i18n.t("league.standings.more", lang, n=len(st.rows) - TABLE_ROWS))
        embed.description = "```\n" + "\n".join(lines) + "\n```"
        if st.season.is_open and any(not r.registered for r in st.rows):
            embed.description += "\n\\* " + i18n.t("league.standings.left", lang)
    games = i18n.t("league.standings.games", lang, n=st.games)
    if st.open_games:
        games += i18n.t("league.standings.in_progress", lang, n=st.open_games)
    if st.voided:
        games += i18n.t("league.standings.void", lang, n=st.voided)
    embed.add_field(name=i18n.t("league.standings.games_field", lang), value=games, inline=True)
    rounds = (i18n.t("league.standings.rounds_of", lang, n=st.rounds_played,
                     planned=st.planned_rounds) if st.planned_rounds else str(st.rounds_played))
    embed.add_field(name=i18n.t("league.standings.rounds_field", lang), value=rounds,
                    inline=True)
    embed.set_footer(text=i18n.t("league.scoring_help", lang))
    return embed


def standings_lines(st: Standings) -> list[StandingsLine]:
    return [StandingsLine(i, r.name, r.played, r.left, _num(r.wins), r.avg_rank,
                          _num(r.points), r.rating, r.trend, tuple(r.history),
                          away=not r.registered and st.season.is_open)
            for i, r in enumerate(st.rows, 1)]


def standings_picture(st: Standings, lang: str = i18n.DEFAULT) -> bytes:
    rounds = i18n.t("league.pic.rounds", lang, n=st.rounds_played,
                    planned=st.planned_rounds or 0)
    subtitle = i18n.t("league.pic.subtitle", lang, season=st.season.name,
                      state=_state(not st.season.is_open, lang), rounds=rounds, games=st.games)
    return standings_png(i18n.t("league.pic.title", lang, league=st.league.name), subtitle,
                         standings_lines(st), i18n.t("league.pic.footer", lang), lang)


def rating_text(card: RatingCard, member: discord.abc.User, lang: str = i18n.DEFAULT
                ) -> str:
    who = member.mention
    if card.season is None:
        return i18n.t("league.rating.no_season", lang, league=card.league.name, who=who)
    lines = [i18n.t("league.rating.head", lang, league=card.league.name, who=who)]
    r = card.season_row
    if r is None or r.played == 0:
        lines.append(i18n.t("league.rating.none_yet", lang, season=card.season.name,
                            start=f"{START_RATING:.1f}"))
    else:
        lines.append(i18n.t(
            "league.rating.season", lang, season=card.season.name, rating=f"{r.rating:.1f}",
            mu=f"{r.skill.mu:.2f}", sigma=f"{r.skill.sigma:.2f}", trend=_signed(r.trend),
            place=card.season_place, size=card.season_size, games=r.played,
            wins=_num(r.wins), wins_n=r.wins, points=_num(r.points),
            avg=f"{r.avg_rank:.2f}"))
    a = card.all_time
    if a is not None and a.played:
        lines.append(i18n.t("league.rating.all_time", lang, rating=f"{a.rating:.1f}",
                            mu=f"{a.skill.mu:.2f}", sigma=f"{a.skill.sigma:.2f}",
                            games=a.played))
    return "\n".join(lines)


def player_text(card: PlayerCard, member: discord.abc.User, lang: str = i18n.DEFAULT
                ) -> str:
    lines = [f"**{card.league.name} — {card.season.name}**: {member.mention}"]
    r = card.row
    if r is None or not r.played:
        lines.append(i18n.t("league.player.none", lang))
        return "\n".join(lines)
    lines.append(i18n.t(
        "league.player.line", lang, place=card.place, points=_num(r.points),
        wins=_num(r.wins), wins_n=r.wins, avg=f"{r.avg_rank:.2f}", rating=f"{r.rating:.1f}",
        mu=f"{r.skill.mu:.2f}", sigma=f"{r.skill.sigma:.2f}", left=r.left or 0))
    lines.append(i18n.t("league.player.history", lang,
                        spark=sparkline([START_RATING, *r.history]),
                        start=f"{START_RATING:.1f}", rating=f"{r.rating:.1f}"))
    fav = r.favourite_races()
    if fav:
        lines.append(i18n.t("league.player.favourites", lang, races=", ".join(
            f"{i18n.name('race', race, lang)} ×{n}" for race, n in fav)))
    games = []
    for g, rank, n in card.games[-10:]:
        where = (i18n.t("league.player.round", lang, round=g.round_no) if g.round_no
                 else i18n.t("league.player.open_game", lang))
        games.append(i18n.t("league.player.game", lang, game=g.game_id, where=where,
                            place=_place(rank, n, lang), awarded=bool(g.awarded)))
    lines.append(i18n.t("league.player.games", lang, games="; ".join(games)))
    return "\n".join(lines)


def result_text(rec: Recorded, lang: str = i18n.DEFAULT, *, awarded: bool = False) -> str:
    parts = []
    for p in sorted(rec.placings, key=lambda p: (p.rank, p.seat)):
        change = rec.changes.get(p.user_id)
        delta = f" ({_signed(change)})" if change is not None else ""
        parts.append(f"{p.rank}. <@{p.user_id}>{delta}")
    return i18n.t("league.result", lang, league=rec.league.name, season=rec.season.name,
                  game=rec.game_id, places=", ".join(parts), awarded=awarded)


def audit_text(league: League, entries: list[AuditEntry], lang: str = i18n.DEFAULT) -> str:
    if not entries:
        return i18n.t("league.audit.empty", lang, league=league.name)
    lines = [i18n.t("league.audit.head", lang, league=league.name)]
    for e in entries:
        who = f"<@{e.actor_id}>" if e.actor_id else i18n.t("league.audit.bot", lang)
        game = " " + i18n.t("league.audit.game", lang, game=e.game_id) if e.game_id else ""
        why = " — " + i18n.t("league.audit.why", lang, reason=e.reason) if e.reason else ""
        detail = f": {e.detail_in(lang)}" if e.detail else ""
        action = i18n.commands(lang)["choices"].get(e.action, e.action)
        lines.append(f"`{e.at[:16].replace('T', ' ')}` {who} **{action}**{game}{detail}{why}")
    return "\n".join(text.clip_lines(lines, MESSAGE_ROOM))


def round_text(r: RoundStarted, lang: str = i18n.DEFAULT) -> str:
    lines = [i18n.t("league.round.head", lang, league=r.league.name, season=r.season.name,
                    round=r.number, n=len(r.tables), start=r.start_by[11:16],
                    date=r.deadline[:10], time=r.deadline[11:16])]
    for t in r.tables:
        lines.append(i18n.t("league.round.table", lang, table=t.number, channel=t.channel_id,
                            players=", ".join(f"<@{u}>" for u in t.players), ai=t.ai_seats))
    for key, users in (("sitting_out", r.sitting_out), ("unavailable", r.unavailable),
                       ("benched", r.benched)):
        if users:
            lines.append(i18n.t(f"league.round.{key}", lang,
                                users=", ".join(f"<@{u}>" for u in users)))
    return "\n".join(lines)


def begun_lines(t: TableBegun, lang: str = i18n.DEFAULT) -> list[str]:
    lines = []
    for no_show, sub in t.no_shows:
        how = ("sub" if sub else "ai" if t.ai_seats else "without")
        lines.append(i18n.t(f"league.begin.missed_{how}", lang, user=no_show, sub=sub or 0))
    if t.cancelled:
        lines.append(i18n.t("league.begin.cancelled", lang))
    return lines


def players_text(league: League, season: Season, regs: Sequence[Registration],
                 lang: str = i18n.DEFAULT) -> str:
    """/league players: who is registered for the season."""
    body = (", ".join(f"<@{r.user_id}>" for r in regs) if regs
            else i18n.t("league.players.nobody", lang, open=season.is_open))
    return i18n.t("league.players.head", lang, league=league.name, season=season.name,
                  n=len(regs)) + "\n" + body


def settings_text(league: League, conf: LeagueSettings, lang: str = i18n.DEFAULT, *,
                  updated: bool = False) -> str:
    """/league-mod settings: the league's settings (after a change: "Updated." first)."""
    text = i18n.t("league.settings", lang, league=league.name,
                  role=conf.organiser_role_id or 0, size=conf.table_size,
                  minutes=conf.start_minutes, days=conf.round_days, ai=conf.allow_ai,
                  summary=conf.summary_channel or 0, n=len(conf.channels),
                  channels=", ".join(f"<#{c}>" for c in conf.channels))
    return (i18n.t("league.updated", lang) + " " if updated else "") + text
