"""``python -m bot.store upgrade|current|history|revision``: see bot.store.migrate."""

from bot.store.migrate import main

main()
