"""engine.legal_conquests: the conquests legal_actions lists, each with the tokens it takes."""

from __future__ import annotations

import random

import engine

VERBS = ("conquer", "reinforce", "dragon", "enchant")


def _dump(a) -> str:
    return repr(sorted(a.model_dump(mode="json").items()))


def test_costs_match_what_the_conquest_takes_in_random_games() -> None:
    checked = {"conquer": 0, "reinforce": 0, "in_decline": 0}
    for seed in range(12):
        rnd = random.Random(seed)
        s = engine.new_game("official-4p", ["a", "b", "c", "d"], seed)
        while not s.finished:
            legal = engine.legal_actions(s)
            options = engine.legal_conquests(s)
            assert sorted(_dump(o.action) for o in options) == sorted(
                _dump(a) for a in legal if a.do in VERBS)
            for o in rnd.sample(options, min(3, len(options))):
                if o.action.do == "conquer":
                    ev = [e for e in engine.apply(s, o.action).events if e["type"] == "conquered"]
                    assert ev[-1]["tokens"] == o.cost and ev[-1]["region"] == o.region
                    checked["conquer"] += 1
                    checked["in_decline"] += o.in_decline
                elif o.action.do == "reinforce":
                    seat = s.seats[s.current]
                    hold = next(h for h in (seat.active, *seat.declines)
                                if h is not None and (h is seat.active) != o.in_decline)
                    assert o.short == o.cost - hold.hand and 1 <= o.short <= 3
                    checked["reinforce"] += 1
            s = engine.apply(s, rnd.choice(legal)).state
    assert checked["conquer"] > 100 and checked["reinforce"] > 10, checked


def test_no_conquests_outside_the_conquest_stage() -> None:
    s = engine.new_game("official-2p", ["a", "b"], 1)
    assert s.stage is engine.Stage.PICK and engine.legal_conquests(s) == []
