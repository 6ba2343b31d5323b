"""The store's rows: what its reads return, as frozen dataclasses read by field name, and the
converters from a database row to them. (A few small answers stay plain pairs that callers
unpack at once: log_mark, game_message, round_games, due_league_rounds.)"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.store.options import GameOptions


class GameStatus(StrEnum):
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"  # played to the end
    ENDED = "ended"  # stopped by a moderator

    @property
    def is_open(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a game: a member (user_id), or an AI player (user_id 0, `ai` its level),
    with the seat's standing in the game (stored with the seat in games.players):

    - `timeouts`: turn limits its member missed in a row;
    - `away`: the AI keeps the seat until its member is back (`/sw back`);
    - `vacant`: its member was removed without a replacement: its turns are skipped;
    - `left`: members who left the seat mid-game (kicked or quit), so results rank them last;
    - `until`: its member is on a vacation until then (unix time; bot/game/vacations.py).
    """

    user_id: int
    name: str
    ai: str | None = None
    timeouts: int = 0
    away: bool = False
    vacant: bool = False
    left: tuple[int, ...] = ()
    until: float | None = None

    def away_at(self, now: float) -> bool:
        """Its member is on a vacation at `now`."""
        return self.until is not None and self.until > now

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.user_id, "name": self.name}
        if self.ai:
            d["ai"] = self.ai
        if self.timeouts:
            d["timeouts"] = self.timeouts
        if self.away:
            d["away"] = True
        if self.vacant:
            d["vacant"] = True
        if self.left:
            d["left"] = list(self.left)
        if self.until is not None:
            d["until"] = self.until
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        ai = d.get("ai")
        until = d.get("until")
        return cls(user_id=int(d["id"]), name=str(d["name"]), ai=str(ai) if ai else None,
                   timeouts=int(d.get("timeouts") or 0), away=bool(d.get("away")),
                   vacant=bool(d.get("vacant")),
                   left=tuple(int(u) for u in d.get("left") or ()),
                   until=None if until is None else float(until))


# a seat's standing as games stored it before it moved onto the seat: in the game's options,
# by seat name ({"timeouts": {name: n}, "away": [names], "vacant": [names], "left": {name:
# [user ids]}}); read into the seats when such a game is loaded (`seats_of`)
OLD_SEAT_OPTIONS = ("timeouts", "away", "vacant", "left")


def seats_of(players: list[dict[str, Any]], options: dict[str, Any]
             ) -> tuple[tuple[Seat, ...], dict[str, Any]]:
    """A stored game's seats and options, the seats' standing moved from an old game's
    options onto its seats (the next write of the game stores them there)."""
    seats = tuple(Seat.from_json(p) for p in players)
    if not any(k in options for k in OLD_SEAT_OPTIONS):
        return seats, options
    opts = dict(options)
    timeouts = opts.pop("timeouts", None) or {}
    away = set(opts.pop("away", None) or ())
    vacant = set(opts.pop("vacant", None) or ())
    left = opts.pop("left", None) or {}
    out = []
    for seat in seats:
        gone = left.get(seat.name) or []
        gone = gone if isinstance(gone, list) else [gone]
        out.append(dataclasses.replace(
            seat, timeouts=seat.timeouts or int(timeouts.get(seat.name) or 0),
            away=seat.away or seat.name in away, vacant=seat.vacant or seat.name in vacant,
            left=tuple(dict.fromkeys([*seat.left, *(int(u) for u in gone)]))))
    return tuple(out), opts


