"""A learned evaluation: the coins each seat will still earn from a position.

`predict(s)` returns, per seat, its coins now plus the coins a linear model expects it to
earn before the end. The model reads public facts only (what each seat holds, its income,
its tokens, how exposed it is, what the row offers) and is fitted separately for each
player count and each number of own turns left, by scripts/learn_value.py from games of
the fast heuristic with varied knobs. The weights ship as readable JSON
(ai/weights/value.json) beside the script that learned them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from engine import GameState

from . import traits
from .policy import combo_value

WEIGHTS = Path(__file__).resolve().parent / "weights" / "value.json"
FEATURES = ("one", "a_inc", "d_inc", "spare", "a_reg", "no_active", "exposed", "row",
            "ghoul_tok")


def turns_left(s: GameState, seat: int) -> int:
    """Scoring turns seat `seat` still has, counted at the start of `s.current`'s turn."""
    if s.finished:
        return 0
    left = s.board.rounds - s.round
    return left + (1 if seat >= s.current else 0)


def features(s: GameState) -> list[list[float]]:
    """One feature row per seat (see FEATURES)."""
    geo = s.geo
    n = len(s.players)
    a_inc = [0.0] * n
    d_inc = [0.0] * n
    a_reg = [0] * n
    a_tok = [0] * n
    g_tok = [0] * n
    exposed = [0.0] * n
    active_race = [seat.active.race if seat.active else None for seat in s.seats]
    for r, a in enumerate(s.areas):
        o = a.owner
        if o < 0 or a.race is None:
            continue
        if a.race == active_race[o]:
            h = s.seats[o].active
            assert h is not None  # the region's race is this seat's Active race
            a_inc[o] += traits.region_income(geo, r, h.race, h.power, True)
            a_reg[o] += 1
            a_tok[o] += a.tokens
        else:
            d_inc[o] += traits.region_income(geo, r, a.race, None, False)
            if traits.conquers_in_decline(a.race):
                g_tok[o] += a.tokens
        for m in geo.nbrs[r]:
            b = s.areas[m]
            if b.owner >= 0 and b.owner != o and not b.decline and not geo.water[m]:
                exposed[o] += 1.0
                break
    best_row = max((combo_value(c.race, c.power, 3) + c.coins - i
                    for i, c in enumerate(s.row)), default=0.0) / 3.0
    rows = []
    for i, seat in enumerate(s.seats):
        h = seat.active
        spare = 0
        if h is not None:
            a_inc[i] += traits.flat_income(h.power)
            spare = max(0, a_tok[i] + h.hand + h.survivors - a_reg[i])
        rows.append([1.0, a_inc[i], d_inc[i], float(spare), float(a_reg[i]),
                     1.0 if h is None else 0.0, exposed[i], best_row, float(g_tok[i])])
    return rows


@cache
def _weights() -> dict[int, dict[int, list[float]]]:
    raw = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    if tuple(raw["features"]) != FEATURES:
        raise ValueError(f"{WEIGHTS}: features {raw['features']} are not {FEATURES}")
    return {int(p): {int(t): w for t, w in table.items()} for p, table in raw["weights"].items()}


def predict(s: GameState) -> list[float]:
    """Expected final coins of every seat: coins now plus the model's coins to come."""
    coins = [float(seat.coins) for seat in s.seats]
    if s.finished:
        return coins
    table = _weights().get(len(s.players))
    if table is None:
        return coins
    out = []
    for i, x in enumerate(features(s)):
        t = turns_left(s, i)
        w = table.get(t) or table[max(table)]
        out.append(coins[i] + (sum(a * b for a, b in zip(w, x, strict=True)) if t > 0 else 0.0))
    return out
