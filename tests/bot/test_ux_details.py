"""Player-facing details of issue #9: caps, wording, alt text, menus, the living message's
story, survivors placed by the bot when there is one way to go, member settings."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from bot import rules_text, text
from bot.chat.views import MAX_OPTIONS, turn_view
from bot.errors import RuleBroken
from bot.game.moves import only_placement as _only_placement
from bot.game.panel import Panel, Target
from bot.game.service import GameService
from bot.store import Store, open_store

CH = 4242
ANN, BOB, CID = 1, 2, 3


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only (the shared `service` fixture runs on it)."""
    s = await open_store(str(tmp_path / "ux.db"))
    yield s
    await s.close()


async def _started(service: GameService, n: int = 3, seed: int = 5):
    await service.open_lobby(guild_id=1, channel_id=CH, user_id=ANN, name="ann", players=n,
                             seed=seed)
    for uid, name in ((BOB, "bob"), (CID, "cid"))[: n - 1]:
        await service.join(CH, uid, name)
    return await service.start(CH, ANN)


def test_tie_break_is_written_only_where_players_tied() -> None:
    ranking = [{"player": "ann", "total": 50, "tokens": 9, "rank": 1},
               {"player": "bob", "total": 40, "tokens": 12, "rank": 2},
               {"player": "cid", "total": 40, "tokens": 3, "rank": 3}]
    lines = text.ranking_lines(ranking, {})
    assert lines[1] == "1. **ann** — 50 coins"
    assert lines[2] == "2. **bob** — 40 coins · 12 tokens on the map (tie-break)"
    assert lines[3] == "3. **cid** — 40 coins · 3 tokens on the map (tie-break)"


def test_echoes_are_capped_and_answers_fit_discord() -> None:
    answer = rules_text.lookup(race="x" * 5000, power="y" * 5000, topic="z" * 5000)
    assert len(answer) <= text.MESSAGE_LIMIT
    assert "x" * (text.ECHO_LIMIT + 1) not in answer and "There is no race called" in answer
    assert text.echo("@everyone `hi`") == "`@\u200beveryone 'hi'`"  # no ping, no broken code
    assert len(text.clip("a" * 5000)) == text.MESSAGE_LIMIT


def test_clipped_lines_keep_the_newest_when_asked() -> None:
    lines = [f"line {i}" for i in range(400)]
    newest = text.clip_lines(lines, 300, newest=True)
    assert newest[-1] == "line 399" and newest[0].startswith("…") and "earlier" in newest[0]
    oldest = text.clip_lines(lines, 300)
    assert oldest[0] == "line 0" and oldest[-1].startswith("…")
    assert sum(len(x) + 1 for x in newest) <= 300


def test_survivor_lines_count_right() -> None:
    one = text.describe_event({"type": "deployed", "player": "bob", "region": 5, "count": 1,
                               "survivors": True})
    two = text.describe_event({"type": "deployed", "player": "bob", "region": 5, "count": 2,
                               "survivors": True})
    assert one == "**bob** puts 1 surviving token on region 5."
    assert two == "**bob** puts 2 surviving tokens on region 5."


def test_coin_dm_breaks_the_income_down() -> None:
    line = text.describe_private({"type": "scored", "player": "ann", "income": 9, "coins": 21,
                                  "breakdown": {"regions": 6, "race": 2, "power": 1,
                                                "decline": 0}, "private": True})
    assert "you now have **21**" in line
    assert "Income: regions held 6 · race bonus +2 · power bonus +1." in line


async def test_alt_text_tells_round_turn_and_holders_never_coins(service: GameService) -> None:
    await _started(service)
    rng = random.Random(1)
    for _ in range(60):
        loaded = await service.view(CH)
        legal = [a.model_dump(mode="json") for a in engine.legal_actions(loaded.state)]
        pool = [a for a in legal if a["do"] in ("pick", "conquer")] or legal
        await service.act(CH, loaded.game.seat_named(loaded.state.actor).user_id,
                          rng.choice(pool))
    state = (await service.view(CH)).state
    secret = engine.observe(state, None, reveal_all=True)
    alt = text.map_alt(secret)  # even handed every total, the alt text shows none
    assert f"round {state.round} of" in alt and f"{state.actor} to play" in alt
    for name, p in secret["players"].items():
        n = sum(1 for r in secret["regions"].values() if r.get("owner") == name)
        if n:
            assert f"{name} {n} region" in alt
        assert f"{p['coins']} coin" not in alt
    assert "coin" not in alt.lower()
    row = text.row_alt(engine.observe(state, None))
    assert row.startswith("Combos on offer: 1. ") and " 6. " in row
    board = text.board_lines(engine.observe(state, None),
                             [r.terrain for r in state.board.regions])
    listed = "\n".join(board)
    for rid, r in engine.observe(state, None)["regions"].items():
        if r.get("owner"):
            assert f"{rid} (" in listed and f"**{r['owner']}**" in listed


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
    await _started(service)
    view = turn_view(await service.panel(CH))
    pick = next(i.item for i in view.children if i.custom_id.endswith(":p"))
    assert [o.label.split(".")[0] for o in pick.options] == ["1", "2", "3", "4", "5", "6"]
    for opt in pick.options:
        assert opt.description and " · " in opt.description and "?" not in opt.description


