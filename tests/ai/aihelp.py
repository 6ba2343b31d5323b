"""Helpers shared by the AI tests (imported as `aihelp`: tests/ai is on the path)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import engine
from engine import data

BASE = json.loads((Path(__file__).resolve().parents[1] / "rules" / "scenarios"
                   / "conquest_costs.json").read_text(encoding="utf-8"))


def scenario(race: str, power: str, hand: int = 8, round_: int = 3) -> engine.GameState:
    """ann (Active `race`/`power`, 3 tokens on region 12 + `hand`) against bob's Orcs."""
    sc = json.loads(json.dumps(BASE))
    sc["round"] = round_
    sc["seats"]["ann"]["active"] = {"race": race, "power": power, "hand": hand}
    sc["regions"]["12"].update(race=race, tokens=3)
    taken_p = {power, "Alchemist", "Fortified"}
    if power == "Fortified":
        sc["seats"]["bob"]["active"]["power"] = "Swamp"
        sc["regions"]["17"]["pieces"] = []
        taken_p = {power, "Alchemist", "Swamp"}
    races = [r for r in data.RACES if r not in {race, "Orcs", "Trolls"}][:6]
    powers = [p for p in data.POWERS if p not in taken_p][:6]
    sc["row"] = [{"race": r, "power": p, "coins": 0} for r, p in zip(races, powers, strict=True)]
    return engine.load_scenario(sc)


def alter_secrets(s: engine.GameState, rnd: random.Random) -> engine.GameState:
    """The same position for the actor, with everything it may not see changed."""
    me = s.players.index(s.actor)
    t = s.fork()
    for i in range(len(t.seats)):
        if i != me:
            t.seat_w(i).coins = rnd.randrange(0, 80)
    banners, badges = list(t.banners), list(t.badges)
    rnd.shuffle(banners)
    rnd.shuffle(badges)
    t.banners, t.badges = tuple(banners), tuple(badges)
    t.rng = random.Random(rnd.random())
    t.dice = tuple(rnd.randrange(4) for _ in range(3))
    return t.seal()


