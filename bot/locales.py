"""The bot's text tables (``data/locales/*.yaml``: one mapping per language) and their lookup.

Kept free of discord imports so that charts and the terminal can use it cheaply; ``bot.i18n``
adds the Discord side (locales, the command translator).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from engine.datafiles import data_dir, read_yaml

Lang = Literal["en", "zh-Hant", "zh-Hans"]
LANGS: tuple[Lang, ...] = ("en", "zh-Hant", "zh-Hans")


@cache
def table(filename: str) -> dict[str, dict[str, str]]:
    """One locale file, checked once: every key of the English table exists in every language."""
    raw = read_yaml(data_dir() / "locales" / filename)
    missing = {lang: sorted(set(raw["en"]) - set(raw.get(lang) or {})) for lang in LANGS}
    if any(missing.values()):
        raise ValueError(f"{filename}: keys missing per language: {missing}")
    return raw


def lookup(filename: str, lang: Lang, key: str, **values: object) -> str:
    """The text for ``key`` in ``lang`` (English if the key is unknown there), with values filled in."""
    strings = table(filename)
    template = strings.get(lang, strings["en"]).get(key) or strings["en"].get(key, key)
    return template.format(**values)
