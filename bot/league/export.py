"""A season's games and results as CSV and JSON: pure, no I/O, no discord.

The columns are a stable contract (documented in the README, section Leagues → Export):
one CSV row per member seat per game, games in the order they finished (the order ratings
are folded in). From the CSV alone, the standings can be rebuilt: sum `points`, count
`counted_rank == 1` wins split by the number of winners, and fold OpenSkill Plackett–Luce
over the `counted` games in file order with `counted_rank` as the rank.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from bot.league.ratings import counted_ranks
from bot.league.standings import PlayedGame, Row, placement_points

FORMAT = "smallworld-league/1"

#: CSV columns, in order. Never reorder or rename; add new ones at the end.
COLUMNS: tuple[str, ...] = (
    "league",         # league name
    "season",         # season name
    "round",          # round number, empty for a game opened outside the rounds
    "game_id",        # the bot's game number
    "finished_at",    # UTC ISO-8601 time the game finished (or was awarded)
    "status",         # counted | awarded | voided (voided games count for nothing)
    "user_id",        # Discord user id of the member
    "name",           # display name at registration
    "seat",           # the player's name inside the game
    "rank",           # rank announced by the game (tie-break applied; ties share)
    "counted_rank",   # rank among the members of the game (AI seats left out)
    "players",        # members counted in the game
    "points",         # 12*(n-p)/(n-1), ties share; 0 for a voided game
    "coins",          # final coins (0 for an awarded game that never finished)
    "races",          # races the player picked in the game, space separated
)


def game_rows(league: str, season: str, games: Sequence[PlayedGame],
              names: dict[int, str]) -> list[dict[str, Any]]:
    out = []
    for g in games:
        placings = g.counted()
        ranks = counted_ranks([p.rank for p in placings])
        points = placement_points(ranks)
        status = "voided" if g.voided else "awarded" if g.awarded else "counted"
        for p, cr, pts in zip(placings, ranks, points, strict=True):
            out.append({
                "league": league, "season": season,
                "round": "" if g.round_no is None else g.round_no,
                "game_id": g.game_id, "finished_at": g.finished_at, "status": status,
                "user_id": str(p.user_id), "name": names.get(p.user_id, p.seat),
                "seat": p.seat, "rank": p.rank, "counted_rank": cr,
                "players": len(placings),
                "points": 0.0 if g.voided else round(pts, 6),
                "coins": p.coins, "races": " ".join(p.races),
            })
    return out


def to_csv(rows: Sequence[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def standings_rows(table: Sequence[Row]) -> list[dict[str, Any]]:
    return [{
        "place": i, "user_id": str(r.user_id), "name": r.name, "played": r.played,
        "wins": round(r.wins, 6), "avg_rank": None if r.avg_rank is None else round(r.avg_rank, 6),
        "points": round(r.points, 6), "mu": round(r.skill.mu, 6),
        "sigma": round(r.skill.sigma, 6), "ordinal": round(r.rating, 6),
        "registered": r.registered,
    } for i, r in enumerate(table, 1)]


def to_json(league: str, season: str, games: Sequence[PlayedGame], names: dict[int, str],
            table: Sequence[Row]) -> str:
    rows = game_rows(league, season, games, names)
    by_game: dict[int, dict[str, Any]] = {}
    for r in rows:
        g = by_game.setdefault(r["game_id"], {
            "game_id": r["game_id"], "round": r["round"] or None,
            "finished_at": r["finished_at"], "status": r["status"], "placings": []})
        g["placings"].append({k: r[k] for k in ("user_id", "name", "seat", "rank",
                                                "counted_rank", "points", "coins")}
                             | {"races": r["races"].split()})
    doc = {"format": FORMAT, "league": league, "season": season, "columns": list(COLUMNS),
           "games": list(by_game.values()), "standings": standings_rows(table)}
    return json.dumps(doc, indent=1, ensure_ascii=False)
