"""The bot's words in English, Traditional and Simplified Chinese, and Discord's side of languages.

Slash commands use ``interaction.locale``; chat uses the script of the question (the parser's
``language``). Command names and descriptions are localized through ``app_commands.Translator``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.locales import Lang
from bot.words import say


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