async def test_malformed_input_is_worded_for_players(service: GameService) -> None:
    out = await _started(service)
    with pytest.raises(RuleBroken) as err:
        await service.act(CH, out.actor_id, {"do": "pick", "slot": -1})
    assert "combo must be 1 or more (you gave `0`)" in err.value.message
    assert "Input should" not in err.value.message
    await service.act(CH, out.actor_id, {"do": "pick", "slot": 0})
    with pytest.raises(RuleBroken) as err:
        await service.act(CH, out.actor_id, {"do": "conquer", "region": -3})
    assert "region must be 0 or more (you gave `-3`)" in err.value.message
    with pytest.raises(RuleBroken) as err:  # a refusal never grows with the input
        await service.act(CH, out.actor_id, {"do": "ally", "target": "z" * 5000})
    assert len(err.value.message) < 400 and "/sw status" in err.value.message
    # an engine sentence that quotes a long input keeps its point, with the quote cut
    said = text.violation(f"{'z' * 5000!r} is not one of your opponents.")
    assert "is not one of your opponents" in said and len(said) < 200


async def test_status_after_the_game_tells_the_result(service: GameService) -> None:
    out = await _started(service, n=2)
    for _ in range(200):
        outcome = await service.skip(CH, 500)
        if outcome.finished:
            break
    assert outcome.finished
    _, lines = await service.status(CH)
    assert lines[0].startswith(f"Game #{out.game.id} is over")
    assert lines[1] == "**Final scores**" and lines[2].startswith("1. **")


async def test_turn_story_splits_the_finished_turn_from_the_live_one(
        service: GameService) -> None:
    out = await _started(service, n=2)
    first = out.actor_id
    picked = await service.act(CH, first, {"do": "pick", "slot": 0})
    finished, live = await service.turn_story(out.game.id)
    assert finished == [] and live and "picks the" in live[0]
    ended = await service.act(CH, first, {"do": "end"})
    finished, live = await service.turn_story(out.game.id, ended.first_seq)
    assert "picks the" in finished[0] and finished[-1].endswith("turn ends.")
    assert not any("picks the" in line for line in live)
    assert picked.stamp < ended.stamp  # the living message shows the newest change


async def test_survivors_with_one_way_to_go_are_placed_by_the_bot(service: GameService,
                                                                  store: Store) -> None:
    """After every accepted action, the game never waits on a placement without a choice;
    such placements are logged as the bot's own (no member id)."""
    autos = 0
    for seed in (1, 2, 3, 4):
        channel = CH + seed
        await service.open_lobby(guild_id=1, channel_id=channel, user_id=ANN, name="ann",
                                 players=3, seed=seed)
        await service.join(channel, BOB, "bob")
        await service.join(channel, CID, "cid")
        out = await service.start(channel, ANN)
        rng = random.Random(seed)
        for _ in range(400):
            loaded = await service.last_view(channel)
            state = loaded.state
            if state.finished:
                break
            assert _only_placement(state) is None
            legal = [a.model_dump(mode="json") for a in engine.legal_actions(state)]
            obs = engine.observe(state, None)
            hostile = [a for a in legal if a["do"] == "conquer" and
                       obs["regions"].get(str(a["region"]), {}).get("owner")
                       not in (None, state.actor)]
            pool = hostile or [a for a in legal if a["do"] in ("conquer", "pick")] or legal
            await service.act(channel, loaded.game.seat_named(state.actor).user_id,
                              rng.choice(pool))
        rows = await store.actions(out.game.id)
        for row in rows:
            if row.actor_id is None:
                autos += 1
                assert row.action["do"] in ("deploy", "end")
                assert any(e.get("survivors") or e["type"] == "survivors_done"
                           for e in row.events)
    assert autos > 0


async def test_living_message_and_turn_dm_settings_persist(store: Store, tmp_path: Path
                                                           ) -> None:
    game = await store.create_game(guild_id=1, channel_id=9, seed=1)
    assert await store.game_message(game.id) is None
    await store.set_game_message(game.id, 111, "summary one")
    await store.set_game_message(game.id, 222, "summary two")
    assert await store.game_message(game.id) == (222, "summary two")
    assert await store.turn_dm(ANN) is False
    await store.set_turn_dm(ANN, True)
    await store.close()
    again = await open_store(str(tmp_path / "ux.db"))
    try:
        assert await again.turn_dm(ANN) is True
        assert await again.game_message(game.id) == (222, "summary two")
        await again.set_turn_dm(ANN, False)
        assert await again.turn_dm(ANN) is False
    finally:
        await again.close()
