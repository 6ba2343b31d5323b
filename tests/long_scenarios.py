"""Games started from a position of our choosing: the lobby is opened and joined through the
service as members would, then started by the store from a scenario's state (snapshot 0), so
the log replays from it as from any start."""

from __future__ import annotations

import copy
from typing import Any

import engine
from bot.game.results import Loaded
from bot.game.service import GameService

GUILD = 1

# official-2p: ann's Orcs hold region 2 and can take bob's region 7 (3 Ratmen: 2 survive);
# bob's other Ratmen hold 5 (4 tokens), 10 (1) and 12 (1); 10 and 12 are neighbours
ATTACK = {
    "board": "official-2p", "players": ["ann", "bob"], "seed": 1, "round": 2, "current": "ann",
    "seats": {"ann": {"coins": 5, "active": {"race": "Orcs", "power": "Hill", "hand": 6}},
              "bob": {"coins": 7, "active": {"race": "Ratmen", "power": "Forest", "hand": 0}}},
    "regions": {"2": {"owner": "ann", "race": "Orcs", "tokens": 3},
                "7": {"owner": "bob", "race": "Ratmen", "tokens": 3},
                "5": {"owner": "bob", "race": "Ratmen", "tokens": 4},
                "10": {"owner": "bob", "race": "Ratmen", "tokens": 1},
                "12": {"owner": "bob", "race": "Ratmen", "tokens": 1}},
}


def spec(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(ATTACK)
    out.update(changes)
    return out


async def start_scenario(service: GameService, scenario: dict[str, Any], users: dict[str, int],
                         *, channel: int, guild: int = GUILD,
                         options: dict[str, Any] | None = None) -> Loaded:
    """A game of `users` (seat name -> member id; 0: an AI seat) in `channel`, standing at
    `scenario`'s position."""
    names = list(scenario["players"])
    first = names[0]
    game = await service.open_lobby(guild_id=guild, channel_id=channel, user_id=users[first],
                                    name=first, players=len(names), options=options)
    for name in names[1:]:
        if users[name]:
            game = await service.join(channel, users[name], name)
        else:
            game = await service.add_ai(channel, users[first], "normal")
    seats = {s.name: s for s in game.players}
    state = engine.load_scenario(scenario)
    await service.store.start_game(game.id, board=scenario["board"],
                                   players=[seats[n] for n in names],
                                   state=engine.dump_state(state))
    loaded = await service.view(channel)
    await service.resync(loaded.game)  # its clock, as a start arms it
    return loaded
