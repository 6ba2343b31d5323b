"""Black-box helpers for the executable rulebook (tests/rules).

Everything here goes through the public engine contract only (docs/DESIGN.md):
load_scenario, parse_action, apply, observe, dump_state, RulesViolation.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import engine

SCENARIOS = Path(__file__).parent / "scenarios"

ALL_RACES = (
    "Amazons", "Dwarves", "Elves", "Ghouls", "Giants", "Halflings", "Humans",
    "Orcs", "Ratmen", "Skeletons", "Sorcerers", "Tritons", "Trolls", "Wizards",
)
ALL_POWERS = (
    "Alchemist", "Berserk", "Bivouacking", "Commando", "Diplomat", "Dragon Master",
    "Flying", "Forest", "Fortified", "Heroic", "Hill", "Merchant", "Mounted",
    "Pillaging", "Seafaring", "Spirit", "Stout", "Swamp", "Underworld", "Wealthy",
)

# Banner / badge numbers (RULES.md §1.3, §15.3 adopted values).
BANNER = {
    "Amazons": 10, "Dwarves": 3, "Elves": 6, "Ghouls": 5, "Giants": 6, "Halflings": 6,
    "Humans": 5, "Orcs": 5, "Ratmen": 8, "Skeletons": 6, "Sorcerers": 5, "Tritons": 6,
    "Trolls": 5, "Wizards": 5,
}
BADGE = {
    "Alchemist": 4, "Berserk": 4, "Bivouacking": 5, "Commando": 4, "Diplomat": 5,
    "Dragon Master": 5, "Flying": 5, "Forest": 4, "Fortified": 3, "Heroic": 5, "Hill": 4,
    "Merchant": 2, "Mounted": 5, "Pillaging": 5, "Seafaring": 5, "Spirit": 5, "Stout": 4,
    "Swamp": 4, "Underworld": 5, "Wealthy": 4,
}
BOX = {
    "Amazons": 15, "Dwarves": 8, "Elves": 11, "Ghouls": 10, "Giants": 11, "Halflings": 11,
    "Humans": 10, "Orcs": 10, "Ratmen": 13, "Skeletons": 20, "Sorcerers": 18, "Tritons": 11,
    "Trolls": 10, "Wizards": 10,
}


# ---------------------------------------------------------------- scenarios

def scenario(name: str) -> dict:
    """A hand-written scenario file from tests/rules/scenarios (a fresh copy)."""
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))


def _used(seats: dict) -> tuple[set[str], set[str]]:
    races: set[str] = set()
    powers: set[str] = set()
    for seat in seats.values():
        combos = list(seat.get("decline") or [])
        if seat.get("active"):
            combos.append(seat["active"])
        for c in combos:
            races.add(c["race"])
            if c.get("power"):
                powers.add(c["power"])
    return races, powers


def default_row(seats: dict) -> list[dict]:
    """Six combos made of races and powers that no seat uses."""
    races, powers = _used(seats)
    free_r = [r for r in ALL_RACES if r not in races]
    free_p = [p for p in ALL_POWERS if p not in powers]
    return [{"race": free_r[i], "power": free_p[i], "coins": 0} for i in range(6)]


def build(
    *,
    seats: dict,
    regions: dict | None = None,
    current: str | None = "ann",
    round: int | None = 3,
    players: tuple[str, ...] = ("ann", "bob"),
    board: str = "official-2p",
    dice: list[int] | None = None,
    row: list[dict] | None = None,
    stack: dict | None = None,
    seed: int = 11,
) -> dict:
    """A scenario dict in the DESIGN.md format; row defaults to six unused combos."""
    spec: dict[str, Any] = {"board": board, "players": list(players), "seed": seed}
    if dice is not None:
        spec["dice"] = list(dice)
    if round is not None:
        spec["round"] = round
    if current is not None:
        spec["current"] = current
    spec["row"] = row if row is not None else default_row(seats)
    if stack is not None:
        spec["stack"] = stack
    spec["seats"] = copy.deepcopy(seats)
    if regions is not None:
        spec["regions"] = {str(k): v for k, v in regions.items()}
    return spec


def active(race: str, power: str, hand: int = 0) -> dict:
    return {"race": race, "power": power, "hand": hand}


def seat(coins: int = 5, act: dict | None = None, decline: list[dict] | None = None) -> dict:
    s: dict[str, Any] = {"coins": coins}
    if act is not None:
        s["active"] = act
    if decline:
        s["decline"] = decline
    return s


def r(owner: str, race: str, tokens: int = 1, *, decline: bool = False, pieces=()) -> dict:
    """One occupied region for a scenario."""
    d: dict[str, Any] = {"owner": owner, "race": race, "tokens": tokens}
    if decline:
        d["decline"] = True
    if pieces:
        d["pieces"] = list(pieces)
    return d


LT = {"lost_tribe": True}


def load(spec: dict):
    return engine.load_scenario(copy.deepcopy(spec))


# ---------------------------------------------------------------- actions

def pick(p, slot):
    return {"do": "pick", "player": p, "slot": slot}


def conquer(p, region, race=None):
    a = {"do": "conquer", "player": p, "region": region}
    if race is not None:
        a["race"] = race
    return a


def reinforce(p, region):
    return {"do": "reinforce", "player": p, "region": region}


def roll(p):
    return {"do": "roll", "player": p}


def abandon(p, region):
    return {"do": "abandon", "player": p, "region": region}


def decline(p):
    return {"do": "decline", "player": p}


def deploy(p, region, count):
    return {"do": "deploy", "player": p, "region": region, "count": count}


def move(p, frm, to, count):
    return {"do": "move", "player": p, "from": frm, "to": to, "count": count}


def enchant(p, region):
    return {"do": "enchant", "player": p, "region": region}


def dragon(p, region):
    return {"do": "dragon", "player": p, "region": region}


def place(p, piece, region):
    return {"do": "place", "player": p, "piece": piece, "region": region}


def ally(p, target):
    return {"do": "ally", "player": p, "target": target}


def end(p):
    return {"do": "end", "player": p}


def apply(state, action: dict):
    """Apply one action dict; returns the Step."""
    return engine.apply(state, engine.parse_action(action))


def act(state, *actions: dict):
    """Apply actions in order; returns the final state."""
    for a in actions:
        state = apply(state, a).state
    return state


def act_events(state, *actions: dict):
    events: list[dict] = []
    for a in actions:
        step = apply(state, a)
        state = step.state
        events.extend(step.events)
    return state, events


def refuse(state, action: dict, *fragments: Any, code: str | None = None) -> BaseException:
    """Assert the action is refused with a RulesViolation and the state is unchanged.

    Each fragment (a number or region id) must appear in the refusal message; with `code`,
    the refusal carries that code.
    """
    before_pub = engine.observe(state, None)
    before_dump = json.dumps(engine.dump_state(state), sort_keys=True)
    with pytest.raises(engine.RulesViolation) as info:
        apply(state, action)
    assert engine.observe(state, None) == before_pub
    assert json.dumps(engine.dump_state(state), sort_keys=True) == before_dump
    msg = str(getattr(info.value, "message", "") or info.value)
    if code is not None:
        assert info.value.code == code, msg
    for frag in fragments:
        assert str(frag) in msg, f"{frag!r} not in refusal message {msg!r}"
    return info.value


# ---------------------------------------------------------------- observation

def obs(state, viewer: str | None = None) -> dict:
    return engine.observe(state, viewer)


def region(state, rid: int) -> dict:
    return obs(state)["regions"].get(str(rid)) or {}


def owner(state, rid: int):
    return region(state, rid).get("owner")


def tokens(state, rid: int) -> int:
    return region(state, rid).get("tokens") or 0


def pieces(state, rid: int) -> list:
    return list(region(state, rid).get("pieces") or [])


def is_lost_tribe(state, rid: int) -> bool:
    return bool(region(state, rid).get("lost_tribe"))


def player(state, p: str) -> dict:
    return obs(state, p)["players"][p]


def hand(state, p: str) -> int:
    return obs(state)["players"][p]["hand"]


def coins(state, p: str) -> int:
    return obs(state, p)["players"][p]["coins"]


def active_of(state, p: str):
    return obs(state)["players"][p].get("active")


def declines(state, p: str) -> list[dict]:
    return list(obs(state)["players"][p].get("decline") or [])


def on_board(state, p: str) -> int:
    a = active_of(state, p)
    return a["tokens_on_board"] if a else 0


def total(state, p: str) -> int:
    """Active-race tokens the player owns: on the board plus in hand."""
    return on_board(state, p) + hand(state, p)


def regions_of(state, p: str, *, in_decline: bool = False) -> set[int]:
    out = set()
    for rid, reg in obs(state)["regions"].items():
        if reg.get("owner") == p and bool(reg.get("decline")) == in_decline:
            out.add(int(rid))
    return out


def board_tokens(state, p: str) -> int:
    """Every race token of the player on the board, Active and In Decline."""
    return sum(
        (reg.get("tokens") or 0)
        for reg in obs(state)["regions"].values()
        if reg.get("owner") == p
    )


def pending(state) -> list[dict]:
    return list(obs(state).get("pending") or [])


def pending_for(state, p: str) -> list[dict]:
    return [x for x in pending(state) if x.get("player") == p]


def current(state) -> str:
    return obs(state)["current"]


def spent(state, p: str, rid: int, race: str | None = None) -> tuple[Any, int]:
    """Conquer rid; returns (new state, tokens moved out of hand)."""
    before = hand(state, p)
    state = act(state, conquer(p, rid, race))
    assert owner(state, rid) == p
    return state, before - hand(state, p)


def finish(state, p: str):
    """Put every token in hand on one of p's active regions, then end the turn."""
    h = hand(state, p)
    guard = 0
    while h > 0 and guard < 5:
        mine = sorted(regions_of(state, p))
        if not mine:
            break
        state = act(state, deploy(p, mine[0], h))
        h = hand(state, p)
        guard += 1
    return act(state, end(p))


