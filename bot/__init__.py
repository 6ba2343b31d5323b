"""The Discord bot: settings, SQLite store, game service, cogs and views."""
