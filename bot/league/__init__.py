"""Community leagues: seasons, registration, rounds and tables, results, standings, audit.

No discord objects here; every statement goes through the store's methods (bot.store owns
the SQL). A league belongs to a guild and has at most one open season. Members register for
the open season (as players or substitutes); an organiser starts rounds: the bot forms tables
(tables), opens one lobby per table in the league's table channels, and after the start
window seats substitutes (or AI seats, if allowed) for the no-shows and starts the games. A
game opened with `/league game` belongs to the season too. When a league game finishes, its
final ranking is recorded once (keyed by game id); a member whose seat was kicked (or who
quit) is recorded last. Organisers can void, award or re-open a game; each change is in the
audit log with who and why.

Standings and ratings are recomputed from the recorded results in the order the games
finished (standings, ratings: OpenSkill Plackett–Luce), so they always follow the results:
voiding a game is a recompute without it. Results recorded before OpenSkill (the old Elo)
are rated the same way, from the same stored rankings.

The start windows and weekly summaries are timers of the bot's one clock (bot/clock.py):
armed from the league's state after every change (timers) and handled by the league's
deadline kinds (clock). A table's seats and its game's start go through the game service's
session of its channel, as every writer of a game does.

The modules, each with one job: models (errors and typed results), audit (the log's
actions and worded details), seasons (leagues, seasons, registration, settings: the
service's base), results (recording, standings, disputes), rounds (tables, no-shows, the
games' start), service (LeagueService, the entry point), timers (what the clock must fire
when), clock (the handlers of the league's deadline kinds), and the pure ones: tables
(forming a round's tables), standings (a season's table), ratings (OpenSkill), export (CSV
and JSON).
"""

from __future__ import annotations

from bot.league.audit import AUDIT_ACTIONS, AuditEntry, audit_detail, detail_text
from bot.league.models import (
    REOPEN_OUTCOMES,
    SCORING_HELP,
    START_RATING,
    LeagueError,
    LeagueSettings,
    NoLeague,
    NoSeason,
    NotOrganiser,
    NotRegistered,
    PlayerCard,
    RatingCard,
    Recorded,
    RoundStarted,
    RoundTable,
    Standings,
    TableBegun,
    day_names,
    iso,
    parse_iso,
)
from bot.league.rounds import round_turn_limit
from bot.league.service import LeagueService
from bot.league.standings import Placing, PlayedGame, Row, build_table, placement_points, win_shares
from bot.store import League, Registration, Season

__all__ = [
    "AUDIT_ACTIONS", "REOPEN_OUTCOMES", "SCORING_HELP", "START_RATING", "AuditEntry", "League",
    "LeagueError", "LeagueService", "LeagueSettings", "NoLeague", "NoSeason", "NotOrganiser",
    "NotRegistered", "Placing", "PlayedGame", "PlayerCard", "RatingCard", "Recorded",
    "Registration", "RoundStarted", "RoundTable", "Row", "Season", "Standings", "TableBegun",
    "audit_detail", "build_table", "day_names", "detail_text", "iso", "parse_iso",
    "placement_points", "round_turn_limit", "win_shares",
]
