"""The Document: an answer in words, one language, before any layout.

``bot.compose`` turns an engine ``Answer`` into a Document; the front ends only lay it out: the
Discord embed (``bot.embeds``, which enforces Discord's limits) and the terminal
(``bot.terminal_text``). So both say the same things in the same words, and neither needs to know
what an answer means. Nothing here imports discord.py.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from bot.locales import Lang

Role = Literal[
    "verdict", "options", "alternatives", "details", "prices", "figures", "sources", "caveats", "why", "tips"
]


# Slotted frozen dataclasses, not pydantic models (issue #24): every reply builds a Document, its Blocks and
# Tables (≈5.4 of them a reply over the corpus), and a model's validation of each, of values the composer has
# already made of the right types, was ≈8 % of composing. Only ``bot.compose`` builds them, with tuples
# throughout (mypy checks the types).


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """A monospace table. ``optional`` columns are the ones a narrow layout (an embed) may drop."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    optional: tuple[int, ...] = ()

    def without_optional(self) -> Table:
        keep = [i for i in range(len(self.headers)) if i not in self.optional]
        return Table(
            headers=tuple(self.headers[i] for i in keep), rows=tuple(tuple(r[i] for i in keep) for r in self.rows)
        )

    def text(self) -> str:
        """Columns padded by display width (a CJK character takes two cells), so tables line up in
        terminals and Discord code blocks in every language."""
        columns = list(zip(self.headers, *self.rows, strict=True))
        widths = [max(map(width, column)) for column in columns]

        def line(cells: tuple[str, ...]) -> str:
            return "  ".join(c + " " * (w - width(c)) for c, w in zip(cells, widths, strict=True)).rstrip()

        return "\n".join([line(self.headers), line(tuple("-" * w for w in widths)), *map(line, self.rows)])


@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    """One part below the headline, under a title: a table, a paragraph, or bullet lines (each
    with its source, shown where there is room: the terminal)."""

    role: Role
    title: str
    table: Table | None = None
    text: str = ""
    lines: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Document:
    kind: str
    lang: Lang
    title: str
    headline: str  # may carry **bold** for Discord; the terminal drops the markers
    blocks: tuple[Block, ...] = ()
    question: str = ""  # a follow-up the bot asks, shown first
    choices: tuple[tuple[str, str], ...] = ()  # (value, label) for the follow-up's buttons
    footer: str = ""
    credit: str = ""


def width(text: str) -> int:
    """Cells ``text`` takes in a monospace font: wide (CJK) characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
