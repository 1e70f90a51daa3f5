"""The bot's words in English, Traditional and Simplified Chinese (``data/locales/ui.yaml``).

Slash commands use ``interaction.locale``; chat uses the script of the question (the parser's
``language``). Command names and descriptions are localized through ``app_commands.Translator``.
"""

from __future__ import annotations

import re
from functools import cache

import discord
from discord import app_commands

from bot.locales import Lang, lookup
from engine.datafiles import data_dir, read_yaml


def t(lang: Lang, key: str, **values: object) -> str:
    """The bot's text for ``key`` in ``lang`` (``data/locales/ui.yaml``)."""
    return lookup("ui.yaml", lang, key, **values)


@cache
def _phrases() -> dict[str, dict[str, str]]:
    return read_yaml(data_dir() / "locales" / "phrases.yaml") or {}


_SLOT = re.compile(r"\\\{(\w+)\\\}")  # a "{name}" after re.escape


@cache
def _templates() -> tuple[tuple[re.Pattern[str], dict[str, str]], ...]:
    """The phrases with figures in them: "{watts} W: check your PSU (/power)." matches the engine's
    sentence for any wattage, and the translation puts the same figures back (each translated
    itself when it is a phrase, as "used" is)."""
    return tuple((re.compile(_SLOT.sub(r"(?P<\1>.*?)", re.escape(english))), words)
                 for english, words in _phrases().items() if "{" in english)


def phrase(lang: Lang, english: str) -> str:
    """An engine sentence in ``lang`` when ``data/locales/phrases.yaml`` has it (the English text is
    the key, as in gettext; a key with ``{slots}`` stands for the sentence with any figures in
    them), else the English itself."""
    if lang == "en":
        return english
    words = _phrases().get(english)
    if words is not None:
        return words.get(lang, english)
    for pattern, words in _templates():
        found = pattern.fullmatch(english)
        if found is not None and lang in words:  # a value can be a phrase too ("used", a task)
            return words[lang].format(**{slot: phrase(lang, value) for slot, value in found.groupdict().items()})
    return english


def from_discord(locale: discord.Locale | str | None) -> Lang:
    value = str(getattr(locale, "value", locale) or "")
    if value in ("zh-TW", "zh-HK"):
        return "zh-Hant"
    if value.startswith("zh"):
        return "zh-Hans"
    return "en"


# Command names and descriptions shown in Discord's UI, per language.
COMMAND_TEXT: dict[str, dict[Lang, str]] = {
    "Which GPU to buy for a task and budget": {"zh-Hant": "依用途與預算推薦 GPU", "zh-Hans": "按用途和预算推荐 GPU"},
    "Compare two GPUs (counts allowed: 2x 3090)": {"zh-Hant": "比較兩張 GPU（可寫 2x 3090）",
                                                   "zh-Hans": "比较两张 GPU（可写 2x 3090）"},
    "Days until a desktop beats renting a cloud GPU": {"zh-Hant": "桌機多少天後比租雲端划算",
                                                      "zh-Hans": "台式机多少天后比租云划算"},
    "The guide's worked matrix-multiplication cycle example": {"zh-Hant": "指南的矩陣乘法週期範例",
                                                              "zh-Hans": "指南的矩阵乘法周期示例"},
    "PSU size, power limit, slots and cooling": {"zh-Hant": "電源大小、功耗限制、插槽與散熱",
                                                 "zh-Hans": "电源大小、功耗限制、插槽与散热"},
    "A GPU's spec card with sources": {"zh-Hant": "GPU 規格卡（附來源）", "zh-Hans": "GPU 规格卡（附来源）"},
    "The guide's answer on a topic": {"zh-Hant": "指南對某主題的說明", "zh-Hans": "指南对某主题的说明"},
    "Can a model run on a GPU, how fast, and what fits": {"zh-Hant": "模型能不能在這張 GPU 上跑、多快、該買什麼",
                                                          "zh-Hans": "模型能不能在这张 GPU 上跑、多快、该买什么"},
    "Draw one of the guide's charts": {"zh-Hant": "畫出指南的圖表", "zh-Hans": "画出指南的图表"},
    "Ask anything about buying a GPU": {"zh-Hant": "問任何買 GPU 的問題", "zh-Hans": "问任何买 GPU 的问题"},
}


class Translator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = from_discord(locale)
        if lang == "en":
            return None
        return COMMAND_TEXT.get(string.message, {}).get(lang)
