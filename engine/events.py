"""What happened: one typed model per event kind (the closed set the engine emits).

`apply` returns these models (`Step.events`). Their JSON is the line protocol's and the
log's: `event.as_dict()` gives it, in the same key order as ever, and an event also reads
like that dict (`e["type"]`, `e.get("from")`, `dict(e)`, `e == {...}`), so a reader of stored
dicts and a reader of fresh events see the same thing. `parse_event(d)` validates a dict
back into its model. `private` kinds reach only their player (public_events strips them).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

E = TypeVar("E", bound="Event")

_new = object.__new__
_set = object.__setattr__
_WIRE = {"from_": "from", "for_": "for"}  # field -> JSON key where they differ
_FIELD = {v: k for k, v in _WIRE.items()}


class Event(BaseModel):
    """One event; `private` kinds reach only their player (public_events strips them)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    private: ClassVar[bool] = False
    type: str

    @classmethod
    def of(cls: builtins.type[E], **values: Any) -> E:
        """The event from values the engine computed itself (no validation: fast). Only the
        fields given appear in its dict, as in the dicts the engine used to build."""
        m: E = _new(cls)
        d = _TEMPLATES[cls].copy()
        d.update(values)  # the template's order is the fields' order: it is kept
        if len(d) != len(_TEMPLATES[cls]):
            raise TypeError(f"{cls.__name__} has no field {sorted(d.keys() - cls.model_fields)}")
        _set(m, "__dict__", d)
        _set(m, "__pydantic_fields_set__", {"type", *values})
        _set(m, "__pydantic_extra__", None)
        _set(m, "__pydantic_private__", None)
        return m

    def keys(self) -> list[str]:
        """The JSON keys, in order: type, the fields given, then `private` if it is."""
        fields = self.__pydantic_fields_set__
        out = ["type"]
        out += [_WIRE.get(f, f) for f in type(self).model_fields if f in fields and f != "type"]
        if self.private:
            out.append("private")
        return out

    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return self.type
        if key == "private" and self.private:
            return True
        field = _FIELD.get(key, key)
        if field not in self.__pydantic_fields_set__ or field not in type(self).model_fields:
            raise KeyError(key)
        return getattr(self, field)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.keys()

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        return iter(self.keys())

    def items(self) -> list[tuple[str, Any]]:
        return [(k, self[k]) for k in self.keys()]

    def as_dict(self) -> dict[str, Any]:
        """The event's JSON object (a fresh dict, nested lists and dicts copied)."""
        body = self.model_dump(by_alias=True, exclude_unset=True, exclude={"type"})
        out: dict[str, Any] = {"type": self.type}
        out.update(body)
        if self.private:
            out["private"] = True
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, dict):
            return self.as_dict() == other
        if isinstance(other, Event):
            return type(self) is type(other) and self.as_dict() == other.as_dict()
        return NotImplemented

    __hash__ = BaseModel.__hash__


_Event = Event


class Picked(Event):
    """A player took a combo from the row, paying coins and collecting those on it."""

    type: Literal["picked"] = "picked"
    player: str
    slot: int
    race: str
    power: str
    paid: int
    collected: int
    tokens: int


class Drew(Event):
    """A new combo was drawn into the row."""

    type: Literal["drew"] = "drew"
    race: str
    power: str


class Reshuffled(Event):
    """The discarded power badges were shuffled into a new stack."""

    type: Literal["reshuffled"] = "reshuffled"
    badges: int


class Conquered(Event):
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


class Rolled(Event):
    """The reinforcement die was rolled (`for`: reinforce or berserk)."""

    type: Literal["rolled"] = "rolled"
    player: str
    value: int
    for_: Annotated[str, Field(alias="for")]


class ReinforceFailed(Event):
    """The final conquest with the die came up short."""

    type: Literal["reinforce_failed"] = "reinforce_failed"
    player: str
    region: int
    needed: int
    had: int
    rolled: int


class Declined(Event):
    """A player's Active race went into decline."""

    type: Literal["declined"] = "declined"
    player: str
    race: str
    power: str


class Abandoned(Event):
    """A region was emptied by its holder (forced: the Amazons' reserve needed its token)."""

    type: Literal["abandoned"] = "abandoned"
    player: str
    region: int
    tokens: int | None = None
    forced: bool = False


class Deployed(Event):
    """Tokens were put on a region (auto: by the rules; survivors: a defender's)."""

    type: Literal["deployed"] = "deployed"
    player: str
    region: int
    count: int
    auto: bool = False
    survivors: bool = False


class Moved(Event):
    """Tokens moved between two regions of the same race during redeployment."""

    type: Literal["moved"] = "moved"
    player: str
    from_: Annotated[int, Field(alias="from")]
    to: int
    count: int


class Placed(Event):
    """A piece (fortress, encampment, hero) was put on a region."""

    type: Literal["placed"] = "placed"
    player: str
    piece: str
    region: int
    auto: bool = False


