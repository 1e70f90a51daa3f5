"""Document → terminal text: the same Document the Discord embed shows, laid out as plain text.

Only layout happens here (no words, no figures): titles, tables padded by display width, bullet
lines with each rule's source in brackets, the follow-up with its choices. Nothing here imports
discord.py, so the terminal starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.document import Block, Document
from bot.locales import Lang
from bot.words import render, say
from engine.message import Msg
from engine.query import unknown_gpu as unknown_gpu_error

if TYPE_CHECKING:
    from engine.answer import Answer

__all__ = ["answer_text", "counted", "document_text", "unknown_gpu", "unknown_gpu_msg"]

_BULLET = {"caveats": "! ", "why": "- ", "tips": "• ", "figures": "• ", "sources": "- ", "prices": "- ", "details": ""}


def answer_text(answer: Answer, lang: Lang = "en") -> str:
    """An answer for the terminal in ``lang``."""
    from bot.compose import compose  # the composer (and the engine it reads) loads on first use

    return document_text(compose(answer, lang))


def counted(name: str, count: int) -> str:
    """ "2× RTX 3090", or just the name for one card (bot.compose.counted, loaded on first use)."""
    from bot.compose import counted as compose_counted

    return compose_counted(name, count)


def document_text(doc: Document) -> str:
    parts = [doc.title, doc.headline.replace("**", "")]
    for block in doc.blocks:
        parts.append(_block_text(block, doc.lang))
    if doc.footer:
        parts.append(doc.footer)
    if doc.question:
        choices = say(doc.lang, "list.choices", choices=", ".join(label for _, label in doc.choices))
        parts.append(f"? {doc.question}" + (f" {choices}" if doc.choices else ""))
    return "\n\n".join(p for p in parts if p)


def _block_text(block: Block, lang: Lang) -> str:
    lines: list[str] = []
    if block.title and block.role not in ("options", "details"):  # the table under the headline needs no title
        lines.append(say(lang, "text.section", title=block.title))  # "Why:", "原因："
    if block.text:
        lines.append(block.text)
    if block.table is not None:
        lines.append(block.table.text())
    bullet = _BULLET.get(block.role, "")
    for i, line in enumerate(block.lines):
        source = block.sources[i] if i < len(block.sources) and block.role == "why" and block.sources[i] else ""
        lines.append(f"{bullet}{line}" + (f" [{source}]" if source else ""))
    if block.role != "why" and len(block.sources) == 1 and block.sources[0]:
        lines.append(f"[{block.sources[0]}]")
    return "\n".join(line for line in lines if line)


def unknown_gpu_msg(typed: str, shown: str | None = None) -> Msg:
    """'I don't know the GPU “…”. Did you mean …?' (engine.query.unknown_gpu's message)."""
    return unknown_gpu_error(typed, shown).message


def unknown_gpu(typed: str, lang: Lang = "en", shown: str | None = None) -> str:
    return render(unknown_gpu_msg(typed, shown), lang)
