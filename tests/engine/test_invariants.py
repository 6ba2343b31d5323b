"""Seeded random games on every board, checking invariants after every step: the engine's own
state (box limits RULES.md §1.2, piece counts §1.1, token conservation, banners), what the
public observation shows (rounds §4, Lost Tribes §3.7, water only for Seafaring §11.15), the
end of the game and its ranking (§9), and the engine contract (legal iff applies, refusals as
data, dump/load, replay, no coins in public)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import engine
from engine import data
from engine.actions import (
    Abandon,
    Ally,
    Conquer,
    Decline,
    Deploy,
    Dragon,
    Enchant,
    End,
    Move,
    Pick,
    Place,
    Reinforce,
    Roll,
)
from engine.errors import MESSAGES, format_english
from engine.events import parse_event

NAMES = ["ann", "bob", "cid", "dee", "eve"]
BOARDS = {"official-2p": 2, "official-3p": 3, "official-4p": 4, "official-5p": 5}
GAMES_PER_BOARD = 50


def _keys(obj) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            out |= _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= _keys(v)
    return out


def _race_totals(s) -> Counter:
    """Tokens of each race in play: on the board plus in hands."""
    c: Counter = Counter()
    for a in s.areas:
        if a.race is not None:
            c[a.race] += a.tokens
    for seat in s.seats:
        for h in (seat.active, *seat.declines):
            if h is not None:
                c[h.race] += h.hand + h.survivors
    return c


def _check_static(s) -> None:
    """Counts are never negative and every race stays within its box."""
    races = data.races()
    totals = _race_totals(s)
    for race, n in totals.items():
        assert 0 <= n <= races[race].box, (race, n)
    owners: dict[str, int] = {}
    for i, a in enumerate(s.areas):
        assert a.tokens >= 0
        if a.race is not None:
            assert a.tokens >= 1, i
            assert not a.lost_tribe
            assert owners.setdefault(a.race, a.owner) == a.owner, "one race, one owner"
        else:
            assert a.tokens == 0 and a.owner == -1
        if s.geo.water[i]:
            assert not a.lost_tribe
    lim = data.components().pieces
    for piece, limit in lim.items():
        assert sum(a.pieces.count(piece) for a in s.areas) <= limit, piece
    for a in s.areas:
        assert a.pieces.count("fortress") <= 1
        assert a.pieces.count("hero") <= 1
    for seat in s.seats:
        assert seat.coins >= 0
        holds = [h for h in (seat.active, *seat.declines) if h is not None]
        for h in holds:
            assert h.hand >= 0 and h.survivors >= 0
        assert sum(1 for h in seat.declines
                   if not (h.power and engine.power_rule(h.power).extra_decline())) <= 1
    # every banner is somewhere exactly once: row, stack, or a player
    seen = [c.race for c in s.row] + list(s.banners)
    for seat in s.seats:
        seen += [h.race for h in (seat.active, *seat.declines) if h is not None]
    assert sorted(seen) == sorted(data.RACES)
    assert len(s.row) <= 6


def _check_conservation(before, after, events) -> None:
    """Tokens appear only by picks, Skeleton bonus and conversions; vanish only by losses."""
    b, a = _race_totals(before), _race_totals(after)
    if any(e["type"] in ("declined", "vanished") for e in events):
        for e in events:
            if e["type"] == "declined":
                race = e["race"]
                seat = next(x for x in after.seats if x.name == e["player"])
                assert all(h.race != race or h.hand == 0 for h in seat.declines)
        return
    expected = Counter(b)
    for e in events:
        t = e["type"]
        if t == "picked" or t == "bonus_tokens":
            expected[e["race"]] += e["tokens"]
        elif t == "conquered":
            if e.get("by") == "enchant":
                expected[e["race"]] += 1
            if e["defender_race"] not in (None, "Lost Tribe"):
                expected[e["defender_race"]] -= e["lost"]
    for race in set(expected) | set(a):
        assert a[race] == expected[race], (race, a[race], expected[race], events)


def _check_observed(s, rounds: int, lost_before: int) -> tuple[int, tuple]:
    """What the public observation shows; returns the number of Lost Tribes left (they only
    ever disappear) and whose turn of which round it is."""
    o = engine.observe(s, None)
    assert 1 <= o["round"] <= rounds
    lost = 0
    for rid, reg in o["regions"].items():
        if reg.get("lost_tribe"):
            lost += 1
            assert not reg.get("owner"), rid
        owner = reg.get("owner")
        if owner:
            assert owner in s.players
            assert reg.get("tokens", 0) >= 1 or reg.get("race") is None, (rid, reg)
    for region in s.board.regions:
        rid = str(region.id)
        reg = o["regions"].get(rid) or {}
        if region.is_water and reg.get("owner"):  # §11.15: only Seafaring races hold water
            seat = o["players"][reg["owner"]]
            combos = [seat.get("active") or {}] + list(seat.get("decline") or [])
            powers = {c.get("power") for c in combos if c.get("race") == reg["race"]}
            assert "Seafaring" in powers, (rid, reg, combos)
    assert lost <= lost_before
    return lost, (o["round"], o["current"])


def _random_action(rnd: random.Random, s) -> object:
    """A random well-formed action from the whole action space."""
    n = s.geo.n
    p = rnd.choice(list(s.players)) if rnd.random() < 0.3 else s.actor
    r = rnd.randrange(n + 1)
    kind = rnd.randrange(13)
    c = rnd.randrange(1, 6)
    return [
        lambda: Pick(player=p, slot=rnd.randrange(6)),
        lambda: Abandon(player=p, region=r),
        lambda: Conquer(player=p, region=r, race=rnd.choice([None, "decline"])),
        lambda: Reinforce(player=p, region=r),
        lambda: Roll(player=p),
        lambda: Decline(player=p),
        lambda: Deploy(player=p, region=r, count=c),
        lambda: Move(player=p, from_=r, to=rnd.randrange(n), count=c),
        lambda: Enchant(player=p, region=r),
        lambda: Dragon(player=p, region=r),
        lambda: Place(player=p, piece=rnd.choice(["fortress", "encampment", "hero"]), region=r),
        lambda: Ally(player=p, target=rnd.choice(list(s.players))),
        lambda: End(player=p),
    ][kind]()


def _dump(a) -> str:
    return json.dumps(a.model_dump(mode="json"), sort_keys=True)


QUIET = frozenset({"deploy", "move", "place", "ally", "end"})


def choose(rnd: random.Random, legal: list, aggressive: bool):
    """Uniform, or (aggressive) preferring conquests and powers over redeployment."""
    if aggressive and rnd.random() < 0.8:
        loud = [a for a in legal if a.do not in QUIET]
        if loud:
            return rnd.choice(loud)
    return rnd.choice(legal)


PREFERENCE = ("pick", "conquer", "enchant", "dragon", "reinforce", "roll", "deploy", "place",
              "ally", "abandon", "decline", "move", "end")
WEIGHTS = {"conquer": 8, "enchant": 3, "dragon": 3, "reinforce": 1, "roll": 1, "deploy": 4,
           "place": 2, "ally": 1, "abandon": 0.2, "decline": 0.6, "move": 0.5, "end": 2}


def weighted(rnd: random.Random, legal: list, turn_steps: int):
    """A verb by weight (a pick whenever one is offered), then one of its actions; a turn
    past 40 steps ends."""
    by_verb: dict[str, list] = {}
    for a in legal:
        by_verb.setdefault(a.do, []).append(a)
    if turn_steps > 40 and "end" in by_verb:
        return by_verb["end"][0]
    if "pick" in by_verb:
        return rnd.choice(by_verb["pick"])
    verbs = [v for v in PREFERENCE if v in by_verb]
    verbs += [v for v in by_verb if v not in PREFERENCE]
    verb = rnd.choices(verbs, weights=[WEIGHTS.get(v, 1) for v in verbs])[0]
    return rnd.choice(by_verb[verb])


def play(board: str, seed: int, *, thorough: bool, aggressive: bool = False,
         seen: Counter | None = None, policy=None) -> tuple:
    """One whole game; `policy(rnd, legal, turn_steps)` picks the actions (default: choose)."""
    players = NAMES[: BOARDS[board]]
    rnd = random.Random(seed) if policy else random.Random(seed * 7919 + 1)
    s = engine.new_game(board, players, seed)
    start = s
    log = []
    rounds_seen = set()
    lost, turn = _check_observed(s, s.board.rounds, 10**6)
    turn_steps = 0
    while not s.finished:
        legal = engine.legal_actions(s)
        assert legal, f"no legal action in stage {s.stage}"
        assert all(a.player == s.actor for a in legal)
        texts = {_dump(a) for a in legal}
        assert len(texts) == len(legal), "duplicate legal actions"
        before_key = s.key()
        if thorough:
            for a in legal:
                engine.apply(s, a)  # every listed action applies
            for _ in range(6):
                a = _random_action(rnd, s)
                if _dump(a) in texts:
                    continue
                with pytest.raises(engine.RulesViolation) as refused:
                    engine.apply(s, a)
                err = refused.value  # every refusal is data: a known sentence + its params
                assert err.message == format_english(MESSAGES[err.key], err.params)
            assert s.key() == before_key, "apply mutated its input"
        action = policy(rnd, legal, turn_steps) if policy else choose(rnd, legal, aggressive)
        parsed = engine.parse_action(action.model_dump(mode="json"))
        assert parsed == action
        step = engine.apply(s, action)
        assert s.key() == before_key, "apply mutated its input"
        _check_conservation(s, step.state, step.events)
        s = step.state
        log.append(action)
        assert s.version == len(log)
        _check_static(s)
        lost, now = _check_observed(s, s.board.rounds, lost)
        turn_steps = 0 if now != turn else turn_steps + 1
        turn = now
        for e in step.events:
            assert parse_event(e).as_dict() == e, "event does not fit its typed model"
            if e["type"] == "turn_ended":
                rounds_seen.add(e["round"])
            if seen is not None:
                seen[e["type"]] += 1
                if e["type"] == "picked":
                    seen["race:" + e["race"]] += 1
                    seen["power:" + e["power"]] += 1
                if e["type"] == "conquered":
                    seen["conquered:" + e.get("by", "in_decline" if e.get("in_decline") else "")] += 1
        if thorough:
            d = engine.dump_state(s)
            assert engine.load_state(json.loads(json.dumps(d))) == s
            pub = engine.observe(s, None)
            assert "coins" not in _keys(pub)
            assert "coins" not in _keys(engine.public_events(step.events))
            me = engine.observe(s, s.players[0])
            assert "coins" in me["players"][s.players[0]]
            assert all("coins" not in v for k, v in me["players"].items() if k != s.players[0])
        assert len(log) < 5000, "game does not end"
    assert rounds_seen == set(range(1, s.board.rounds + 1))
    assert s.round == s.board.rounds
    assert s.ranking is not None and len(s.ranking) == len(players)
    ranks = [r["rank"] for r in s.ranking]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    totals = [(r["total"], r["tokens"]) for r in s.ranking]
    assert totals == sorted(totals, reverse=True)
    assert s.winners == tuple(r["player"] for r in s.ranking if r["rank"] == 1)
    assert engine.legal_actions(s) == []
    # §9: the ranking follows the coins each player holds at the end
    final = {p: engine.observe(s, p)["players"][p]["coins"] for p in players}
    assert sorted(r["player"] for r in s.ranking) == sorted(players)
    assert final[s.ranking[0]["player"]] == max(final.values())
    assert [final[r["player"]] for r in s.ranking] == sorted(final.values(), reverse=True)
    replay = start
    for a in log:
        replay = engine.apply(replay, a).state
    assert replay == s
    again = engine.new_game(board, players, seed)
    assert again == start
    return s, log


@pytest.mark.parametrize("board", list(BOARDS))
def test_random_games_keep_invariants(board: str) -> None:
    """Many seeded uniformly-random games: every step keeps the invariants, each game ends."""
    lengths = []
    seen: Counter = Counter()
    for seed in range(GAMES_PER_BOARD):
        s, log = play(board, seed, thorough=seed < 3 or seed == GAMES_PER_BOARD - 1,
                      aggressive=seed % 2 == 1, seen=seen)
        lengths.append(len(log))
    assert min(lengths) > 20
    # the games went through the special mechanics, not only plain conquests
    for kind in ("conquered:", "conquered:reinforce", "conquered:dragon", "conquered:enchant",
                 "declined", "vanished", "reinforce_failed", "must_place", "abandoned",
                 "allied", "placed", "rolled"):
        assert seen[kind] > 0, kind
    for race in data.RACES:
        assert seen["race:" + race] > 0, race
    for power in data.POWERS:
        assert seen["power:" + power] > 0, power


@pytest.mark.parametrize(("board", "seed"), [
    (board, seed) for seed, board in enumerate(list(BOARDS) * 6, start=1)
])
def test_random_game_keeps_the_invariants(board: str, seed: int) -> None:
    """Games of a weighted random policy (conquests first, turns capped at 40 steps)."""
    s, log = play(board, seed, thorough=False, policy=weighted)
    assert s.finished and log


def test_same_seed_same_game_different_seed_differs() -> None:
    a = engine.new_game("official-3p", NAMES[:3], 5)
    b = engine.new_game("official-3p", NAMES[:3], 5)
    c = engine.new_game("official-3p", NAMES[:3], 6)
    assert a == b
    assert [x.race for x in a.row] != [x.race for x in c.row] or a.banners != c.banners