class Lifted(Event):
    """Encampments or Heroes were picked up to be set anew this redeployment."""

    type: Literal["lifted"] = "lifted"
    player: str
    piece: str
    regions: list[int]


class Allied(Event):
    """A Diplomat chose the player at peace with them until their next turn."""

    type: Literal["allied"] = "allied"
    player: str
    target: str


class BonusTokens(Event):
    """A race or power added tokens to the hand at the start of the turn."""

    type: Literal["bonus_tokens"] = "bonus_tokens"
    player: str
    race: str
    tokens: int


class Reserve(Event):
    """The Amazons took their four attack-only tokens off the map."""

    type: Literal["reserve"] = "reserve"
    player: str
    race: str
    tokens: int


class Vanished(Event):
    """An In Decline race lost its last region and left the map."""

    type: Literal["vanished"] = "vanished"
    race: str


class MustPlace(Event):
    """A player must place surviving tokens or displaced encampments before play goes on."""

    type: Literal["must_place"] = "must_place"
    player: str
    tokens: int | None = None
    race: str | None = None
    encampments: int | None = None


class SurvivorsDone(Event):
    """A defender finished placing their survivors."""

    type: Literal["survivors_done"] = "survivors_done"
    player: str


class Scored(Event):
    """A player's income for the turn and new total: private to that player."""

    private: ClassVar[bool] = True
    type: Literal["scored"] = "scored"
    player: str
    income: int
    coins: int
    breakdown: dict[str, int] | None = None


class TurnStarted(Event):
    """A player's turn began."""

    type: Literal["turn_started"] = "turn_started"
    player: str
    round: int


class TurnEnded(Event):
    """A player's turn ended."""

    type: Literal["turn_ended"] = "turn_ended"
    player: str
    round: int


class RoundStarted(Event):
    """A new game round began."""

    type: Literal["round_started"] = "round_started"
    round: int


class GameOver(Event):
    """The last round ended: the ranking (coins revealed) and the winners."""

    type: Literal["game_over"] = "game_over"
    ranking: list[dict[str, Any]]
    winners: list[str]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.model_fields["type"].default: cls
    for cls in (Picked, Drew, Reshuffled, Conquered, Rolled, ReinforceFailed, Declined,
                Abandoned, Deployed, Moved, Placed, Lifted, Allied, BonusTokens, Reserve,
                Vanished, MustPlace, SurvivorsDone, Scored, TurnStarted, TurnEnded,
                RoundStarted, GameOver)
}
EVENT_KINDS: tuple[str, ...] = tuple(EVENT_TYPES)
_KIND: dict[type[Event], str] = {cls: kind for kind, cls in EVENT_TYPES.items()}
PRIVATE_KINDS = frozenset(k for k, c in EVENT_TYPES.items() if c.private)
# each kind's fields in order, with their defaults (None where a field has none)
_TEMPLATES: dict[type[Event], dict[str, Any]] = {
    cls: {name: None if f.is_required() else f.default for name, f in cls.model_fields.items()}
    for cls in EVENT_TYPES.values()
}

AnyEvent = Annotated[
    Picked | Drew | Reshuffled | Conquered | Rolled | ReinforceFailed | Declined | Abandoned
    | Deployed | Moved | Placed | Lifted | Allied | BonusTokens | Reserve | Vanished
    | MustPlace | SurvivorsDone | Scored | TurnStarted | TurnEnded | RoundStarted | GameOver,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Event] = TypeAdapter(AnyEvent)


def parse_event(d: dict[str, Any] | Event) -> Event:
    """The typed model of an event dict (the `private` flag is the class's, not data)."""
    if isinstance(d, Event):
        return d
    body = {k: v for k, v in d.items() if k != "private"}
    return _ADAPTER.validate_python(body)


def is_private(d: dict[str, Any] | Event) -> bool:
    if isinstance(d, Event):
        return d.private
    cls = EVENT_TYPES.get(d.get("type", ""))
    return cls.private if cls is not None else bool(d.get("private"))


class EventLog:
    """What one action made happen, in order: each event's kind and values, built into its
    model only when read (`models()`). A playout that never looks at the events (the AI's
    search, a random game) pays nothing for them; whoever reads them gets the models."""

    __slots__ = ("raw",)

    def __init__(self) -> None:
        self.raw: list[tuple[type[Event], dict[str, Any]]] = []

    @classmethod
    def fresh(cls) -> EventLog:
        """An empty log, made without __init__ (one per action: this is faster)."""
        log = _new(cls)
        log.raw = []
        return log

    def add(self, cls: type[Event], /, **values: Any) -> None:
        self.raw.append((cls, values))

    def kinds(self) -> list[str]:
        return [_KIND[cls] for cls, _ in self.raw]

    def models(self) -> list[Event]:
        return [cls.of(**values) for cls, values in self.raw]


def as_dicts(events: list[Event]) -> list[dict[str, Any]]:
    """The events as the protocol and the log write them."""
    return [e.as_dict() for e in events]
