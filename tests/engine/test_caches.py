"""What the engine keeps to go faster gives the same answers as working it out afresh.

The conquest candidates, the per-state counts, the kits of hooks, the cached actions of a
listing and the board's precomputed facts, each checked against a direct computation on
seeded random games (and a power registered over a name, for the kits)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

import engine
from engine import data
from engine.ability import (
    POWER_RULES,
    RACE_RULES,
    Ability,
    Power,
    Race,
    kit_of,
    register_power,
)
from engine.actions import parse_action
from engine.checks import T_OK, candidates, cost_at, reach, target_code
from engine.geo import Geo, Income
from engine.queries import in_tray, n_pieces, race_regions

NAMES = ["ann", "bob", "cid", "dee", "eve"]
BOARDS = {"official-2p": 2, "official-3p": 3, "official-4p": 4, "official-5p": 5}


def _positions(games: int = 6) -> Iterator[engine.GameState]:
    """Every position of seeded random games on every board."""
    for board, n in BOARDS.items():
        for seed in range(games):
            rnd = random.Random(seed)
            s = engine.new_game(board, NAMES[:n], seed)
            while not s.finished:
                yield s
                s = engine.apply(s, rnd.choice(engine.legal_actions(s))).state


def _conquerors(s: engine.GameState) -> Iterator[tuple[int, engine.state.Hold, bool]]:
    me = s.current
    seat = s.seats[me]
    if seat.active is not None:
        yield me, seat.active, True
    for h in seat.declines:
        yield me, h, False


def test_candidates_hold_every_region_target_code_allows() -> None:
    """The listing checks only the candidates: none it leaves out may be attacked."""
    checked = 0
    for s in _positions():
        if s.stage is not engine.Stage.CONQUEST:
            continue
        for me, hold, active in _conquerors(s):
            r = reach(s, me, hold, active)
            allowed = {rid for rid in range(s.geo.n) if target_code(s, rid, r) == T_OK}
            cands = candidates(s, r)
            assert cands == sorted(set(cands)), "candidates are in id order, once each"
            assert allowed <= set(cands), (s.board.id, hold.race, allowed - set(cands))
            checked += 1
    assert checked > 500


def test_target_code_refuses_regions_off_the_board() -> None:
    s = next(x for x in _positions(1) if x.stage is engine.Stage.CONQUEST)
    r = reach(s, s.current, s.seats[s.current].active, True)
    for rid in (-1, s.geo.n, s.geo.n + 7):
        assert target_code(s, rid, r) != T_OK


def test_conquest_costs_match_a_count_from_the_rules() -> None:
    """cost_at against the rule written out: 2 + mountain + tokens + Lost Tribe + defence
    pieces, less the reductions, at least 1 (no race here reduces by what it holds)."""
    defence = {"troll_lair", "fortress", "encampment"}
    checked = 0
    for s in _positions(3):
        if s.stage is not engine.Stage.CONQUEST:
            continue
        me = s.current
        h = s.seats[me].active
        if h is None or h.race in ("Giants", "Tritons"):
            continue
        r = reach(s, me, h, True)
        power = engine.power_rule(h.power)
        for rid in range(s.geo.n):
            a = s.areas[rid]
            want = (2 + (s.geo.terrain[rid] == "mountain") + a.tokens + a.lost_tribe
                    + sum(p in defence for p in a.pieces) - power.cost_reduction(s.geo, rid))
            assert cost_at(s, rid, r) == max(1, want)
            checked += 1
    assert checked > 1000


def _fresh_counts(s: engine.GameState) -> tuple[Counter, Counter]:
    """Pieces on the map, and each race's tokens out of the box, counted afresh."""
    pieces = Counter(p for a in s.areas for p in a.pieces)
    used: Counter = Counter()
    for a in s.areas:
        if a.race is not None:
            used[a.race] += a.tokens
    for seat in s.seats:
        for h in (seat.active, *seat.declines):
            if h is not None:
                used[h.race] += h.hand + h.survivors
    return pieces, used


def test_counts_kept_on_a_state_match_a_fresh_count() -> None:
    boxes = {name: RACE_RULES[name].box for name in data.RACES}
    for s in _positions(3):
        pieces, used = _fresh_counts(s)
        for piece in data.PIECES:
            assert n_pieces(s, piece) == pieces[piece]
        for race in data.RACES:
            assert in_tray(s, race) == boxes[race] - used[race]


