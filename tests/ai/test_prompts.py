"""Race and power prompts: the AI uses each special rule when it has it.

The heuristic (ai.policy, what every level's plans are made of) is held to the precise
use; the levels that search may weigh another target, but still use the rule."""

from __future__ import annotations

import random

import pytest
from aihelp import scenario

import engine
from ai import LEVELS, choose
from ai.policy import choose_action, make_ctx
from engine import data


def play_turn(s: engine.GameState, level: str = "normal") -> tuple[list, engine.GameState]:
    """ann's whole turn at `level` ("heuristic": ai.policy alone)."""
    acts = []
    while s.actor == "ann" and not s.finished:
        if level == "heuristic":
            a = choose_action(make_ctx(s, "normal", random.Random(1)))
        else:
            a = choose(s, level, 1)
        acts.append(a)
        s = engine.apply(s, a).state
    return acts, s


def test_sorcerers_enchant_the_lone_enemy_token_first():
    acts, _ = play_turn(scenario("Sorcerers", "Hill"))
    assert acts[0].do == "enchant" and acts[0].region == 17


def test_dragon_master_sends_the_dragon_where_it_saves_most():
    s = scenario("Ratmen", "Dragon Master")
    costs = {c.region: c.cost for c in engine.legal_conquests(s)
             if c.action.do in ("conquer", "reinforce")}
    acts, _ = play_turn(s, "heuristic")
    dragon = [a for a in acts if a.do == "dragon"]
    assert len(dragon) == 1 and costs[dragon[0].region] == max(costs.values())
    for level in ("normal", "hard"):
        acts, _ = play_turn(s, level)
        assert [a.do for a in acts].count("dragon") == 1, level


def test_the_ai_rolls_before_every_berserk_conquest():
    acts, _ = play_turn(scenario("Ratmen", "Berserk"))
    verbs = [a.do for a in acts]
    assert verbs.count("conquer") >= 2
    for i, v in enumerate(verbs):
        if v == "conquer":
            assert verbs[i - 1] == "roll"


@pytest.mark.parametrize(("power", "piece", "n"), [("Heroic", "hero", 2),
                                                   ("Fortified", "fortress", 1),
                                                   ("Bivouacking", "encampment", 5)])
def test_defensive_pieces_go_on_the_realm(power, piece, n):
    acts, s = play_turn(scenario("Ratmen", power))
    placed = [a for a in acts if a.do == "place"]
    assert placed and all(a.piece == piece for a in placed)
    on_map = sum(a.pieces.count(piece) for a in s.areas if a.race == "Ratmen")
    assert on_map == n
    if piece == "hero":
        assert len({a.region for a in placed}) == 2


def test_a_spent_race_declines_but_never_on_the_last_turn():
    """A race with no token to ready: easy and normal decline it (hard weighs it by
    playouts, and may try the die first); nobody declines on the last turn."""
    s = scenario("Ratmen", "Hill", hand=0, round_=3)
    last = scenario("Ratmen", "Hill", hand=0, round_=BASE_ROUNDS)
    for level in ("easy", "normal"):
        assert choose(s, level, 1).do == "decline"
    for level in LEVELS:
        assert choose(last, level, 1).do != "decline"
        for seed in range(3):
            assert choose(s, level, seed).do in ("decline", "reinforce", "conquer")


BASE_ROUNDS = data.board("official-2p").rounds


def test_every_prompt_comes_up_and_is_answered_in_self_play():
    """Over 30 three-player games of normal players, each race/power prompt is met and
    used: Ghouls conquering in decline, the Diplomat's ally, heroes, fortresses,
    encampments, the Dragon, enchantments, and defenders placing survivors."""
    seen: dict[str, int] = {}
    for seed in range(30):
        s = engine.new_game("official-3p", ["a", "b", "c"], seed)
        n = 0
        while not s.finished:
            a = choose(s, "normal", n)
            kind = a.do
            if a.do == "conquer" and a.race == "decline":
                kind = "ghoul_conquer"
            elif a.do == "place":
                kind = f"place_{a.piece}"
            if s.stage is engine.Stage.SURVIVORS:
                kind = "survivors"
            seen[kind] = seen.get(kind, 0) + 1
            s = engine.apply(s, a).state
            n += 1
    for kind in ("ghoul_conquer", "ally", "place_hero", "place_fortress", "place_encampment",
                 "dragon", "enchant", "survivors", "roll", "reinforce"):
        assert seen.get(kind, 0) > 0, (kind, seen)
