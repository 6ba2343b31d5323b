"""The catch-up a member reads when she comes back to a game (her regions taken, picks and
declines, her survivors, her own coins only), her reliability (turns played and missed, time
to act, games left), a table that asks for reliability to join, and stints that follow her
quiet hours."""

from __future__ import annotations

import random
import re

import pytest
from long_scenarios import spec, start_scenario

import engine
from bot.clock import ClockConfig, ClockRules
from bot.errors import LobbyError, NotAllowed
from bot.game.catchup import catch_up_of
from bot.game.quiet import QuietHours
from bot.game.service import GameService
from bot.game.stints import Actor, stint
from bot.store import ActionRow, GameRow, GameStatus, Seat, Store

ANN, BOB, CID = 11, 22, 33
COINS = re.compile(r"(\d+)\**\s*coins?\b", re.IGNORECASE)


async def test_her_catch_up_tells_what_she_missed_and_only_her_coins(store: Store) -> None:
    service = GameService(store, rng=random.Random(0))
    await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=970)
    await service.act(970, ANN, {"do": "conquer", "region": 7})
    out = await service.act(970, ANN, {"do": "end"})  # bob must place 2 survivors now
    caught = await service.member_catch_up(out.game, BOB)
    assert caught.since == 0 and caught.upto == out.version
    assert caught.lost == {"ann": [7]} and caught.lost_regions == (7,)
    assert caught.survivors == 2
    lines = caught.lines("en")
    assert lines[0].startswith("📬 Since your last move in game #")
    assert "**ann** took your region 7." in lines
    assert "You have 2 surviving tokens to place now." in lines
    # ann scored, bob did not: nothing of ann's coins reaches bob's catch-up
    ann_scored = [e for r in await store.actions(out.game.id) for e in r.events
                  if e.get("type") == "scored"]
    assert ann_scored and not caught.scored
    assert not COINS.search("\n".join(lines))
    # ann's own catch-up since her end holds nothing yet; her coins show in hers later
    assert (await service.member_catch_up(out.game, ANN)).is_empty
    # bob places, plays and ends: ann's catch-up has his pick-free turn and her own coins
    for region in (5, 5):
        await service.act(970, BOB, {"do": "deploy", "region": region, "count": 1})
    loaded = await service.view(970)
    for a in engine.legal_actions(loaded.state):
        if a.model_dump(mode="json")["do"] == "end":
            await service.act(970, BOB, {"do": "end"})
            break
    mine = await service.member_catch_up((await service.view(970)).game, ANN)
    assert mine.scored == [] and not mine.lost  # bob took nothing of hers
    text = "\n".join(mine.lines("en"))
    assert not COINS.search(text)  # bob's coins are his


async def test_reliability_counts_turns_and_a_table_can_ask_for_it(store: Store) -> None:
    service = GameService(store, rng=random.Random(0))
    await start_scenario(service, spec(), {"ann": ANN, "bob": BOB}, channel=971)
    await service.act(971, ANN, {"do": "end"})  # ann's turn: played by her
    found = await store.reliability(1, ANN)
    assert (found.played, found.missed, found.away) == (1, 0, 0)
    assert found.median_seconds is not None and found.median_seconds >= 0
    # bob's turn is skipped by a moderator: missed
    await service.skip(971, 500)
    bob = await store.reliability(1, BOB)
    assert (bob.played, bob.missed, bob.recent, bob.recent_missed) == (0, 1, 1, 1)
    assert bob.missed_share == 1.0
    # a kick counts as a game left
    await service.kick(971, 500, BOB, ai="easy")
    assert (await store.reliability(1, BOB)).games_left == 1
    # a lobby that asks for at most 10% of the last 50 turns missed refuses bob, with his
    # figure and the requirement; ann joins
    await service.open_lobby(guild_id=1, channel_id=972, user_id=CID, name="cid", players=3)
    with pytest.raises(NotAllowed):
        await service.table_rules(972, ANN, max_missed=10)  # only the opener
    game = await service.table_rules(972, CID, max_missed=10, vacation="ai")
    assert game.options["reliability"] == {"max_missed": 10, "over": 50}
    assert game.options["vacation"] == "ai"
    with pytest.raises(LobbyError) as err:
        await service.join(972, BOB, "bob")
    assert err.value.key == "rel.refused"
    assert "you missed 1 of your last 1 (100%)" in err.value.message
    assert [s.user_id for s in (await service.lobby(972)).players] == [CID]
    await service.join(972, ANN, "ann")
    with pytest.raises(LobbyError) as err:
        await service.table_rules(972, CID, max_missed=101)
    game = await service.table_rules(972, CID, max_missed=100)
    assert "reliability" not in game.options


