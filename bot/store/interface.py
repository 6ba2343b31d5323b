"""The Store: the driver base plus the SQL of every aggregate, as one interface. A driver
(bot.store.sqlite, bot.store.postgres) subclasses it and supplies the connections;
`bot.store.open_store(url)` returns the one a DATABASE_URL names."""

from __future__ import annotations

from bot.store.admin import AdminSQL
from bot.store.deadlines import DeadlinesSQL
from bot.store.leagues import LeaguesSQL
from bot.store.log import LogSQL
from bot.store.members import MembersSQL
from bot.store.outbox import OutboxSQL
from bot.store.results import ResultsSQL
from bot.store.reviews import ReviewsSQL
from bot.store.settings import SettingsSQL
from bot.store.votes import VotesSQL


class Store(LogSQL, DeadlinesSQL, OutboxSQL, SettingsSQL, MembersSQL, VotesSQL, LeaguesSQL,
            ResultsSQL, ReviewsSQL, AdminSQL):
    """Every statement of the bot, by aggregate: games and their log (LogSQL, on GamesSQL),
    deadlines, the DM outbox, settings and the living message, members across their games
    (quiet hours, standing orders, vacations, reliability), seat votes, leagues, finished
    games' results and reviews, whole tables. Each
    write is one transaction, committed before the method returns."""