def income(state, p: str, *actions: dict) -> tuple[Any, int]:
    """Apply actions; returns (state, change of p's coins)."""
    before = coins(state, p)
    state = act(state, *actions)
    return state, coins(state, p) - before


def names(value) -> list[str]:
    """Player names from a ranking/winner value (list of names or of dicts)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            out.append(item.get("player") or item.get("name"))
        elif isinstance(item, list | tuple):
            out.extend(names(item))
    return out


def assert_cost(spec: dict, p: str, rid: int, expected: int, race: str | None = None) -> None:
    """The tokens needed for rid are exactly `expected`.

    With enough tokens the conquest moves exactly `expected` tokens from hand; with
    `expected - 1` tokens in hand the plain conquest is refused and the message names the
    region and the cost.
    """
    state = load(spec)
    assert hand(state, p) >= expected, "scenario gives too few tokens to measure the cost"
    _, used = spent(state, p, rid, race)
    assert used == expected
    low = copy.deepcopy(spec)
    readied = hand(state, p) - low["seats"][p]["active"].get("hand", 0)
    low["seats"][p]["active"]["hand"] = expected - 1 - readied
    assert low["seats"][p]["active"]["hand"] >= 0
    small = load(low)
    assert hand(small, p) == expected - 1
    if expected - 1 >= 1:
        refuse(small, conquer(p, rid, race), rid, expected)
    else:
        refuse(small, conquer(p, rid, race))


# ---------------------------------------------------------------- common positions

def two(ann_active=None, bob_active=None, regions=None, *, ann_decline=None, bob_decline=None,
        current="ann", dice=None, ann_coins=5, bob_coins=5, row=None):
    """A two-player scenario on the 2p board: ann and bob with the given races and regions."""
    return build(
        seats={"ann": seat(ann_coins, ann_active, ann_decline),
               "bob": seat(bob_coins, bob_active, bob_decline)},
        regions=regions or {}, current=current, dice=dice, row=row,
    )


def ratmen(power, regions, hand_=0, **kw):
    """ann's Active Ratmen with `power` against bob's Orcs (Spirit) on region 20."""
    base = {20: r("bob", "Orcs")}
    base.update(regions)
    return two(active("Ratmen", power, hand=hand_), active("Orcs", "Spirit"), base, **kw)


def first_pick(race, power):
    """Start of game (a scenario); the given combo sits in slot 0."""
    row = [{"race": race, "power": power, "coins": 0}]
    others = [x for x in ("Ratmen", "Elves", "Dwarves", "Humans", "Wizards", "Orcs") if x != race]
    pw = [x for x in ("Alchemist", "Forest", "Swamp", "Hill", "Merchant", "Wealthy") if x != power]
    row += [{"race": others[i], "power": pw[i], "coins": 0} for i in range(5)]
    return build(seats={"ann": seat(), "bob": seat()}, regions=None, current=None, round=None,
                 row=row)


def ratmen_first_pick(power):
    """Start of game (a state); Ratmen with `power` sit in slot 0."""
    row = [{"race": "Ratmen", "power": power, "coins": 0}]
    races = ["Elves", "Dwarves", "Humans", "Wizards", "Orcs"]
    pw = [x for x in ("Alchemist", "Forest", "Swamp", "Hill", "Merchant", "Spirit") if x != power]
    row += [{"race": races[i], "power": pw[i], "coins": 0} for i in range(5)]
    return load(build(seats={"ann": seat(), "bob": seat()}, current=None, round=None, row=row))
