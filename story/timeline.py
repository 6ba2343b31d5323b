"""A finished game's story, told from its first state and its action log.

`tell(start, actions, recorded)` replays the log and keeps what the end card and the replay
show: one Frame per map the bot posted after a turn (the public observation, the regions
conquered in that turn, what the player did), and per player the regions held after each
round and the combos played with the rounds they were picked, declined and gone. Coins after
each round and the final ranking are kept only when the game is finished: a story of an
unfinished game holds no coin figure at all, and asking it for one raises SecretUntilOver.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine

from .turns import Event, StoryError, conquered_in_turn, posts_a_map, replay


class SecretUntilOver(StoryError):
    """Coins and the ranking of a game are secret until it is over."""


@dataclass(frozen=True, slots=True)
class Deed:
    """Something a player did in a turn: "picked" (race, power), "conquered" (n regions),
    "declined" (race, power), "held" (none of these), "game_over" (the game ended after the
    last turn's survivors were placed)."""

    kind: str
    race: str | None = None
    power: str | None = None
    n: int = 0


@dataclass(frozen=True, slots=True)
class Frame:
    """The map the bot posts after a turn: after action `seq` of the log, the public
    observation, the regions conquered in the turn (outlined), and what `player` did in
    `round`. `player` is None only for a last frame with no turn of its own (the game ended
    when the last turn's survivors were placed)."""

    seq: int
    round: int
    player: str | None
    observation: Mapping[str, Any]  # engine.observe(state, None): the public view
    highlight: tuple[int, ...]
    deeds: tuple[Deed, ...]


@dataclass(frozen=True, slots=True)
class Stint:
    """A race and power a player played: picked in round `picked`, put in decline in round
    `declined` (None: still Active at the end), gone from the map in round `gone`."""

    race: str
    power: str | None
    picked: int
    declined: int | None = None
    gone: int | None = None

    def active_rounds(self, last: int) -> range:
        """The rounds it was the player's Active race (the decline round included: the
        race was Active until its turn then)."""
        return range(self.picked, (self.declined or last) + 1)


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's place at the end: coins, race tokens on the map (the tie-break), rank."""

    player: str
    coins: int
    tokens: int
    rank: int


@dataclass(frozen=True, slots=True)
class Story:
    """What the end card and the replay show of one game (see the module's docstring)."""

    board: engine.data.Board
    players: tuple[str, ...]
    rounds: int  # the board's number of rounds
    finished: bool
    frames: tuple[Frame, ...]
    regions: Mapping[str, tuple[int, ...]]  # regions held after each round played
    stints: Mapping[str, tuple[Stint, ...]]
    start_coins: int
    _coins: Mapping[str, tuple[int, ...]] | None = field(default=None, repr=False)
    _ranking: tuple[Placing, ...] | None = field(default=None, repr=False)

    @property
    def rounds_played(self) -> int:
        return max((len(v) for v in self.regions.values()), default=0)

    def _over(self) -> None:
        if not self.finished or self._coins is None or self._ranking is None:
            raise SecretUntilOver("coins and the ranking are secret until the game is over")

    @property
    def coins(self) -> Mapping[str, tuple[int, ...]]:
        """Each player's coins after each round (SecretUntilOver before the end)."""
        self._over()
        assert self._coins is not None
        return self._coins

    @property
    def ranking(self) -> tuple[Placing, ...]:
        """The final ranking, best first (SecretUntilOver before the end)."""
        self._over()
        assert self._ranking is not None
        return self._ranking

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.ranking if p.rank == 1)


def deeds(player: str | None, events: Iterable[Event]) -> tuple[Deed, ...]:
    """What `player` did, from the events of their turn's actions, in order (the replay's
    captions; the review words the AI's alternative turn with it too)."""
    out: list[Deed] = []
    conquests = 0
    for e in events:
        kind = e.get("type")
        if kind == "game_over" and player is None:
            out.append(Deed("game_over"))
        if e.get("player") != player or player is None:
            continue
        if kind in ("picked", "declined"):
            out.append(Deed(str(kind), str(e.get("race")), e.get("power")))
        elif kind == "conquered":
            if not conquests:
                out.append(Deed("conquered"))
            conquests += 1
    out = [Deed("conquered", n=conquests) if d.kind == "conquered" else d for d in out]
    return tuple(out) if out else (Deed("held"),)


