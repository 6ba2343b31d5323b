"""The board's snapshot: the public part shows no coin total before the end; a seat's own
coins go to her alone; moves only to the member who must act."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import engine
from bot.game.moves import dump
from bot.game.panel import targets
from bot.store import GameRow, GameStatus, Seat
from bot.web import snapshot

SCENARIO = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "map-4p.json"
IDS = {"ann": 1, "bob": 2, "cid": 3, "dee": 4}


def _game(state: engine.GameState, status: GameStatus = GameStatus.ACTIVE) -> GameRow:
    seats = tuple(Seat(IDS[name], name) for name in state.players)
    return GameRow(id=9, guild_id=1, channel_id=77, status=status, board=state.board.id,
                   seed=state.seed, players=seats, options={}, opener_id=1, version=12,
                   created_at="", started_at="", finished_at=None, revision=15)


def _state() -> engine.GameState:
    return engine.load_scenario(json.loads(SCENARIO.read_text()))


def _viewer(game: GameRow, state: engine.GameState, uid: int) -> dict:
    pub = snapshot.public(game, state, deadline=None)
    my_moves = None
    if snapshot.viewer_acts(game, state, uid):
        legal = [dump(a) for a in engine.legal_actions(state)]
        my_moves = snapshot.moves(state, legal, targets(state, legal, engine.observe(state)),
                                  end_asks=False, undo=False)
    return snapshot.for_viewer(pub, state, user_id=uid, name="x", lang="en", lines=[],
                               my_moves=my_moves)


def test_each_seat_sees_its_own_coins_and_nobody_elses() -> None:
    state = _state()
    game = _game(state)
    truth = {s.name: s.coins for s in state.seats}
    for name, uid in IDS.items():
        body = _viewer(game, state, uid)
        assert body["me"]["coins"] == truth[name]
        rest = json.dumps({k: v for k, v in body.items() if k != "me"})
        assert '"coins"' not in rest and '"income"' not in rest
    guest = _viewer(game, state, 999)
    assert guest["me"]["seat"] is None and "coins" not in guest["me"]
    assert '"coins"' not in json.dumps(guest)


def test_only_the_member_who_acts_gets_moves() -> None:
    state = _state()
    game = _game(state)
    actor = IDS[state.actor]
    bodies = {uid: _viewer(game, state, uid) for uid in (*IDS.values(), 999)}
    assert bodies[actor]["moves"] is not None and bodies[actor]["me"]["acts"]
    assert all(b["moves"] is None for uid, b in bodies.items() if uid != actor)
    legal = {json.dumps({k: v for k, v in dump(a).items() if k != "player"}, sort_keys=True)
             for a in engine.legal_actions(state)}
    for t in bodies[actor]["moves"]["targets"]:  # every target offered is a legal action
        assert json.dumps(t["a"], sort_keys=True) in legal
    # the AI playing her seat: no moves for her, as no buttons in chat
    ai_game = dataclasses.replace(game, players=tuple(
        Seat(s.user_id, s.name, away=s.user_id == actor) for s in game.players))
    assert not snapshot.viewer_acts(ai_game, state, actor)


def test_the_reveal_shows_everybody_once_the_game_is_over() -> None:
    state = _state()
    while not state.finished:
        legal = engine.legal_actions(state)
        step = next((a for a in legal if dump(a)["do"] in ("end", "decline")), legal[0])
        state = engine.apply(state, step).state
    body = snapshot.public(_game(state, GameStatus.FINISHED), state, deadline=None).body
    assert body["finished"] and body["ranking"]
    assert all(isinstance(p["coins"], int) for p in body["players"])


def test_chat_lines_become_page_text() -> None:
    assert snapshot.plain("**ann** took region 4 from <@22>", {22: "bob"}) == \
        "ann took region 4 from @bob"
