"""The turn panel's menus (bot/chat/views.py turn_view): the pick menu explains each combo, the
In Decline Ghouls get a menu of their own, and a cut menu says where the rest is."""

from __future__ import annotations

from pathlib import Path

import pytest
from game_setup import ANN, CH, started

from bot.chat.views import MAX_OPTIONS, turn_view
from bot.game.panel import Panel, Target
from bot.game.service import GameService
from bot.store import open_store


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only (the shared `service` fixture runs on it)."""
    s = await open_store(str(tmp_path / "ux.db"))
    yield s
    await s.close()


def _panel(targets: list[Target]) -> Panel:
    return Panel(game_id=1, version=3, actor="ann", actor_id=ANN, stage="conquest", picks=(),
                 targets=tuple(targets), deploys=(), powers=(), abandons=(), can_roll=False,
                 can_decline=True, can_end=True, can_undo=False, is_defender=False)


def test_ghouls_have_their_own_menu_and_a_cut_menu_says_where_the_rest_is() -> None:
    active = [Target(r, "conquer", 2, "Hill", "empty", {"do": "conquer", "region": r})
              for r in range(40)]
    ghouls = [Target(r, "conquer (in decline)", 2, "Hill", "empty",
                     {"do": "conquer", "region": r, "race": "decline"}) for r in range(3)]
    view = turn_view(_panel(active + ghouls))
    menus = {item.custom_id.rsplit(":", 1)[1]: item.item for item in view.children
             if item.custom_id.startswith("sw:s:")}
    assert set(menus) == {"c", "g"}
    regions = [o.value for o in menus["c"].options]
    assert len(regions) == MAX_OPTIONS == len(set(regions))  # each region once
    assert "25 of 40 shown" in menus["c"].placeholder and "/sw conquer" in menus["c"].placeholder
    assert len(menus["g"].options) == 3 and "shown" not in menus["g"].placeholder
    buttons = [item.item.label for item in view.children if item.custom_id.startswith("sw:b:")]
    assert "Decline…" in buttons  # the dots: it asks before it acts


async def test_pick_menu_says_what_each_combo_does(service: GameService) -> None:
    await started(service)
    view = turn_view(await service.panel(CH))
    pick = next(i.item for i in view.children if i.custom_id.endswith(":p"))
    assert [o.label.split(".")[0] for o in pick.options] == ["1", "2", "3", "4", "5", "6"]
    for opt in pick.options:
        assert opt.description and " · " in opt.description and "?" not in opt.description
