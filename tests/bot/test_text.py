"""The English sentences of bot/text.py: final ranking lines, event lines, the coin DM, the
map's alt text (never a coin), clipping and echoes of member input."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from game_setup import CH, started

import engine
from bot import rules_text, text
from bot.game.service import GameService
from bot.store import open_store


@pytest.fixture
async def store(tmp_path: Path):
    """A SQLite file only (the shared `service` fixture runs on it)."""
    s = await open_store(str(tmp_path / "ux.db"))
    yield s
    await s.close()


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
    await started(service)
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
