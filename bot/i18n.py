"""The bot's words in English, Traditional and Simplified Chinese, and Discord's side of languages.

Slash commands use ``interaction.locale``; chat uses the script of the question (the parser's
``language``). Command names and descriptions are localized through ``app_commands.Translator``.
"""

from __future__ import annotations

from functools import cache

import discord
from discord import app_commands

from bot.locales import Lang
from bot.words import catalog, say


def t(lang: Lang, key: str, **values: object) -> str:
    """The bot's own words for ``key`` in ``lang`` (``data/locales/messages/``, see bot.words)."""
    return say(lang, key, **values)


def from_discord(locale: discord.Locale | str | None) -> Lang:
    value = str(getattr(locale, "value", locale) or "")
    if value in ("zh-TW", "zh-HK"):
        return "zh-Hant"
    if value.startswith("zh"):
        return "zh-Hans"
    return "en"


@cache
def _commands() -> dict[str, str]:
    """Command descriptions' keys by their English (``data/locales/messages/commands.yaml``): the
    decorators carry the English text, as discord.py's ``locale_str`` expects."""
    return {templates["en"]: key for key, templates in catalog().items() if key.startswith("command.")}


class Translator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = from_discord(locale)
        if lang == "en":
            return None
        key = _commands().get(string.message)
        return say(lang, key) if key else None