def test_a_fork_being_written_does_not_read_its_parents_counts() -> None:
    s = engine.load_scenario({
        "board": "official-2p", "players": ["ann", "bob"],
        "seats": {"ann": {"active": {"race": "Trolls", "power": "Hill", "hand": 3}}},
        "regions": {"3": {"owner": "ann", "race": "Trolls", "tokens": 2,
                          "pieces": ["troll_lair"]}},
    })
    box = RACE_RULES["Trolls"].box
    before = in_tray(s, "Trolls")
    assert n_pieces(s, "troll_lair") == 1 and n_pieces(s, "fortress") == 0
    assert before == box - _fresh_counts(s)[1]["Trolls"]
    f = s.fork()
    a = f.area_w(3)
    a.pieces = ("fortress", "troll_lair")
    a.tokens += 2
    assert n_pieces(f, "fortress") == 1 and in_tray(f, "Trolls") == before - 2
    new = f.seal()
    assert n_pieces(new, "fortress") == 1 and in_tray(new, "Trolls") == before - 2
    assert n_pieces(s, "fortress") == 0 and in_tray(s, "Trolls") == before


def _overrides(ab: Ability, hook: str) -> bool:
    base = Race if isinstance(ab, Race) else Power
    return getattr(type(ab), hook) is not getattr(base, hook)


@pytest.mark.parametrize("race", data.RACES)
def test_a_kit_lists_exactly_the_hooks_its_race_and_power_override(race: str) -> None:
    for power in (None, *data.POWERS):
        kit = kit_of(engine.state.Hold(race, power))
        abilities = [RACE_RULES[race]] + ([] if power is None else [POWER_RULES[power]])
        assert list(kit.abilities) == abilities
        for hook in ("before_conquests", "conquests", "redeploy_actions", "on_conquer",
                     "on_conquests_end", "on_turn_end"):
            assert list(getattr(kit, hook)) == [ab for ab in abilities if _overrides(ab, hook)]
        assert kit.scores == any(_overrides(ab, "income") for ab in abilities)
        assert kit.pieces == {ab.piece: ab for ab in reversed(abilities) if ab.piece}


def _echo(coins: int) -> type[Power]:
    class Echo(Power):
        name = "Echo"

        @property
        def tokens(self) -> int:
            return 3

        def income(self, ctx: Income) -> int:
            return coins

    return Echo


def test_a_kit_kept_on_a_hold_follows_a_power_registered_over_its_name() -> None:
    """A test may register a power, drop it and register another under the same name:
    a hold that kept the first one's kit must not play the first one's rule."""
    try:
        register_power(_echo(1))
        s = engine.load_scenario({
            "board": "official-2p", "players": ["ann", "bob"],
            "seats": {"ann": {"active": {"race": "Ratmen", "power": "Echo", "hand": 4}}},
            "regions": {"16": {"owner": "ann", "race": "Ratmen", "tokens": 1}},
        })
        scored = [e for e in engine.apply(s, engine.End(player="ann")).events
                  if e["type"] == "scored"]
        assert scored[0]["breakdown"]["power"] == 1
        assert s.seats[0].active.kit is not None  # kept on the hold
        POWER_RULES.pop("Echo")
        register_power(_echo(5))
        scored = [e for e in engine.apply(s, engine.End(player="ann")).events
                  if e["type"] == "scored"]
        assert scored[0]["breakdown"]["power"] == 5
    finally:
        POWER_RULES.pop("Echo", None)


def test_the_kit_is_not_part_of_the_state() -> None:
    s = next(x for i, x in enumerate(_positions(1)) if i == 40)
    for seat in s.seats:
        if seat.active is not None:
            kit_of(seat.active)
    back = engine.load_state(engine.dump_state(s))
    assert back == s
    assert engine.dump_state(back) == engine.dump_state(s)


def test_listed_actions_are_the_actions_they_read_as() -> None:
    """The cached actions of a listing equal the same line parsed afresh, counts included,
    whatever order the runs grew in."""
    seen = 0
    for s in _positions(2):
        for a in engine.legal_actions(s):
            assert parse_action(a.model_dump(mode="json")) == a
            seen += 1
    assert seen > 10_000


def test_geo_facts_match_the_board() -> None:
    for board_id in data.BOARD_IDS:
        b = data.board(board_id)
        g = Geo.of(b)
        water = [r.is_water for r in b.regions]
        assert g.ids == tuple(range(len(b.regions)))
        assert g.land == tuple(r.id for r in b.regions if not water[r.id])
        assert g.entries == tuple(r.id for r in b.regions if r.entry)
        assert g.land_entries == tuple(x for x in g.entries if not water[x])
        assert g.waters == frozenset(r.id for r in b.regions if water[r.id])
        for r in b.regions:
            assert g.mountain_nbrs[r.id] == {n for n in r.neighbours
                                             if b.regions[n].terrain == "mountain"}


def test_race_regions_kept_on_states_match_a_scan() -> None:
    for s in _positions(3):
        for race in data.RACES:
            assert race_regions(s, race) == tuple(i for i, a in enumerate(s.areas)
                                                  if a.race == race)
