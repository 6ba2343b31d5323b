"""Public sentences never carry coins; turn panels carry game id + version in custom_ids."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from bot import rules_text, text
from bot.chat.views import (
    ActionButton,
    ActionSelect,
    LobbyButton,
    LobbySelect,
    lobby_view,
    turn_view,
)
from bot.game.service import GameService
from bot.store import open_store

CH = 7


def test_describe_hides_private_events() -> None:
    events = [
        {"type": "conquered", "player": "ann", "region": 4, "race": "Orcs", "tokens": 3,
         "defender": "bob", "defender_race": "Elves", "lost": 0},
        {"type": "scored", "player": "ann", "income": 4321, "coins": 98765, "private": True},
        {"type": "turn_ended", "player": "ann", "round": 2},
    ]
    lines = text.describe_events(engine.public_events(events))
    joined = "\n".join(lines)
    assert "98765" not in joined and "4321" not in joined
    assert "region 4" in joined and "**bob**'s Elves" in joined and "3 tokens" in joined
    assert text.describe_private(events[1]) == (
        "This turn you scored **4321** coins; you now have **98765**.")


def test_unknown_event_fallback_drops_coin_fields() -> None:
    line = text.describe_event({"type": "new_thing", "player": "ann", "coins": 55,
                                "income": 9, "region": 3})
    assert line is not None and "55" not in line and "region 3" in line


def test_lost_tribe_and_die_lines() -> None:
    lt = text.describe_event({"type": "conquered", "player": "ann", "region": 2,
                              "race": "Orcs", "tokens": 3, "defender": None,
                              "defender_race": "Lost Tribe", "lost": 1})
    assert lt == "**ann**'s Orcs conquer region 2 from a Lost Tribe using 3 tokens."
    rolled = text.describe_event({"type": "rolled", "player": "ann", "value": 2,
                                  "for": "reinforce"})
    assert "**2**" in rolled and "final conquest" in rolled


def test_ranking_lines_reveal_totals_and_tie_break() -> None:
    ranking = [{"player": "bob", "total": 40, "tokens": 12, "rank": 1},
               {"player": "ann", "total": 40, "tokens": 9, "rank": 2}]
    lines = text.ranking_lines(ranking, {})
    assert lines[1] == "1. **bob** — 40 coins · 12 tokens on the map (tie-break)"
    assert lines[2].startswith("2. **ann** — 40 coins")
    assert "tie" in lines[-1]


def test_rules_text_covers_every_race_and_power() -> None:
    rules_text.check_complete()
    assert "Orcs" in rules_text.lookup(race="orcs")
    assert "+4 tokens" in rules_text.lookup(power="Flying") or "Flying" in rules_text.lookup(
        power="Flying")
    assert "no race called" in rules_text.lookup(race="Gnolls")
    assert "die" in rules_text.lookup(topic="die")


@pytest.fixture
async def service(tmp_path: Path):
    store = await open_store(str(tmp_path / "v.db"))
    svc = GameService(store, rng=random.Random(1))
    await svc.open_lobby(guild_id=1, channel_id=CH, user_id=1, name="ann", players=2, seed=5)
    await svc.join(CH, 2, "bob")
    yield svc
    await store.close()


def _ids(view) -> list[str]:
    return [item.custom_id for item in view.children]


async def test_lobby_view_ids(service: GameService) -> None:
    game = await service.lobby(CH)
    ids = _ids(lobby_view(game))
    assert ids == [f"sw:l:{game.id}:join", f"sw:l:{game.id}:leave", f"sw:l:{game.id}:start",
                   f"sw:la:{game.id}", f"sw:lc:{game.id}"]
    for cid in ids[:3]:
        assert LobbyButton.__discord_ui_compiled_template__.fullmatch(cid)
    for cid in ids[3:]:
        assert LobbySelect.__discord_ui_compiled_template__.fullmatch(cid)


async def test_turn_view_carries_version_and_legal_actions(service: GameService) -> None:
    out = await service.start(CH, 1)
    panel = await service.panel(CH)
    view = turn_view(panel)
    ids = _ids(view)
    assert f"sw:s:{out.game.id}:0:p" in ids and f"sw:b:{out.game.id}:0:map" in ids
    pick_menu = next(i for i in view.children if i.custom_id.endswith(":p"))
    assert len(pick_menu.item.options) == 6  # all six, affordability is not shown publicly
    await service.act(CH, out.actor_id, json.loads(pick_menu.item.options[0].value))
    panel = await service.panel(CH)
    view = turn_view(panel)
    assert all(f":{out.game.id}:1:" in cid for cid in _ids(view))
    legal = [a.model_dump(mode="json") for a in await service.legal(CH, out.actor_id)]
    for item in view.children:
        cid = item.custom_id
        if cid.startswith("sw:s:"):
            assert ActionSelect.__discord_ui_compiled_template__.fullmatch(cid)
            for opt in item.item.options:
                assert len(opt.value) <= 100 and len(opt.label) <= 100
                action = json.loads(opt.value) | {"player": out.actor}
                assert action in legal
        else:
            assert ActionButton.__discord_ui_compiled_template__.fullmatch(cid)
    buttons = {m["verb"]: m["arg"] for cid in _ids(view)
               if (m := ActionButton.__discord_ui_compiled_template__.fullmatch(cid))}
    # End with tokens in hand asks first: the button says so, with who may answer and the
    # tokens in hand, so a click asks without loading the game
    assert buttons["endask"] == f"{out.actor_id}.{panel.hand}" and panel.hand > 0
    assert len(view.children) <= 25


async def test_pick_menu_notes_speak_the_panels_language(service: GameService) -> None:
    await service.start(CH, 1)
    panel = await service.panel(CH)
    for lang in ("hu", "th"):
        menu = next(i for i in turn_view(panel, lang).children if i.custom_id.endswith(":p"))
        for combo, opt in zip(panel.picks, menu.item.options, strict=True):
            assert opt.description == rules_text.short(combo.race, combo.power, lang)
            assert opt.description != rules_text.short(combo.race, combo.power, "en")