@dataclass(frozen=True, slots=True)
class Shards:
    """The gateway shards one process serves: `count` in all, `ids` of them here. Discord puts
    a guild on shard (guild_id >> 22) % count (direct messages: shard 0)."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} of {self.count} do not fit")

    def serves(self, guild_id: int | None) -> bool:
        return ((guild_id or 0) >> 22) % self.count in self.ids

    def sql(self, column: str = "guild_id") -> tuple[str, list[int]]:
        """A condition on a games row (and its parameters): the game is on these shards."""
        marks = ", ".join("?" for _ in self.ids)
        return (f"((COALESCE({column}, 0) >> 22) % ?) IN ({marks})", [self.count, *self.ids])


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    status: GameStatus
    board: str | None
    seed: int
    players: tuple[Seat, ...]
    options: dict[str, Any]
    opener_id: int | None
    version: int
    created_at: str
    started_at: str | None
    finished_at: str | None
    # writes of the action log so far (append, undo): with the version it names one log
    revision: int = 0
    # `opts`, validated at its first read (a row is frozen: its options never change)
    _opts: GameOptions | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def opts(self) -> GameOptions:
        """The options, typed (bot.store.options); read many times per interaction, so
        validated once per row."""
        opts = self._opts
        if opts is None:
            opts = GameOptions.read(self.options)
            object.__setattr__(self, "_opts", opts)  # frozen: the one write, a cache
        return opts

    def seat_of(self, user_id: int) -> Seat | None:
        if not user_id:  # AI and vacant seats hold user id 0: nobody's seat
            return None
        return next((s for s in self.players if s.user_id == user_id), None)

    def seat_named(self, name: str) -> Seat | None:
        return next((s for s in self.players if s.name == name), None)

    def reseated(self, name: str, **changes: Any) -> tuple[Seat, ...]:
        """The seats with the one called `name` changed (dataclasses.replace)."""
        return tuple(dataclasses.replace(s, **changes) if s.name == name else s
                     for s in self.players)


@dataclass(frozen=True, slots=True)
class ActionRow:
    game_id: int
    seq: int
    action: dict[str, Any]
    actor_id: int | None
    player: str | None
    events: list[dict[str, Any]] = field(default_factory=list)
    reveals: bool = False
    ends_turn: bool = False
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class GameLog:
    """What loading needs: the latest usable snapshot and the actions after it."""

    game: GameRow
    snapshot_seq: int
    snapshot: dict[str, Any] | None
    actions: tuple[ActionRow, ...]


@dataclass(frozen=True, slots=True)
class OwedDM:
    """A direct message the bot owes a player (see the outbox table)."""

    id: int
    game_id: int
    channel_id: int
    user_id: int
    lines: tuple[str, ...]
    attempts: int
    # owed by her own action, written moments ago (OWN_ANSWER): the answer to that action
    # brings it (as an ephemeral followup if her DMs are closed), not another post
    hers: bool = False


@dataclass(frozen=True, slots=True)
class League:
    id: int
    guild_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    league_id: int
    name: str
    started_at: str
    ended_at: str | None

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class Registration:
    user_id: int
    name: str
    joined_at: str
    left_at: str | None

    @property
    def active(self) -> bool:
        return self.left_at is None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One recorded placing of a league game, with when the game finished."""

    game_id: int
    season_id: int
    finished_at: str
    user_id: int
    seat: str
    rank: int
    coins: int
    races: str = ""  # races picked in the game, space separated
    round_no: int | None = None
    voided: bool = False
    awarded: bool = False


@dataclass(frozen=True, slots=True)
class RegistrationPrefs:
    """An active registration's round preferences."""

    user_id: int
    name: str
    days: str  # weekdays free, space separated ("any": every day)
    sit_out: bool  # left out of the next round formed
    substitute: bool  # seated only in place of a no-show


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A league round: its number in the season, its start window and deadline."""

    id: int
    season_id: int
    number: int
    started_by: int | None
    started_at: str
    start_by: str  # end of the start window
    deadline: str  # every game's clock deadline
    begun_at: str | None  # no-shows handled, games started

    @property
    def begun(self) -> bool:
        return self.begun_at is not None


@dataclass(frozen=True, slots=True)
class LeagueGameFlags:
    """A league game's tag: its season and round table, and the state of its result."""

    season_id: int
    round_id: int | None
    table_no: int | None
    recorded_at: str | None
    voided_at: str | None
    awarded: bool


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One entry of a league's audit log (actor None: the bot itself)."""

    id: int
    season_id: int | None
    game_id: int | None
    actor_id: int | None
    action: str
    reason: str
    detail: str
    at: str


@dataclass(frozen=True, slots=True)
class GuildOptions:
    """A server's choices for its games (moderators): whether a finished game's reveal comes
    with its animated replay, the AI level that plays a turn whose time ran out (None: the
    bot's default), and the away days each member may spend per 30 days (None: the bot's
    default)."""

    replays: bool = True
    takeover: str | None = None
    away_days: int | None = None


@dataclass(frozen=True, slots=True)
class MemberSettings:
    """What a member set once for all her games: a DM when she must act, quiet hours (local
    "HH:MM-HH:MM" in the IANA `zone`), standing orders for her survivors ("ask": none)."""

    turn_dm: bool = False
    quiet: str | None = None
    zone: str | None = None
    orders: str = "ask"


