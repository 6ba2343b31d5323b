"""A game's options, typed: what its lobby, a league round or a vote of the table set.

They are stored as one JSON object in `games.options` and read through `GameRow.opts`
(a `GameOptions`), never by string key. Every write goes through `checked_options`, so a
malformed value is refused at the edge, before anything is stored. Keys a game stored
before this model (the seat standing that now lives on `Seat`) are kept as extras and read
onto the seats at load (bot.store.rows.seats_of).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.clock import ClockConfig, clock_of

log = logging.getLogger(__name__)


class LeagueTag(BaseModel):
    """A league game's tag: its season, and for a round's table the round, the members drawn
    for it, its start window and deadline, the AI seats it asked for and who did not come."""

    model_config = ConfigDict(frozen=True, extra="allow")

    season_id: int | None = None
    season: str | None = None
    league: str | None = None
    round: int | None = None
    table_no: int | None = None
    table: tuple[int, ...] | None = None
    start_by: str | None = None
    deadline: str | None = None
    ai_seats: int = Field(default=0, ge=0, le=5)
    no_shows: tuple[int, ...] = ()


class Reliability(BaseModel):
    """A table's requirement to join: at most `max_missed` % of the last `over` turns missed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_missed: int = Field(ge=0, le=100)
    over: int = Field(default=50, ge=1, le=500)


class GameOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")

    language: str | None = None
    clock: dict[str, Any] | None = None  # a ClockConfig's JSON (`turn_clock` reads it)
    league: LeagueTag | None = None
    max_players: int | None = Field(default=None, ge=2, le=5)
    reliability: Reliability | None = None
    vacation: Literal["pause", "ai"] | None = None  # an away member's turns: wait, or AI
    paused: bool = False  # a vote of the table paused its clock
    hints: bool = True  # /sw hint allowed (never in league games)
    engine: dict[str, Any] | None = None  # the engine's rule options (scenario JSON)
    ended: dict[str, Any] | None = None  # "end now": the ranking as it stood

    @property
    def drawn(self) -> tuple[int, ...]:
        """The members drawn for a league round's table (none: not a round's table)."""
        return (self.league.table or ()) if self.league is not None else ()

    @property
    def turn_clock(self) -> ClockConfig:
        """The game's clock (a malformed or missing one: no clock)."""
        return clock_of(self.clock)

    @classmethod
    def read(cls, raw: dict[str, Any] | None) -> GameOptions:
        """Options as stored; a value that does not fit (written before the model) is left
        out with a warning rather than breaking the game."""
        try:
            return cls.model_validate(raw or {})
        except ValidationError as exc:
            bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
            log.warning("ignoring malformed game options %s", sorted(bad))
            return cls.model_validate({k: v for k, v in (raw or {}).items() if k not in bad})


class BadOptions(ValueError):
    """Options a writer was about to store that do not fit GameOptions."""


def checked_options(options: dict[str, Any]) -> dict[str, Any]:
    """`options` if they fit GameOptions (else BadOptions naming the keys): the edge every
    write of a game's options passes."""
    try:
        GameOptions.model_validate(options)
    except ValidationError as exc:
        keys = sorted({str(err["loc"][0]) for err in exc.errors() if err["loc"]})
        raise BadOptions(f"malformed game options: {', '.join(keys)}") from None
    return options
