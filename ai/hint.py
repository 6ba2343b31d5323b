"""`hint(state, seed)`: the AI's suggestion for the actor's next step, with its reason.

The suggestion is the action `choose` would take at the same level and seed, so it reads
only the actor's view (other players' coins, the stacks' order and the dice are sampled
before anything is looked at). The reason is a code and its parameters, never words: the
bot words it with the i18n key `hint.<code>` (i18n/catalogs/hint/) in the caller's
language. Region numbers, races, powers, player names and token counts are public; the
actor's own coins appear only where the actor's own purse is the reason (a pick's price).
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field

import engine
from engine import GameState, Stage

from . import plan, traits
from .hidden import public_key, seat_view
from .player import choose
from .policy import choose_action, make_ctx, plan_chain, ranked_slots, threat

# Every reason code a hint can carry (one catalog key `hint.<code>` each).
REASONS: tuple[str, ...] = (
    "pick_tokens", "pick_coins", "pick_bonus", "pick_only", "pick_value", "pick_none",
    "decline_spent", "decline_fresh", "decline_stout",
    "conquer_chain", "conquer_enemy", "conquer_ghouls", "reinforce", "roll", "enchant",
    "dragon", "deploy_guard", "deploy", "move", "place_fortress", "place_hero",
    "place_encampment", "ally", "end", "survivors", "camps_done", "abandon",
)

# the steps of a conquest chain; the first four take a region
_CONQUEST_STEPS = (engine.Conquer, engine.Reinforce, engine.Dragon, engine.Enchant, engine.Roll)
_CONQUESTS = (engine.Conquer, engine.Reinforce, engine.Dragon, engine.Enchant)
ConquestStep = engine.Conquer | engine.Reinforce | engine.Dragon | engine.Enchant | engine.Roll


@dataclass(frozen=True)
class Hint:
    """The suggested action, why (a code from REASONS with its parameters) and the rest of
    the turn as the AI plans it (`plan[0]` is `action`)."""

    action: engine.Action
    reason: str
    params: dict[str, object] = field(default_factory=dict)
    plan: tuple[engine.Action, ...] = ()


def hint(state: GameState, seed: int = 0, *, level: str = "normal") -> Hint:
    """The suggestion for `state.actor`'s next step (the action `choose` would take)."""
    action = choose(state, level, seed)
    me = state.players.index(state.actor)
    view = seat_view(state, me, seed)
    rng = random.Random(zlib.crc32(f"hint:{seed}:{public_key(view)}".encode()))
    rest = _rest_of_turn(view, me, action, rng)
    reason, params = explain(view, me, action, rest, rng)
    return Hint(action, reason, params, tuple(rest))


def _rest_of_turn(view: GameState, me: int, first: engine.Action,
                  rng: random.Random) -> list[engine.Action]:
    """`first` and the normal heuristic's next steps while `me` keeps acting."""
    out = [first]
    s = plan.step(view, first)
    name = view.players[me]
    while not s.finished and s.actor == name and len(out) < 60:
        a = choose_action(make_ctx(s, "fast", rng))
        out.append(a)
        s = plan.step(s, a)
    return out


def explain(s: GameState, me: int, a: engine.Action, rest: list[engine.Action],
            rng: random.Random) -> tuple[str, dict[str, object]]:
    """The reason code and parameters for action `a` of seat `me` on view `s`."""
    if s.stage is Stage.SURVIVORS:
        if a.do == "deploy":
            return "survivors", {"region": a.region, "count": a.count,
                                 "race": s.areas[a.region].race}
        if a.do == "place":
            return "place_encampment", {"region": a.region}
        return "camps_done", {}
    if a.do == "pick":
        return _why_pick(s, me, a.slot, rng)
    if a.do == "end" and s.stage is Stage.PICK:
        return "pick_none", {}
    h = s.seats[me].active
    if a.do == "decline":
        race = h.race if h else "?"
        if s.stage is Stage.REDEPLOY or s.turn.expanded or s.turn.picked:
            ready = sum(s.areas[r].tokens - 1 for r in _held(s, race))
            return "decline_stout", {"race": race, "ready": ready}
        gain = plan_chain(make_ctx(s, "normal", rng))
        if gain <= 1:
            return "decline_spent", {"race": race, "regions": gain}
        best = ranked_slots(make_ctx(s, "normal", rng))
        fresh = s.row[best[0]] if best else None
        return "decline_fresh", {"race": race, "regions": gain,
                                 "new_race": fresh.race if fresh else race,
                                 "new_power": fresh.power if fresh else "?"}
    if isinstance(a, _CONQUEST_STEPS):
        return _why_conquest(s, me, a, rest)
    if a.do == "deploy":
        t = threat(s, me, a.region, s.areas[a.region].race or "")
        others = [threat(s, me, r, h.race) for r in _held(s, h.race)] if h else [0.0]
        enemy = _strongest_neighbour(s, me, a.region)
        if enemy and t >= max(others) - 1e-9:
            return "deploy_guard", {"region": a.region, "count": a.count, "enemy": enemy}
        return "deploy", {"region": a.region, "count": a.count}
    if a.do == "move":
        return "move", {"count": a.count, "from": a.from_, "to": a.to}
    if a.do == "place":
        return f"place_{a.piece}", {"region": a.region}
    if a.do == "ally":
        return "ally", {"player": a.target}
    if a.do == "abandon":
        return "abandon", {"region": a.region}
    return "end", {}


