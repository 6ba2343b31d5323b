"""Starting positions: a new game from a seed, or any position from a scenario."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from . import data
from .ability import power_rule, race_rule
from .events import EventLog
from .queries import OPTIONS
from .state import PICK, Area, Combo, GameState, Hold, Seat, Turn, geo_of
from .turn import begin_turn


def _board(board: str | data.Board) -> data.Board:
    if not isinstance(board, str):
        return board
    if board not in data.BOARD_IDS:
        raise ValueError(f"unknown board {board!r}; choose one of {', '.join(data.BOARD_IDS)}")
    return data.board(board)


def _check_players(players: Iterable[str]) -> tuple[str, ...]:
    if isinstance(players, str | bytes | dict) or not isinstance(players, Iterable):
        raise ValueError("players must be a list of player names")
    seated = tuple(players)
    if not 2 <= len(seated) <= 5:
        raise ValueError(f"a game needs 2-5 players, got {len(seated)}")
    if len(set(seated)) != len(seated) or not all(isinstance(p, str) and p for p in seated):
        raise ValueError("player names must be distinct non-empty strings")
    return seated


def _options(given: dict[str, Any] | None) -> dict[str, bool]:
    """Game options (RULES.md §16 alternatives); an unknown name fails."""
    options = dict(given or {})
    for k, v in options.items():
        if k not in OPTIONS:
            raise ValueError(f"unknown option {k!r}; known: {', '.join(sorted(OPTIONS))}")
        if not isinstance(v, bool):
            raise ValueError(f"option {k!r} must be true or false")
    return options


def _start(s: GameState) -> GameState:
    s._own = set()
    begin_turn(s, s.current, EventLog())
    return s.seal()


def new_game(board: str | data.Board, players: Iterable[str], seed: int,
             options: dict[str, Any] | None = None) -> GameState:
    """Shuffle banners and badges from the seed, lay out 6 combos and the Lost Tribes."""
    b = _board(board)
    seated = _check_players(players)
    rng = random.Random(seed)
    banners = list(data.RACES)
    badges = list(data.POWERS)
    rng.shuffle(banners)
    rng.shuffle(badges)
    n = data.components().visible_combos
    row = tuple(Combo(banners[i], badges[i], 0) for i in range(n))
    start = data.components().start_coins
    s = GameState(
        board=b, geo=geo_of(b), players=seated, seed=seed, options=_options(options),
        rng=rng, dice=(), round=1, current=0, stage=PICK, row=row,
        banners=tuple(banners[n:]), badges=tuple(badges[n:]), discards=(),
        seats=[Seat(p, start) for p in seated],
        areas=[Area(lost_tribe="lost_tribe" in r.symbols) for r in b.regions],
        turn=Turn(),
    )
    return _start(s)


def _obj(v: Any, what: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{what} must be a JSON object, got {v!r}")
    return v


def _list(v: Any, what: str) -> list[Any]:
    if not isinstance(v, list):
        raise ValueError(f"{what} must be a JSON list, got {v!r}")
    return v


def _int(v: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{what} must be a whole number, got {v!r}")
    if lo is not None and v < lo or hi is not None and v > hi:
        bounds = f"at least {lo}" if hi is None else f"between {lo} and {hi}"
        raise ValueError(f"{what} must be {bounds}, got {v}")
    return v


def _name_of(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{what} must be a name (a string), got {v!r}")
    return v


def _given(d: dict[str, Any], key: str, default: Any) -> Any:
    v = d.get(key)
    return default if v is None else v


def _check_spec(spec: Any) -> None:
    """Shapes and types of a scenario, with messages that name the bad field."""
    _obj(spec, "a scenario")
    if "map" in spec:
        _obj(spec["map"], "map")
        _list(spec["map"].get("regions"), "map.regions")
    elif "board" not in spec:
        raise ValueError('a scenario needs "board" (a board id) or "map"')
    else:
        _name_of(spec["board"], "board")
    if "players" not in spec:
        raise ValueError('a scenario needs "players" (the seat order)')
    _list(spec["players"], "players")
    if spec.get("seed") is not None:
        _int(spec["seed"], "seed")
    faces = sorted(set(data.components().die))
    for v in _list(spec.get("dice", []), "dice"):
        if _int(v, "a forced die result") not in faces:
            raise ValueError(f"forced die result {v} is not a face of the die {faces}")
    if spec.get("current") is not None:
        _name_of(spec["current"], "current")
    for i, c in enumerate(_list(_given(spec, "row", []), "row")):
        _obj(c, f"row[{i}]")
        _name_of(c.get("race"), f"row[{i}].race")
        _name_of(c.get("power"), f"row[{i}].power")
        _int(c.get("coins", 0), f"row[{i}].coins", 0)
    stack = _obj(_given(spec, "stack", {}), "stack")
    for key in ("races", "powers"):
        for v in _list(stack.get(key, []), f"stack.{key}"):
            _name_of(v, f"stack.{key} entry")
    _obj(_given(spec, "options", {}), "options")
    for name, x in _obj(_given(spec, "seats", {}), "seats").items():
        _obj(x, f"seats.{name}")
        _int(x.get("coins", 0), f"seats.{name}.coins", 0)
        if x.get("active") is not None:
            a = _obj(x["active"], f"seats.{name}.active")
            _name_of(a.get("race"), f"seats.{name}.active.race")
            _name_of(a.get("power"), f"seats.{name}.active.power")
            _int(a.get("hand", 0), f"seats.{name}.active.hand", 0)
        for i, d in enumerate(_list(_given(x, "decline", []), f"seats.{name}.decline")):
            _obj(d, f"seats.{name}.decline[{i}]")
            _name_of(d.get("race"), f"seats.{name}.decline[{i}].race")
            if d.get("power") is not None:
                _name_of(d["power"], f"seats.{name}.decline[{i}].power")
    for key, r in _obj(_given(spec, "regions", {}), "regions").items():
        if not str(key).lstrip("-").isdigit():
            raise ValueError(f"region key {key!r} is not a region id")
        _obj(r, f"region {key}")
        if "tokens" in r:
            _int(r["tokens"], f"region {key} tokens", 1)
        pieces = _list(r.get("pieces", []), f"region {key} pieces")
        for piece in pieces:
            _name_of(piece, f"a piece in region {key}")
        if r.get("owner") is not None:
            _name_of(r["owner"], f"region {key} owner")
            if r.get("lost_tribe"):
                raise ValueError(f"region {key} cannot hold both a Lost Tribe and {r['owner']}'s "
                                 "tokens")
        if r.get("race") is not None:
            _name_of(r["race"], f"region {key} race")


def load_scenario(spec: dict[str, Any]) -> GameState:
    """Build the position a scenario describes (DESIGN.md), at the start of `current`'s turn.

    A malformed scenario raises ValueError with a sentence naming the bad field.
    """
    _check_spec(spec)
    try:
        return _load_scenario(spec)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ValueError(f"malformed scenario: {type(exc).__name__} {exc}") from None


def _load_scenario(spec: dict[str, Any]) -> GameState:
    b = data.board_from_reference(spec["map"]) if "map" in spec else _board(spec["board"])
    players = _check_players(spec["players"])
    seed = spec.get("seed")
    seed = 0 if seed is None else int(seed)
    rng = random.Random(seed)
    start = data.components().start_coins
    limits = data.components().pieces

    seats: list[Seat] = []
    used_races: set[str] = set()
    kept_powers: list[str] = []
    discarded: list[str] = []

    def take_race(name: str) -> str:
        race_rule(name)
        if name in used_races:
            raise ValueError(f"race {name} appears twice in the scenario")
        used_races.add(name)
        return name

    seat_specs = spec.get("seats", {})
    for name in seat_specs:
        if name not in players:
            raise ValueError(f"seat {name!r} is not a player")
    for p in players:
        x = seat_specs.get(p, {})
        active = None
        if x.get("active"):
            a = x["active"]
            power_rule(a["power"])
            active = Hold(take_race(a["race"]), a["power"], int(a.get("hand", 0)))
            kept_powers.append(a["power"])
        declines = []
        for d in x.get("decline") or []:
            power = d.get("power")
            if power is not None:
                if power_rule(power).extra_decline():
                    kept_powers.append(power)
                else:
                    discarded.append(power)
            declines.append(Hold(take_race(d["race"]), power))
        if sum(1 for h in declines
               if not (h.power and power_rule(h.power).extra_decline())) > 1:
            raise ValueError(f"{p} has more than one non-Spirit In Decline race")
        seats.append(Seat(p, int(x.get("coins", start)), active, tuple(declines)))

    areas = [Area() for _ in b.regions]
    if "regions" in spec:
        for key, r in spec["regions"].items():
            rid = int(key)
            if not 0 <= rid < len(areas):
                raise ValueError(f"region {rid} is not on the board")
            pieces = tuple(sorted(r.get("pieces", ())))
            if "mountain" in pieces and b.regions[rid].terrain == "mountain":
                pieces = tuple(p for p in pieces if p != "mountain")  # terrain, always there
            for piece in pieces:
                if piece not in data.PIECES:
                    raise ValueError(f"unknown piece {piece!r} in region {rid}; pieces are "
                                     f"{', '.join(data.PIECES)}")
            if r.get("lost_tribe"):
                areas[rid] = Area(lost_tribe=True, pieces=pieces)
                continue
            owner = r.get("owner")
            if owner is None:
                areas[rid] = Area(pieces=pieces)
                continue
            if owner not in players:
                raise ValueError(f"region {rid}: unknown owner {owner!r}")
            i = players.index(owner)
            seat = seats[i]
            race = r.get("race")
            if race is None:  # the owner's only race that fits
                fits = [h.race for h in (seat.active, *seat.declines) if h is not None
                        and ("decline" not in r or bool(r["decline"]) == (h is not seat.active))]
                if len(fits) != 1:
                    raise ValueError(f"region {rid}: name the race of {owner}'s tokens")
                race = fits[0]
            if "decline" in r:
                decline = bool(r["decline"])
            else:  # a race of the owner's decline list stands In Decline
                decline = any(h.race == race for h in seat.declines)
            hold = seat.active if not decline else next(
                (h for h in seat.declines if h.race == race), None)
            if hold is None or hold.race != race:
                raise ValueError(f"region {rid}: {owner} has no {'In Decline ' if decline else ''}"
                                 f"{race}")
            tokens = int(r.get("tokens", 1))
            if tokens < 1:
                raise ValueError(f"region {rid}: an occupied region holds at least 1 token")
            areas[rid] = Area(i, race, tokens, decline, False, pieces)
    else:
        for reg in b.regions:
            if "lost_tribe" in reg.symbols:
                areas[reg.id].lost_tribe = True

    for piece, limit in limits.items():
        n = sum(a.pieces.count(piece) for a in areas)
        if n > limit:
            raise ValueError(f"{n} {piece} pieces on the map; the box has {limit}")
    for seat in seats:
        for h in (seat.active, *seat.declines):
            if h is None:
                continue
            held = [a for a in areas if a.race == h.race]
            total = sum(a.tokens for a in held) + h.hand
            box = race_rule(h.race).box
            if total > box:
                raise ValueError(f"{seat.name}'s {h.race} have {total} tokens; the box has {box}")
            race_rule(h.race).on_scenario(h, held)

    row_spec = spec.get("row")
    row: list[Combo] = []
    row_powers: list[str] = []
    if row_spec is not None:
        for c in row_spec:
            power_rule(c["power"])
            row.append(Combo(take_race(c["race"]), c["power"], int(c.get("coins", 0))))
            row_powers.append(c["power"])
    stack = spec.get("stack") or {}
    stack_races = [take_race(r) for r in stack.get("races", [])]
    stack_powers = list(stack.get("powers", []))
    for p in stack_powers:
        power_rule(p)
    taken = kept_powers + discarded + row_powers + stack_powers
    if len(set(taken)) != len(taken):
        raise ValueError("a power appears twice in the scenario")
    rest_races = [r for r in data.RACES if r not in used_races]
    rest_powers = [p for p in data.POWERS if p not in taken]
    rng.shuffle(rest_races)
    rng.shuffle(rest_powers)
    banners = stack_races + rest_races
    badges = stack_powers + rest_powers
    if row_spec is None:
        n = data.components().visible_combos
        while len(row) < n and banners and badges:
            row.append(Combo(banners.pop(0), badges.pop(0), 0))
    if len(row) > data.components().visible_combos:
        raise ValueError("the row holds at most 6 combos")

    current = spec.get("current")
    if current is None:
        current = players[0]
    if current not in players:
        raise ValueError(f"current player {current!r} is not playing")
    rnd = spec.get("round")
    rnd = 1 if rnd is None else _int(rnd, "round", 1, b.rounds)
    dice = tuple(int(v) for v in spec.get("dice", ()))
    s = GameState(
        board=b, geo=geo_of(b), players=players, seed=seed, options=_options(spec.get("options")),
        rng=rng, dice=dice, round=rnd, current=players.index(current),
        stage=PICK, row=tuple(row), banners=tuple(banners), badges=tuple(badges),
        discards=tuple(discarded), seats=seats, areas=areas, turn=Turn(),
    )
    return _start(s)
