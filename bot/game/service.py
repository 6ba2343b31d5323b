"""The game service: every feature of a channel's game, on one core.

`GameService` is the core (bot/game/core.py: the unit of work, caches, the clock's
deadlines) with the features that go through it, each its own room:

- `Lobby` (lobby.py): open, join, leave, AI seats, the clock a lobby starts with, start;
- `Play` (play.py): members' actions, undo, the AI's stints;
- `Moderation` (moderation.py): undo, skip, kick and end for moderators;
- `SeatClock` (seat_clock.py): timeouts, the AI keeping an absent seat, time left;
- `Reading` (reading.py): status, log, board, legal actions, combos, targets, the reveal;
- `Vacations` (vacations.py): members away from all their games of a server, the bank;
- `Votes` (votes.py): the table's votes (pause, more time, a seat to the AI, end now);
- `CatchUps` (catchup.py): what happened since a member's last action, for her alone.

Methods return plain data (GameRow, Outcome, Panel, ...) and never touch Discord; refusals
are the ServiceError subclasses of bot/errors.py, raised by catalog key.
"""

from __future__ import annotations

from bot.game.catchup import CatchUps
from bot.game.lobby import Lobby
from bot.game.moderation import Moderation
from bot.game.reading import Reading
from bot.game.vacations import Vacations
from bot.game.votes import Votes


class GameService(Moderation, Lobby, Reading, Vacations, Votes, CatchUps):
    """Lobbies and games, one per channel; the store is the source of truth."""
