"""End-to-end tests: the real discord.py driven against a local Discord API double."""
