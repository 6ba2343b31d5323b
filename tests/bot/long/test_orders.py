"""Standing orders: a member says in advance how her survivors are placed when she is
attacked, so the attacker's turn does not wait for her. The orders apply in the attacker's
own unit of work, and the defender is told privately, by a DM written to the outbox with the
placement, what was done."""

from __future__ import annotations

import random

import pytest
from long_scenarios import spec, start_scenario

import engine
from bot.game.moves import dump, order_placement
from bot.game.service import GameService
from bot.store import Store

CH = 810
ANN, BOB = 11, 22


def placed_by(order: str) -> list[tuple[int, int]]:
    """Where bob's two survivors go by `order`, deploy by deploy (the engine only)."""
    state = engine.load_scenario(spec())
    for action in ({"do": "conquer", "region": 7}, {"do": "end"}):
        state = engine.apply(state, engine.parse_action({**action, "player": "ann"})).state
    assert state.actor == "bob"
    moves = []
    while state.actor == "bob" and str(state.stage.value) == "survivors":
        action = order_placement(state, order)
        assert action is not None
        moves.append((dump(action)["region"], dump(action)["count"]))
        state = engine.apply(state, action).state
    return moves


def test_each_order_places_as_it_says() -> None:
    # bob's Ratmen: region 5 holds 4, regions 10 and 12 one each (and are neighbours)
    assert placed_by("strongest") == [(5, 2)]
    assert placed_by("spread") == [(10, 1), (12, 1)]  # one by one, each on the weakest
    assert placed_by("keep-together") == [(10, 2)]  # the heart: 10 and 12 touch each other
    state = engine.load_scenario(spec())
    assert order_placement(state, "ask") is None and order_placement(state, "strongest") is None


@pytest.mark.parametrize("order", ["strongest", "spread", "keep-together"])
async def test_orders_apply_in_the_attackers_turn_and_tell_the_defender(
        store: Store, order: str) -> None:
    service = GameService(store, rng=random.Random(0))
    await store.set_orders(BOB, order)
    await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=CH)
    await service.act(CH, ANN, {"do": "conquer", "region": 7})
    out = await service.act(CH, ANN, {"do": "end"})
    # the attacker's End came back with bob's turn begun: his survivors went down at once
    assert out.actor == "bob" and out.turn_started
    rows = await store.actions(out.game.id)
    placed = [(r.action["region"], r.action["count"]) for r in rows
              if r.action["do"] == "deploy" and r.player == "bob"]
    assert placed == placed_by(order)
    assert all(r.actor_id is None for r in rows if r.player == "bob")
    # one private line for bob, in the outbox with the action that finished the placement
    owed = [dm for dm in await store.owed_dms(out.game.id) if dm.user_id == BOB]
    assert len(owed) == 1 and owed[0].lines[0].startswith("🛡️ Your standing orders")
    where = ", ".join(f"{n} on region {r}" for r, n in placed_by(order)) if order != "spread" \
        else "1 on region 10, 1 on region 12"
    assert where in owed[0].lines[0] and "2 surviving tokens" in owed[0].lines[0]
    assert not any(dm.user_id == ANN and "standing orders" in " ".join(dm.lines)
                   for dm in await store.owed_dms(out.game.id))


async def test_ask_leaves_the_placement_to_her(store: Store) -> None:
    service = GameService(store, rng=random.Random(0))
    await store.set_orders(BOB, "ask")
    await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=CH)
    await service.act(CH, ANN, {"do": "conquer", "region": 7})
    out = await service.act(CH, ANN, {"do": "end"})
    assert out.actor == "bob" and not out.turn_started  # he places them himself
    assert (await service.panel(CH)).is_defender
