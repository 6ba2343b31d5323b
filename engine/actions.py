"""The closed set of actions: frozen pydantic models in one union discriminated on "do"."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from .errors import InvalidAction


def _region_id(v: Any) -> Any:
    """Region ids as the observation writes them ("12") are read as numbers (12)."""
    if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 6:
        return int(v)
    return v


Region = Annotated[int, Field(ge=0, strict=True), BeforeValidator(_region_id)]
Count = Annotated[int, Field(ge=1, strict=True)]
Piece = Literal["fortress", "encampment", "hero", "troll_lair"]


class _Action(BaseModel):
    """One protocol line; `model_dump(mode="json")` gives it back (unset options left out)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    player: str

    @model_serializer(mode="wrap")
    def _drop_none(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        out = {"do": data.pop("do")}
        for k, v in data.items():
            if v is not None:
                out["from" if k == "from_" else k] = v
        return out


class Pick(_Action):
    """Take the combo at a row position; pay 1 coin on each combo above it."""

    do: Literal["pick"] = "pick"
    slot: Annotated[int, Field(ge=0, le=5, strict=True)]


class Abandon(_Action):
    """Empty one of your Active regions (start of the turn, before any conquest)."""

    do: Literal["abandon"] = "abandon"
    region: Region


class Conquer(_Action):
    """Conquer a region with tokens in hand (race="decline": your In Decline Ghouls)."""

    do: Literal["conquer"] = "conquer"
    region: Region
    race: Literal["decline"] | None = None


class Reinforce(_Action):
    """Final conquest: name a region 1-3 tokens out of reach, then roll the die."""

    do: Literal["reinforce"] = "reinforce"
    region: Region
    race: Literal["decline"] | None = None


class Roll(_Action):
    """Berserk: roll the die before the next conquest."""

    do: Literal["roll"] = "roll"


class Decline(_Action):
    """Put the Active race into decline (the whole turn; Stout: after redeployment)."""

    do: Literal["decline"] = "decline"


class Deploy(_Action):
    """Put tokens from hand on one of your regions."""

    do: Literal["deploy"] = "deploy"
    region: Region
    count: Count


class Move(_Action):
    """Redeploy tokens between two of your regions (each keeps at least one)."""

    do: Literal["move"] = "move"
    from_: Region = Field(alias="from")
    to: Region
    count: Count


class Enchant(_Action):
    """Sorcerers: replace a lone Active enemy token with one of yours from the tray."""

    do: Literal["enchant"] = "enchant"
    region: Region


class Dragon(_Action):
    """Dragon Master: conquer with a single token and move the Dragon there."""

    do: Literal["dragon"] = "dragon"
    region: Region


class Place(_Action):
    """Place a fortress, encampment or hero on one of your regions."""

    do: Literal["place"] = "place"
    piece: Piece
    region: Region


class Ally(_Action):
    """Diplomat: choose the opponent at peace with you until your next turn."""

    do: Literal["ally"] = "ally"
    target: str


class End(_Action):
    """Finish your turn (or your survivors' redeployment) and score."""

    do: Literal["end"] = "end"


Action = Annotated[
    Pick | Abandon | Conquer | Reinforce | Roll | Decline | Deploy | Move | Enchant | Dragon
    | Place | Ally | End,
    Field(discriminator="do"),
]
ACTION_TYPES = (Pick, Abandon, Conquer, Reinforce, Roll, Decline, Deploy, Move, Enchant,
                Dragon, Place, Ally, End)
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


A = TypeVar("A", bound=_Action)


def trusted(cls: type[A]) -> Callable[..., A]:
    """A fast constructor for actions the engine itself built (no validation)."""
    # actions are frozen, so equal ones may be shared: keep the recent ones
    return lru_cache(maxsize=1 << 16)(_builder(cls))


def _builder(cls: type[A]) -> Callable[..., A]:
    """Build an action of `cls` from trusted values (no validation, no cache)."""
    defaults = {name: f.default for name, f in cls.model_fields.items() if not f.is_required()}
    new = cls.__new__
    setattr_ = object.__setattr__

    def make(**values: Any) -> A:
        m = new(cls)
        setattr_(m, "__dict__", {**defaults, **values})
        setattr_(m, "__pydantic_fields_set__", set(values))
        setattr_(m, "__pydantic_extra__", None)
        setattr_(m, "__pydantic_private__", None)
        return m

    return make


def parse_action(obj: dict[str, Any] | str | bytes) -> Action:
    """Read one protocol line (JSON text or a dict); malformed input raises InvalidAction."""
    if isinstance(obj, bytes | str):
        try:
            obj = json.loads(obj)
        except (ValueError, RecursionError) as exc:
            raise InvalidAction.refuse("not_json", error=str(exc)) from None
    if not isinstance(obj, dict):
        raise InvalidAction.refuse("not_an_object")
    try:
        return _ADAPTER.validate_python(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "action"
        raise InvalidAction.refuse("malformed", field=where,
                                  problem=str(first.get("msg", "invalid"))) from None


_end = trusted(End)
_decline = trusted(Decline)
# `Listed` keeps what it builds: no second cache
_deploy = _builder(Deploy)
_move = _builder(Move)
_conquer = _builder(Conquer)
_reinforce = _builder(Reinforce)


class Listed:
    """One player's actions as `legal_actions` lists them, each built once and then shared
    (actions are frozen): a listing reads them here instead of building or looking them up
    one by one. The deploys onto a region and the moves between two regions are kept as
    runs, every count from 1 up to the most asked so far; a listing takes the first `count`.
    """

    __slots__ = ("name", "end", "decline", "conquer", "reinforce", "deploys", "moves")

    def __init__(self, name: str) -> None:
        self.name = name
        self.end = _end(player=name)
        self.decline = _decline(player=name)
        # by the `race` field (None, or "decline" for In Decline Ghouls): region -> action
        self.conquer: dict[str | None, dict[int, Conquer]] = {None: {}, "decline": {}}
        self.reinforce: dict[str | None, dict[int, Reinforce]] = {None: {}, "decline": {}}
        self.deploys: dict[int, list[Deploy]] = {}  # region -> run
        self.moves: dict[int, dict[int, list[Move]]] = {}  # from -> to -> run

    def conquer_at(self, region: int, race: str | None) -> Conquer:
        got = self.conquer[race].get(region)
        if got is None:
            got = self.conquer[race][region] = _conquer(player=self.name, region=region,
                                                         race=race)
        return got

    def reinforce_at(self, region: int, race: str | None) -> Reinforce:
        got = self.reinforce[race].get(region)
        if got is None:
            got = self.reinforce[race][region] = _reinforce(player=self.name, region=region,
                                                             race=race)
        return got

    def deploy_run(self, region: int, hand: int) -> list[Deploy]:
        """The deploys of 1..at least `hand` tokens onto `region`."""
        run = self.deploys.setdefault(region, [])
        name = self.name
        run += [_deploy(player=name, region=region, count=c)
                for c in range(len(run) + 1, hand + 1)]
        return run

    def move_run(self, f: int, to: int, spare: int) -> list[Move]:
        """The moves of 1..at least `spare` tokens from `f` to `to`."""
        run = self.moves.setdefault(f, {}).setdefault(to, [])
        name = self.name
        run += [_move(player=name, from_=f, to=to, count=c)
                for c in range(len(run) + 1, spare + 1)]
        return run


@lru_cache(maxsize=256)
def listed(name: str) -> Listed:
    """The cached actions of player `name` (see `Listed`)."""
    return Listed(name)
