"""Document → Discord embed, within Discord's limits.

The headline is the description; each block of the Document becomes a field (tables in code
blocks, lines as bullets), the follow-up question comes first, the price date and the guide's
credit go in the footer. Only layout and Discord's limits live here: the words come from
``bot.compose`` and the figures from the engine.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

import discord

from bot.document import Block, Document, Table, width
from bot.locales import Lang

if TYPE_CHECKING:
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


def clip(text: str, limit: int) -> str:
    """Within ``limit`` characters, and with no mention syntax left live: answers echo what users
    typed (an unknown model or card name), and an embed must never carry "@everyone" or "<@id>"."""
    if "@" in text:  # escape_mentions' pattern starts with "@": the common case skips the regex
        text = discord.utils.escape_mentions(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _code(text: str, limit: int = FIELD_VALUE_MAX) -> str:
    """A code block that stays within ``limit`` by dropping whole lines, never a broken fence."""
    lines = text.splitlines()
    while lines and len("```\n" + "\n".join(lines) + "\n```") > limit:
        lines.pop()
    return "```\n" + "\n".join(lines) + "\n```"


# Display widths of cells that may hold wide characters (Chinese headers, units, card names recur from answer to
# answer). 1,024, not 4,096 (issue #24): the cache still grew at 20,000 events of the benchmark's distinct
# traffic (3,289 cells, 0.7-0.9 MB with their strings; 95 % of look-ups found), so the RSS grew with
# users; a cell measured again costs a few µs.
_wide_width = lru_cache(maxsize=1024)(width)
# The first character that may take two cells (U+0378 with Python 3.11's tables): a cell of characters before
# it, such as "1.23×", is as wide as it is long. Such cells were most of those measured through the cache, and
# their figures differ from answer to answer, so they pushed the Chinese words out of it (issue #24).
_FIRST_WIDE = chr(next(i for i in itertools.count() if unicodedata.east_asian_width(chr(i)) in "WF"))
_maybe_wide = re.compile(f"[{_FIRST_WIDE}-\U0010ffff]").search  # half the time of max() on a Chinese cell


def _padded(column: tuple[str, ...]) -> list[str]:
    """A column's header, its dashes and its cells, each padded to the column's display width (measured
    only for cells that may hold a wide character)."""
    joined = "".join(column)
    if joined.isascii() or not _maybe_wide(joined):  # every cell as wide as it is long: one look at the column
        most = max(map(len, column))
        cells = [cell.ljust(most) for cell in column]
    else:
        widths = [len(cell) if cell.isascii() or not _maybe_wide(cell) else _wide_width(cell) for cell in column]
        most = max(widths)
        cells = [cell + " " * (most - w) for cell, w in zip(column, widths, strict=True)]
    cells.insert(1, "-" * most)
    return cells


def _table(table: Table) -> str:
    """The table as ``Table.text()`` lays it out, less its optional columns when a line would be
    wider than ``CODE_WIDTH``. Each column is padded once and the narrow layout reuses it (rendering
    the table twice, as ``Table.text()`` then ``without_optional().text()``, was ≈70 % more table work
    for most answers; padding cell by cell, line by line, was half of what is left, issue #24)."""
    columns = [_padded(column) for column in zip(table.headers, *table.rows, strict=True)]
    lines = ["  ".join(cells).rstrip() for cells in zip(*columns, strict=True)]
    if table.optional and max(map(len, lines)) > CODE_WIDTH:
        narrow = [column for j, column in enumerate(columns) if j not in table.optional]
        lines = ["  ".join(cells).rstrip() for cells in zip(*narrow, strict=True)]
    return _code("\n".join(lines))


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


def answer_embed(answer: Answer, lang: Lang = "en") -> discord.Embed:
    from bot.compose import compose  # loads on first use (or the warm-up after READY), not at start-up

    return document_embed(compose(answer, lang))


def document_embed(doc: Document) -> discord.Embed:
    embed = discord.Embed(
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
    from bot.compose import compose_why

    doc = compose_why(estimate, relative, lang)
    embed = discord.Embed(
        title=clip(doc.title, TITLE_MAX),
        description=clip("\n".join(f"• {line}" for line in doc.blocks[0].lines), DESCRIPTION_MAX),
        colour=COLOURS["explain"],
    )
    embed.set_footer(text=clip(doc.footer, FOOTER_MAX))
    return embed


def fit_total(embed: discord.Embed) -> discord.Embed:
    """Drop trailing fields until the whole embed is within Discord's 6,000-character total. The total is
    counted once per field dropped (discord.py counts every part of the embed again each time)."""
    total = len(embed)
    while total > TOTAL_MAX and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
        total = len(embed)
    if total > TOTAL_MAX:
        embed.description = clip(embed.description or "", max(0, DESCRIPTION_MAX - (total - TOTAL_MAX)))
    return embed
