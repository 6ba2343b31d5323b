"""discord.py extensions loaded by SmallWorldBot.setup_hook."""
