"""Write the web page's fixtures: board data and snapshots of set positions, made by the
bot's own code (render.page, bot.web.snapshot), for the page's unit tests and a look at the
board without a bot.

    python scripts/web_fixtures.py            # writes web/fixtures/*.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import ai
import engine
from bot.game.moves import dump
from bot.game.panel import targets
from bot.store import GameRow, GameStatus, Seat
from bot.web import snapshot
from render import page

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "web" / "fixtures"
SCENARIO = ROOT / "docs" / "scenarios" / "map-4p.json"
NAMES = {101: "Ann", 102: "Bob", 103: "Cid", 104: "Dee"}


def game_row(state: engine.GameState, version: int) -> GameRow:
    seats = tuple(Seat(uid, name) for uid, name in zip(NAMES, state.players, strict=True))
    return GameRow(id=7, guild_id=1, channel_id=555, status=GameStatus.ACTIVE,
                   board=state.board.id, seed=state.seed, players=seats, options={},
                   opener_id=101, version=version, created_at="", started_at="",
                   finished_at=None)


def snap(state: engine.GameState, version: int, viewer: int, lines: list[str],
         lang: str = "en") -> dict[str, Any]:
    game = game_row(state, version)
    pub = snapshot.public(game, state, deadline=1_900_000_000.0, names=NAMES)
    my_moves = None
    if snapshot.viewer_acts(game, state, viewer):
        legal = [dump(a) for a in engine.legal_actions(state)]
        obs = engine.observe(state, None)
        my_moves = snapshot.moves(state, legal, targets(state, legal, obs), end_asks=False,
                                  undo=False)
    body = snapshot.for_viewer(pub, state, user_id=viewer, name=NAMES.get(viewer, "Guest"),
                               lang=lang, lines=lines, my_moves=my_moves)
    return {"t": "snap", "v": version, "d": body}


def uid_of(seat: str | None) -> int:
    return next(uid for uid, name in NAMES.items() if name.lower() == seat)


def survivors(state: engine.GameState) -> dict[str, Any]:
    """Easy AI seats play until an attacked player must place her survivors: the viewer."""
    s = state
    while s.stage is not engine.Stage.SURVIVORS:
        if s.finished:
            raise SystemExit("no survivors to place in the whole game")
        s = engine.apply(s, ai.choose(s, "easy", seed=3)).state
    return snap(s, 55, uid_of(s.actor), ["Her tokens were driven out."])


def finished(state: engine.GameState) -> dict[str, Any]:
    """A whole game played by easy AI seats: the reveal (everybody's coins, the ranking)."""
    s = state
    while not s.finished:
        s = engine.apply(s, ai.choose(s, "easy", seed=3)).state
    return snap(s, 400, 101, ["The game is over."])


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    state = engine.load_scenario(json.loads(SCENARIO.read_text()))
    (OUT / "board-official-4p.json").write_bytes(page.board_drawing("official-4p"))
    actor = next(uid for uid, name in NAMES.items() if name.lower() == state.actor)
    files = {
        "snap-conquest.json": snap(state, 41, actor, ["Bob readies his Trolls."]),
        "snap-spectator.json": snap(state, 41, 999, ["Bob readies his Trolls."]),
    }
    # the actor conquers the cheapest target, then every conquest it can: redeployment next
    s = state
    for _ in range(12):
        legal = [dump(a) for a in engine.legal_actions(s)]
        conquer = [a for a in legal if a["do"] == "conquer"]
        if not conquer:
            break
        s = engine.apply(s, engine.parse_action(conquer[0])).state
    files["snap-redeploy.json"] = snap(s, 49, actor, ["Bob conquers."])
    files["snap-conquest-th.json"] = snap(state, 41, actor, ["Bob readies his Trolls."], "th")
    fresh = engine.new_game("official-4p", [n.lower() for n in NAMES.values()], seed=7)
    files["snap-pick.json"] = snap(fresh, 1, uid_of(fresh.actor), ["A new game starts."])
    files["snap-survivors.json"] = survivors(fresh)
    files["snap-finished.json"] = finished(fresh)
    for name, body in files.items():
        (OUT / name).write_text(json.dumps(body, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(files) + 1} files to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
