"""What happened: one typed model per event kind (the closed set the engine emits).

`apply` still returns plain dicts (their JSON is the line protocol's and the log's); these
models say exactly what each kind carries, which kinds are private to their player, and
let callers read an event with types: `parse_event(d)` validates, `Event.as_dict()` gives
the identical dict back.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Event(BaseModel):
    """One event; `private` kinds reach only their player (public_events strips them)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    private: ClassVar[bool] = False

    def as_dict(self) -> dict[str, Any]:
        out = self.model_dump(by_alias=True, exclude_unset=True)
        out["type"] = self.type
        if self.private:
            out["private"] = True
        return out


class Picked(_Event):
    """A player took a combo from the row, paying coins and collecting those on it."""

    type: Literal["picked"] = "picked"
    player: str
    slot: int
    race: str
    power: str
    paid: int
    collected: int
    tokens: int


class Drew(_Event):
    """A new combo was drawn into the row."""

    type: Literal["drew"] = "drew"
    race: str
    power: str


class Reshuffled(_Event):
    """The discarded power badges were shuffled into a new stack."""

    type: Literal["reshuffled"] = "reshuffled"
    badges: int


class Conquered(_Event):
    """A region changed hands (defender None: it was empty)."""

    type: Literal["conquered"] = "conquered"
    player: str
    region: int
    race: str
    tokens: int
    defender: str | None
    defender_race: str | None
    lost: int
    in_decline: bool = False
    by: str | None = None


class Rolled(_Event):
    """The reinforcement die was rolled (`for`: reinforce or berserk)."""

    type: Literal["rolled"] = "rolled"
    player: str
    value: int
    for_: Annotated[str, Field(alias="for")]


class ReinforceFailed(_Event):
    """The final conquest with the die came up short."""

    type: Literal["reinforce_failed"] = "reinforce_failed"
    player: str
    region: int
    needed: int
    had: int
    rolled: int


class Declined(_Event):
    """A player's Active race went into decline."""

    type: Literal["declined"] = "declined"
    player: str
    race: str
    power: str


class Abandoned(_Event):
    """A region was emptied by its holder (forced: the Amazons' reserve needed its token)."""

    type: Literal["abandoned"] = "abandoned"
    player: str
    region: int
    tokens: int | None = None
    forced: bool = False


class Deployed(_Event):
    """Tokens were put on a region (auto: by the rules; survivors: a defender's)."""

    type: Literal["deployed"] = "deployed"
    player: str
    region: int
    count: int
    auto: bool = False
    survivors: bool = False


class Moved(_Event):
    """Tokens moved between two regions of the same race during redeployment."""

    type: Literal["moved"] = "moved"
    player: str
    from_: Annotated[int, Field(alias="from")]
    to: int
    count: int


class Placed(_Event):
    """A piece (fortress, encampment, hero) was put on a region."""

    type: Literal["placed"] = "placed"
    player: str
    piece: str
    region: int
    auto: bool = False


class Lifted(_Event):
    """Encampments or Heroes were picked up to be set anew this redeployment."""

    type: Literal["lifted"] = "lifted"
    player: str
    piece: str
    regions: list[int]


class Allied(_Event):
    """A Diplomat chose the player at peace with them until their next turn."""

    type: Literal["allied"] = "allied"
    player: str
    target: str


class BonusTokens(_Event):
    """A race or power added tokens to the hand at the start of the turn."""

    type: Literal["bonus_tokens"] = "bonus_tokens"
    player: str
    race: str
    tokens: int


class Reserve(_Event):
    """The Amazons took their four attack-only tokens off the map."""

    type: Literal["reserve"] = "reserve"
    player: str
    race: str
    tokens: int


class Vanished(_Event):
    """An In Decline race lost its last region and left the map."""

    type: Literal["vanished"] = "vanished"
    race: str


class MustPlace(_Event):
    """A player must place surviving tokens or displaced encampments before play goes on."""

    type: Literal["must_place"] = "must_place"
    player: str
    tokens: int | None = None
    race: str | None = None
    encampments: int | None = None


class SurvivorsDone(_Event):
    """A defender finished placing their survivors."""

    type: Literal["survivors_done"] = "survivors_done"
    player: str


class Scored(_Event):
    """A player's income for the turn and new total: private to that player."""

    private: ClassVar[bool] = True
    type: Literal["scored"] = "scored"
    player: str
    income: int
    coins: int
    breakdown: dict[str, int] | None = None


class TurnStarted(_Event):
    """A player's turn began."""

    type: Literal["turn_started"] = "turn_started"
    player: str
    round: int


class TurnEnded(_Event):
    """A player's turn ended."""

    type: Literal["turn_ended"] = "turn_ended"
    player: str
    round: int


class RoundStarted(_Event):
    """A new game round began."""

    type: Literal["round_started"] = "round_started"
    round: int


class GameOver(_Event):
    """The last round ended: the ranking (coins revealed) and the winners."""

    type: Literal["game_over"] = "game_over"
    ranking: list[dict[str, Any]]
    winners: list[str]


EVENT_TYPES: dict[str, type[_Event]] = {
    cls.model_fields["type"].default: cls
    for cls in (Picked, Drew, Reshuffled, Conquered, Rolled, ReinforceFailed, Declined,
                Abandoned, Deployed, Moved, Placed, Lifted, Allied, BonusTokens, Reserve,
                Vanished, MustPlace, SurvivorsDone, Scored, TurnStarted, TurnEnded,
                RoundStarted, GameOver)
}
EVENT_KINDS: tuple[str, ...] = tuple(EVENT_TYPES)
PRIVATE_KINDS = frozenset(k for k, c in EVENT_TYPES.items() if c.private)

Event = Annotated[
    Picked | Drew | Reshuffled | Conquered | Rolled | ReinforceFailed | Declined | Abandoned
    | Deployed | Moved | Placed | Lifted | Allied | BonusTokens | Reserve | Vanished
    | MustPlace | SurvivorsDone | Scored | TurnStarted | TurnEnded | RoundStarted | GameOver,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter = TypeAdapter(Event)


def parse_event(d: dict[str, Any]) -> _Event:
    """The typed model of an event dict (the `private` flag is the class's, not data)."""
    body = {k: v for k, v in d.items() if k != "private"}
    return _ADAPTER.validate_python(body)


def is_private(d: dict[str, Any]) -> bool:
    cls = EVENT_TYPES.get(d.get("type", ""))
    return cls.private if cls is not None else bool(d.get("private"))
