"""A power defined only here, registered and played: no engine module knows it.

"Leapfrog" (not a Small World power) may conquer a region two steps away from one it holds,
across any region, and brings +3 coins at the end of each turn while Active. It uses three
hooks of engine.ability.Power: `reach` (where it may attack), `income`, and `tokens` (it has
no badge in data/)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import engine
from engine.ability import POWER_RULES, Power, Reach, register_power
from engine.geo import Geo, Income

HELD = 16  # a farmland of the 2-player board with plain land two steps away


class Leapfrog(Power):
    """Conquer two steps away; +3 coins per turn."""

    name = "Leapfrog"

    @property
    def tokens(self) -> int:
        return 3

    def reach(self, geo: Geo, r: Reach) -> None:
        two = set()
        for h in r.held:
            for n in geo.nbrs[h]:
                two |= geo.nbrs[n]
        r.links = r.links | frozenset(x for x in two if not geo.water[x])

    def income(self, ctx: Income) -> int:
        return 3


@pytest.fixture
def leapfrog() -> Iterator[None]:
    register_power(Leapfrog)
    try:
        yield
    finally:
        POWER_RULES.pop(Leapfrog.name)


def _far_land(board: engine.data.Board) -> int:
    """The lowest plain land region two steps from HELD and not next to it (cost 2)."""
    nbrs = {r.id: set(r.neighbours) for r in board.regions}
    two = set().union(*(nbrs[n] for n in nbrs[HELD])) - nbrs[HELD] - {HELD}
    return min(r for r in two if not board.regions[r].is_water
               and not board.regions[r].symbols and board.regions[r].terrain != "mountain")


def _state(power: str) -> engine.GameState:
    return engine.load_scenario({
        "board": "official-2p", "players": ["ann", "bob"], "seed": 1, "round": 2,
        "seats": {"ann": {"coins": 5, "active": {"race": "Ratmen", "power": power, "hand": 6}},
                  "bob": {"coins": 5}},
        "regions": {str(HELD): {"owner": "ann", "race": "Ratmen", "tokens": 1}},
    })


def test_a_power_registered_in_a_test_is_played(leapfrog: None) -> None:
    board = engine.data.board("official-2p")
    far = _far_land(board)
    s = _state("Leapfrog")
    listed = [a for a in engine.legal_actions(s) if a.do == "conquer"]
    assert any(a.region == far for a in listed)
    costs = {c.region: c.cost for c in engine.legal_conquests(s)}
    assert costs[far] == 2  # an empty land region: 2 tokens
    s = engine.apply(s, engine.Conquer(player="ann", region=far)).state
    assert engine.observe(s)["regions"][str(far)]["race"] == "Ratmen"
    step = engine.apply(s, engine.End(player="ann"))
    scored = next(e for e in step.events if e["type"] == "scored")
    assert scored["breakdown"] == {"regions": 2, "race": 0, "power": 3, "decline": 0}


def test_without_the_power_the_leap_is_refused(leapfrog: None) -> None:
    far = _far_land(engine.data.board("official-2p"))
    s = _state("Hill")
    assert not any(c.region == far for c in engine.legal_conquests(s))
    with pytest.raises(engine.RulesViolation) as info:
        engine.apply(s, engine.Conquer(player="ann", region=far))
    assert info.value.code == "not_adjacent"


def test_registering_a_taken_name_fails() -> None:
    class Clone(Power):
        name = "Berserk"

    with pytest.raises(ValueError, match="taken"):
        register_power(Clone)