class _Teller:
    """The replay's bookkeeping: frames, rounds and stints as the actions come."""

    def __init__(self, start: engine.GameState) -> None:
        self.players = tuple(start.players)
        self.frames: list[Frame] = []
        self.window: list[Sequence[Event]] = []  # events of the actions of the current turn
        self.regions: dict[str, list[int]] = {p: [] for p in self.players}
        self.coins: dict[str, list[int]] = {p: [] for p in self.players}
        self.stints: dict[str, list[dict[str, Any]]] = {p: [] for p in self.players}

    def action(self, seq: int, before: engine.GameState, state: engine.GameState,
               events: Sequence[Event]) -> None:
        rnd = before.round
        for e in events:
            kind, player = e.get("type"), e.get("player")
            if kind == "picked" and player in self.stints:
                self.stints[str(player)].append(
                    {"race": str(e.get("race")), "power": e.get("power"), "picked": rnd})
            elif kind == "declined" and player in self.stints:
                for stint in self.stints[str(player)]:
                    if stint["race"] == e.get("race") and "declined" not in stint:
                        stint["declined"] = rnd
            elif kind == "vanished":
                for stints in self.stints.values():
                    for stint in stints:
                        if stint["race"] == e.get("race") and "gone" not in stint:
                            stint["gone"] = rnd
            elif kind in ("round_started", "game_over"):
                self._round_over(state)
        self.window.append(events)
        if posts_a_map(events):
            self._frame(seq, rnd, state)
            self.window = [events]  # the action that ended the turn bounds the next one

    def _round_over(self, state: engine.GameState) -> None:
        """Each player's regions and coins as the round ends (coins kept aside: `tell`
        drops them unless the game is over)."""
        seen = engine.observe(state, None, reveal_all=True)
        owners = [r.get("owner") for r in seen["regions"].values()]
        for name in self.players:
            self.regions[name].append(owners.count(name))
            self.coins[name].append(int(seen["players"][name]["coins"]))

    def _frame(self, seq: int, rnd: int, state: engine.GameState) -> None:
        ended = next((e for e in self.window[-1] if e.get("type") == "turn_ended"), None)
        player = None if ended is None else str(ended.get("player"))
        if ended is not None:
            rnd = int(ended.get("round", rnd))
        # the first action of the window ended the turn before (none for the first turn)
        turn = [e for events in self.window[1 if self.frames else 0:] for e in events]
        self.frames.append(Frame(seq, rnd, player, engine.observe(state, None),
                                 conquered_in_turn(self.window), deeds(player, turn)))


def tell(start: engine.GameState, actions: Iterable[Mapping[str, Any] | engine.Action],
         recorded: Iterable[Sequence[Event]] | None = None) -> Story:
    """The story of the game played from `start` by `actions` (protocol dicts or engine
    Actions; with `recorded`, each action's stored events, checked against the replay).

    A log the rules refuse, or whose events differ from the recorded ones, raises
    StoryError. The story of a game that is not finished has no coins and no ranking.

    `start` is the game's first state (engine.new_game, as the bot starts its games): the
    rounds, and the combos as stints, are counted from there. A story told from a later
    position (a scenario) lists only the rounds ended and the combos picked after it."""
    teller = _Teller(start)
    state = start
    for step in replay(start, actions, recorded):
        teller.action(step.seq, step.before, step.state, step.events)
        state = step.state
    finished = state.finished
    coins = ranking = None
    if finished:
        coins = {p: tuple(v) for p, v in teller.coins.items()}
        ranking = tuple(Placing(str(r["player"]), int(r["total"]), int(r["tokens"]),
                                int(r["rank"]))
                        for r in engine.observe(state, None)["ranking"] or ())
    stints = {p: tuple(Stint(s["race"], s["power"], s["picked"], s.get("declined"),
                             s.get("gone")) for s in v) for p, v in teller.stints.items()}
    return Story(board=start.board, players=teller.players, rounds=start.board.rounds,
                 finished=finished, frames=tuple(teller.frames),
                 regions={p: tuple(v) for p, v in teller.regions.items()}, stints=stints,
                 start_coins=engine.data.components().start_coins, _coins=coins,
                 _ranking=ranking)