def test_a_member_stint_follows_her_quiet_hours() -> None:
    """A deadline that would run out in her quiet hours moves to their end; a reminder that
    would then come at or after the limit goes; her turn DM waits for their end."""
    state = engine.load_scenario(spec())
    game = _game(state)
    quiet = QuietHours.parse("22:00-06:00", "UTC")
    rules = ClockRules()
    now = 1_800_000_000 - 1_800_000_000 % 86400 + 21 * 3600  # 21:00 UTC
    key, rows = stint(game, state, rules, now, Actor(quiet, turn_dm=True))
    due = {r.kind: r.due_at for r in rows}
    # 2h limit: the turn at 23:00 moves to 06:00; half (22:00) moves there too and goes,
    # near (22:48) the same; the DM is not held (21:00 is not quiet)
    assert due == {"turn": now + 9 * 3600}
    key, rows = stint(game, state, rules, now + 2 * 3600, Actor(quiet, turn_dm=True))
    due = {r.kind: r.due_at for r in rows}
    assert due["wake"] == now + 9 * 3600  # 23:00 is quiet: her turn DM waits for 06:00
    key, rows = stint(game, state, rules, now, Actor(None, turn_dm=True))
    assert {r.kind for r in rows} == {"turn", "half", "near"}


def _game(state: engine.GameState) -> GameRow:
    return GameRow(id=1, guild_id=1, channel_id=1, status=GameStatus.ACTIVE,
                   board="official-2p", seed=1, players=(Seat(ANN, "ann"), Seat(BOB, "bob")),
                   options={"clock": ClockConfig(limit=7200).to_json()}, opener_id=ANN,
                   version=0, created_at="", started_at="", finished_at=None)


def test_her_coins_since_then_with_their_breakdown() -> None:
    """Turns the AI played for her while she was away: her coins since her last action, the
    breakdown summed; another's scored events are not hers to read."""
    state = engine.load_scenario(spec())
    game = _game(state)
    rows = [ActionRow(1, 5, {"do": "end"}, None, "ann", [
                {"type": "scored", "player": "ann", "income": 4, "coins": 12, "private": True,
                 "breakdown": {"regions": 3, "race": 1}},
                {"type": "turn_ended", "player": "ann", "round": 2}]),
            ActionRow(1, 6, {"do": "end"}, BOB, "bob", [
                {"type": "scored", "player": "bob", "income": 9, "coins": 30, "private": True},
                {"type": "picked", "player": "bob", "slot": 0, "race": "Elves",
                 "power": "Alchemist", "paid": 0, "collected": 0, "tokens": 10}]),
            ActionRow(1, 7, {"do": "end"}, None, "ann", [
                {"type": "scored", "player": "ann", "income": 5, "coins": 17, "private": True,
                 "breakdown": {"regions": 4, "power": 1}}])]
    caught = catch_up_of(game, "ann", rows, state, 4)
    lines = caught.lines("en")
    assert "Your coins: 9 coins from 2 turns; you now have **17**." in lines
    assert "Income: regions held 7 · race bonus +1 · power bonus +1." in lines
    assert any("bob" in line and "Elves" in line for line in lines)
    assert coin_numbers("\n".join(lines)) == {9, 17}  # hers; bob's income and total
    assert "30" not in "\n".join(lines)  # (30) are nowhere


def coin_numbers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(\d+)\**\s*coins?", text)} | {
        int(n) for n in re.findall(r"you now have \**(\d+)", text)}
