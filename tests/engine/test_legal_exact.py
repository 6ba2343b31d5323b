"""legal_actions is exact: over the whole action space, an action applies iff it is listed."""

from __future__ import annotations

import json
import random

import pytest

import engine
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


def action_space(s, player: str):
    n = s.geo.n
    regions = range(n + 1)  # n is off the board
    hands = [h.hand + h.survivors for seat in s.seats
             for h in (seat.active, *seat.declines) if h is not None]
    top = max(hands + [p.tokens for p in s.pending] + [1]) + 1
    yield Roll(player=player)
    yield Decline(player=player)
    yield End(player=player)
    for slot in range(6):
        yield Pick(player=player, slot=slot)
    for r in regions:
        yield Abandon(player=player, region=r)
        yield Enchant(player=player, region=r)
        yield Dragon(player=player, region=r)
        for race in (None, "decline"):
            yield Conquer(player=player, region=r, race=race)
            yield Reinforce(player=player, region=r, race=race)
        for c in range(1, top + 1):
            yield Deploy(player=player, region=r, count=c)
        for piece in ("fortress", "encampment", "hero", "troll_lair"):
            yield Place(player=player, piece=piece, region=r)
    for f in range(n):
        most = s.areas[f].tokens + 1
        for t in range(n):
            for c in range(1, most + 1):
                yield Move(player=player, from_=f, to=t, count=c)
    for target in (*s.players, "zed"):
        yield Ally(player=player, target=target)


def _key(a) -> str:
    return json.dumps(a.model_dump(mode="json"), sort_keys=True)


QUIET = frozenset({"deploy", "move", "place", "ally", "end"})


@pytest.mark.parametrize(("board", "players", "seed", "aggressive"), [
    ("official-2p", ["ann", "bob"], 1, False),
    ("official-2p", ["ann", "bob"], 2, True),
    ("official-2p", ["ann", "bob"], 5, True),
    ("official-3p", ["ann", "bob", "cid"], 3, True),
])
def test_listed_iff_applies(board: str, players: list[str], seed: int, aggressive: bool) -> None:
    s = engine.new_game(board, players, seed)
    rnd = random.Random(seed)
    steps = 0
    while not s.finished:
        legal = engine.legal_actions(s)
        listed = {_key(a) for a in legal}
        before = s.key()
        applied = set()
        for a in action_space(s, s.actor):
            try:
                engine.apply(s, a)
            except engine.RulesViolation:
                continue
            applied.add(_key(a))
        assert applied == listed, (s.stage, sorted(applied ^ listed)[:5])
        other = rnd.choice([p for p in players if p != s.actor])
        with pytest.raises(engine.RulesViolation) as info:
            engine.apply(s, End(player=other))
        assert info.value.code == "not_your_turn"
        assert s.key() == before
        loud = [a for a in legal if a.do not in QUIET]
        pick = rnd.choice(loud) if aggressive and loud and rnd.random() < 0.8 else rnd.choice(legal)
        s = engine.apply(s, pick).state
        steps += 1
    assert steps > 20
