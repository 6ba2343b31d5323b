"""What a board may send over its socket (docs/web.md), checked at the edge: anything else
is answered with a JSON error and changes nothing."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

MAX_FRAME = 4096  # bytes: the largest message a board sends is an action of a few dozen
MsgId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Msg):
    t: Literal["hello"]
    session: str = Field(min_length=1, max_length=2048)
    channel: str = Field(pattern=r"^[0-9]{1,20}$")
    v: int = Field(0, ge=0)


class Act(_Msg):
    t: Literal["act"]
    id: MsgId
    g: int = Field(ge=0)  # the game the board showed
    v: int = Field(ge=0)  # the log revision the board showed
    a: dict[str, Any]  # an engine action; the engine reads it (bot.game.session.parse)


class Undo(_Msg):
    t: Literal["undo"]
    id: MsgId
    g: int = Field(ge=0)
    v: int = Field(ge=0)


class Hint(_Msg):
    t: Literal["hint"]
    id: MsgId


class Ping(_Msg):
    t: Literal["ping"]


Incoming = Annotated[Hello | Act | Undo | Hint | Ping, Field(discriminator="t")]
INCOMING: TypeAdapter[Hello | Act | Undo | Hint | Ping] = TypeAdapter(Incoming)


class TokenRequest(_Msg):
    """POST /api/token: the code the Activity's `authorize` gave."""

    code: str = Field(min_length=1, max_length=512)