def _held(s: GameState, race: str) -> list[int]:
    return [i for i, x in enumerate(s.areas) if x.race == race]


def _strongest_neighbour(s: GameState, me: int, rid: int) -> str:
    best, who = -1, ""
    for n in s.geo.nbrs[rid]:
        b = s.areas[n]
        if b.owner >= 0 and b.owner != me and not b.decline and b.tokens > best:
            best, who = b.tokens, s.players[b.owner]
    return who


def _why_pick(s: GameState, me: int, slot: int, rng: random.Random
              ) -> tuple[str, dict[str, object]]:
    combo = s.row[slot]
    tokens = traits.tokens(combo.race, combo.power)
    params: dict[str, object] = {"race": combo.race, "power": combo.power, "slot": slot + 1,
                                 "cost": slot, "tokens": tokens, "coins": combo.coins}
    affordable = ranked_slots(make_ctx(s, "normal", rng))
    if len(affordable) <= 1:
        return "pick_only", params
    most = max(traits.tokens(s.row[i].race, s.row[i].power) for i in affordable)
    if combo.coins >= 2 and combo.coins > slot:
        return "pick_coins", params
    if tokens >= most:
        return "pick_tokens", params
    rp, _, pp, _ = traits.combo_value_parts(combo.race, combo.power)
    if rp + pp >= 2.0:
        return "pick_bonus", params
    return "pick_value", params


def _why_conquest(s: GameState, me: int, a: ConquestStep, rest: list[engine.Action]
                  ) -> tuple[str, dict[str, object]]:
    if a.do == "roll":
        return "roll", {}
    if a.do == "reinforce":
        opt = next((o for o in engine.legal_conquests(s) if o.action == a), None)
        short = opt.short if opt else 1
        return "reinforce", {"region": a.region, "short": short,
                             "chance": round(100 * traits.die_chance(short))}
    if a.do == "enchant":
        return "enchant", {"region": a.region,
                           "player": s.players[s.areas[a.region].owner]}
    costs = {o.region: o.cost for o in engine.legal_conquests(s)
             if o.action.do in ("conquer", "reinforce") and not o.in_decline}
    if a.do == "dragon":
        return "dragon", {"region": a.region, "saved": max(0, costs.get(a.region, 1) - 1)}
    opt = next((o for o in engine.legal_conquests(s) if o.action == a), None)
    cost = opt.cost if opt else 0
    if a.race == "decline":
        g = next((x.race for x in s.seats[me].declines if traits.conquers_in_decline(x.race)),
                 "?")
        return "conquer_ghouls", {"region": a.region, "cost": cost, "race": g}
    chain = [x.region for x in rest if isinstance(x, _CONQUESTS)
             and getattr(x, "race", None) is None]
    h = s.seats[me].active
    target = s.areas[a.region]
    params: dict[str, object] = {"region": a.region, "cost": cost,
                                 "chain": ", ".join(str(r) for r in chain),
                                 "regions": len(chain), "hand": h.hand if h else 0}
    if target.owner >= 0 and target.owner != me and not target.decline:
        params["player"] = s.players[target.owner]
        return "conquer_enemy", params
    return "conquer_chain", params


__all__ = ["REASONS", "Hint", "hint"]
