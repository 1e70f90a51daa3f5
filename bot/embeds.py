"""Document → Discord embed, within Discord's limits.

The headline is the description; each block of the Document becomes a field (tables in code
blocks, lines as bullets), the follow-up question comes first, the price date and the guide's
credit go in the footer. Only layout and Discord's limits live here: the words come from
``bot.compose`` and the figures from the engine.
"""

from __future__ import annotations

import discord

from bot.compose import compose, compose_why
from bot.discord_internals import PayloadOnce
from bot.document import Block, Document, Table
from bot.locales import Lang
from engine.answer import Answer
from engine.performance import SpeedEstimate

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
TITLE_MAX, DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX, FOOTER_MAX, TOTAL_MAX = 256, 4096, 256, 1024, 2048, 6000
MAX_FIELDS = 25
CODE_WIDTH = 58  # wider code-block lines wrap on a phone: tables drop their optional columns first
LINES_SHOWN = {"caveats": 2, "why": 4, "tips": 4}  # the rest is behind "Why?" and in the terminal
COLOURS = {
    "recommend": 0x76B900,
    "compare": 0x3498DB,
    "cloud_vs_buy": 0x9B59B6,
    "power": 0xE67E22,
    "explain": 0x95A5A6,
    "can_run": 0x1ABC9C,
    "other": 0x7F8C8D,
}


class AnswerEmbed(PayloadOnce):
    """An answer's embed: rendered once per answer and sent again for every repeat of the question
    (bot.views.rendered), so its payload is built once (bot.discord_internals.PayloadOnce)."""


def clip(text: str, limit: int) -> str:
    """Within ``limit`` characters, and with no mention syntax left live: answers echo what users
    typed (an unknown model or card name), and an embed must never carry "@everyone" or "<@id>"."""
    text = discord.utils.escape_mentions(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _code(text: str, limit: int = FIELD_VALUE_MAX) -> str:
    """A code block that stays within ``limit`` by dropping whole lines, never a broken fence."""
    lines = text.splitlines()
    while lines and len("```\n" + "\n".join(lines) + "\n```") > limit:
        lines.pop()
    return "```\n" + "\n".join(lines) + "\n```"


def _table(table: Table) -> str:
    text = table.text()
    if table.optional and max(map(len, text.splitlines())) > CODE_WIDTH:
        text = table.without_optional().text()
    return _code(text)


def _field(block: Block) -> str:
    parts = []
    if block.text:
        parts.append(block.text)
    if block.table is not None:
        parts.append(_table(block.table))
    lines = block.lines[: LINES_SHOWN.get(block.role, len(block.lines))]
    if lines:
        parts.append("\n".join(f"• {line}" for line in lines))
    return "\n".join(parts)


def answer_embed(answer: Answer, lang: Lang = "en") -> AnswerEmbed:
    return document_embed(compose(answer, lang))


def document_embed(doc: Document) -> AnswerEmbed:
    embed = AnswerEmbed(
        title=clip(doc.title, TITLE_MAX),
        description=clip(doc.headline, DESCRIPTION_MAX),
        colour=COLOURS.get(doc.kind, COLOURS["other"]),
    )
    fields = [(block.title or "\u200b", _field(block)) for block in doc.blocks]
    if doc.question:
        fields.insert(0, ("❓", doc.question))
    for name, value in fields[:MAX_FIELDS]:
        if value:
            embed.add_field(name=clip(name, FIELD_NAME_MAX), value=clip(value, FIELD_VALUE_MAX), inline=False)
    footer = " · ".join(part for part in (doc.footer, doc.credit) if part)
    embed.set_footer(text=clip(footer, FOOTER_MAX))
    fit_total(embed)
    return embed


def why_embed(estimate: SpeedEstimate, relative: float, lang: Lang) -> discord.Embed:
    doc = compose_why(estimate, relative, lang)
    embed = discord.Embed(
        title=clip(doc.title, TITLE_MAX),
        description=clip("\n".join(f"• {line}" for line in doc.blocks[0].lines), DESCRIPTION_MAX),
        colour=COLOURS["explain"],
    )
    embed.set_footer(text=clip(doc.footer, FOOTER_MAX))
    return embed


def fit_total(embed: discord.Embed) -> discord.Embed:
    """Drop trailing fields until the whole embed is within Discord's 6,000-character total."""
    while len(embed) > TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > TOTAL_MAX:
        embed.description = clip(embed.description or "", max(0, DESCRIPTION_MAX - (len(embed) - TOTAL_MAX)))
    return embed
