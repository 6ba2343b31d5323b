"""A season's table from its match log: pure, no I/O, no discord.

Scoring, per counted game with n counted players (seats held by a member; AI seats and
vacant seats never count, and a member whose seat was kicked or who quit counts as last):
- points: the player in place p gets 12 * (n - p) / (n - 1), so first 12, last 0 whatever
  the table size (2p 12/0, 3p 12/6/0, 4p 12/8/4/0, 5p 12/9/6/3/0); tied players share the
  places they cover equally (two tied winners of a 3-player game get (12 + 6) / 2 = 9 each);
- wins: a win shared by w players counts 1/w for each;
- average rank: the rank among the counted players (ties share the better rank);
- rating: OpenSkill Plackett–Luce (bot.league.ratings), shown as the ordinal μ − 3σ.
Voided games are left out of everything. The table is sorted by points, then wins, then
rating, then name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.league.ratings import Ledger, Result, Skill, counted_ranks

POINTS_FOR_FIRST = 12.0


@dataclass(frozen=True, slots=True)
class Placing:
    user_id: int
    seat: str
    rank: int  # as announced by the game (its tie-break applied); last for a kicked seat
    coins: int
    races: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayedGame:
    game_id: int
    season_id: int
    finished_at: str
    placings: tuple[Placing, ...]
    round_no: int | None = None
    voided: bool = False
    awarded: bool = False

    def counted(self) -> tuple[Placing, ...]:
        return tuple(p for p in self.placings if p.user_id > 0)


def placement_points(ranks: Sequence[int]) -> list[float]:
    """Points of each player from the ranks of one game (1 = best; ties share a rank)."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for r in ranks:
        tied = sum(1 for q in ranks if q == r)
        places = range(r, r + tied)  # a tied group with rank r covers places r .. r + tied - 1
        out.append(sum(POINTS_FOR_FIRST * (n - p) / (n - 1) for p in places) / tied)
    return out


def win_shares(ranks: Sequence[int]) -> list[float]:
    winners = sum(1 for r in ranks if r == 1)
    return [1.0 / winners if r == 1 else 0.0 for r in ranks]


@dataclass(slots=True)
class Row:
    """One line of a standings table."""

    user_id: int
    name: str
    played: int = 0
    wins: float = 0.0
    rank_total: int = 0
    points: float = 0.0
    skill: Skill = field(default_factory=Skill.initial)
    trend: float = 0.0  # ordinal change of the last game
    history: list[float] = field(default_factory=list)  # ordinal after each game
    ranks: list[int] = field(default_factory=list)
    races: Counter[str] = field(default_factory=Counter)
    registered: bool = False
    left: int | None = None  # games still to play: rounds not started + own open games

    @property
    def avg_rank(self) -> float | None:
        return self.rank_total / self.played if self.played else None

    @property
    def rating(self) -> float:
        return self.skill.ordinal

    def favourite_races(self, n: int = 3) -> list[tuple[str, int]]:
        return sorted(self.races.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def results(games: Iterable[PlayedGame]) -> list[Result]:
    """The rating log of the games: counted games with at least one counted placing."""
    out = []
    for g in games:
        if g.voided:
            continue
        placings = g.counted()
        if placings:
            out.append(Result(g.game_id, tuple((p.user_id, p.rank) for p in placings)))
    return out


def build_table(
    games: Iterable[PlayedGame],
    names: dict[int, str] | None = None,
    registered: Iterable[int] = (),
    *,
    remaining_rounds: int | None = None,
    in_play: dict[int, int] | None = None,
) -> list[Row]:
    """Fold the games (in the order given) into standings rows, best first; with `remaining_rounds` (rounds of the season not started yet) each registered
    player's `left` is those rounds plus their league games still open (`in_play`)."""
    names = names or {}
    rows: dict[int, Row] = {}
    ledger = Ledger()

    def row(uid: int, seat: str) -> Row:
        if uid not in rows:
            rows[uid] = Row(uid, names.get(uid, seat))
        return rows[uid]

    for game in games:
        if game.voided:
            continue
        placings = game.counted()
        if not placings:
            continue
        ranks = counted_ranks([p.rank for p in placings])
        changes = ledger.apply(Result(game.game_id, tuple((p.user_id, p.rank)
                                                           for p in placings)))
        for p, rank, pts, win in zip(placings, ranks, placement_points(ranks),
                                     win_shares(ranks), strict=True):
            r = row(p.user_id, p.seat)
            before, after = changes[p.user_id]
            r.played += 1
            r.rank_total += rank
            r.ranks.append(rank)
            r.points += pts
            r.wins += win
            r.skill = after
            r.trend = after.ordinal - before.ordinal
            r.history.append(after.ordinal)
            r.races.update(p.races)
    for uid in registered:
        row(uid, names.get(uid, f"member {uid}")).registered = True
    if remaining_rounds is not None:
        for r in rows.values():
            r.left = (max(0, remaining_rounds) + (in_play or {}).get(r.user_id, 0)
                      if r.registered else 0)
    return sorted(rows.values(),
                  key=lambda r: (-round(r.points, 6), -round(r.wins, 6), -round(r.rating, 9),
                                 r.name.casefold(), r.user_id))