@dataclass(frozen=True, slots=True)
class Vacation:
    """A member away from her running games of a server (times: unix seconds)."""

    id: int
    guild_id: int
    user_id: int
    started_at: float
    until: float
    ended_at: float | None  # she came back early
    days: int  # away days it spends from her bank
    reason: str
    shared: bool  # the reason may be shown in the channels
    auto: bool  # spent by a turn of hers that ran out

    @property
    def end(self) -> float:
        return self.until if self.ended_at is None else min(self.ended_at, self.until)

    def on_at(self, when: float) -> bool:
        return self.started_at <= when < self.end


@dataclass(frozen=True, slots=True)
class MemberTurn:
    """A member's turn as it ended, for her reliability: `kind` "played" (by her), "missed"
    (her limit ran out, the AI kept her seat, a moderator skipped it) or "away" (played for
    her while on vacation)."""

    seat: str
    round: int
    user_id: int
    kind: str


@dataclass(frozen=True, slots=True)
class Reliability:
    """A member's record of finishing what she starts, in one server."""

    played: int
    missed: int
    away: int
    median_seconds: float | None  # her median time to act, over her turns played
    games_left: int  # running games she left or was removed from
    vacations: int  # vacations taken (away days spent by ran-out turns included)
    recent: int  # her last turns counted for a requirement (at most the window asked)
    recent_missed: int

    @property
    def turns(self) -> int:
        return self.played + self.missed + self.away

    @property
    def missed_share(self) -> float:
        """Missed turns among her recent ones that counted (played or missed), 0..1."""
        return self.recent_missed / self.recent if self.recent else 0.0


@dataclass(frozen=True, slots=True)
class Vote:
    """A seat vote of a game: what it decides, who called it, its ballots and outcome."""

    id: int
    game_id: int
    kind: str  # pause | resume | time | ai | end
    seat: str | None  # "ai": the seat handed to the AI
    seconds: int | None  # "time": how much time is added
    caller_id: int
    voters: int  # seated members when it was called
    message_id: int | None
    opened_at: str
    expires_at: float
    outcome: str | None  # None while open; passed | failed | expired
    closed_at: str | None
    version: int | None  # the game version when it closed
    posted: bool
    yes: tuple[int, ...] = ()
    no: tuple[int, ...] = ()

    @property
    def is_open(self) -> bool:
        return self.outcome is None

    @property
    def needed(self) -> int:
        """A majority of the seated members."""
        return self.voters // 2 + 1


GAME_COLUMNS = (
    "id, guild_id, channel_id, status, board, seed, players, options, opener_id, version,"
    " created_at, started_at, finished_at, revision"
)
ACTION_COLUMNS = "game_id, seq, action, actor_id, player, events, reveals, ends_turn, created_at"
LEAGUE_COLUMNS = "id, guild_id, name"
SEASON_COLUMNS = "id, league_id, name, started_at, ended_at"


def game_row(row: Sequence[Any]) -> GameRow:
    players, options = seats_of(json.loads(row[6]), json.loads(row[7]))
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        status=GameStatus(row[3]),
        board=row[4],
        seed=row[5],
        players=players,
        options=options,
        opener_id=row[8],
        version=row[9],
        created_at=row[10],
        started_at=row[11],
        finished_at=row[12],
        revision=int(row[13]),
    )


def action_row(row: Sequence[Any]) -> ActionRow:
    return ActionRow(
        game_id=row[0],
        seq=row[1],
        action=json.loads(row[2]),
        actor_id=row[3],
        player=row[4],
        events=json.loads(row[5]),
        reveals=bool(row[6]),
        ends_turn=bool(row[7]),
        created_at=row[8],
    )


def league_row(row: Sequence[Any]) -> League:
    return League(row[0], row[1], row[2])


def season_row(row: Sequence[Any]) -> Season:
    return Season(row[0], row[1], row[2], row[3], row[4])



ROUND_COLUMNS = "id, season_id, number, started_by, started_at, start_by, deadline, begun_at"


def round_row(row: Sequence[Any]) -> RoundRow:
    return RoundRow(int(row[0]), int(row[1]), int(row[2]), row[3], str(row[4]), str(row[5]),
                    str(row[6]), row[7])
