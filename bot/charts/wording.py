"""The charts' words: every label, title and caption comes from ``data/locales/charts.yaml``.

Kept apart from the specs and the drawing because both use it: a spec's caption names its source,
and a drawing writes its titles, axes and legends. No word of a chart lives in code.
"""

from __future__ import annotations

import re

from bot.locales import Lang, lookup
from bot.locales import table as locale_table


def text(lang: Lang, key: str, **values: object) -> str:
    """The chart text for ``key`` in ``lang`` (``data/locales/charts.yaml``)."""
    return lookup("charts.yaml", lang, key, **values)


def term_label(lang: Lang, name: str) -> str:
    """A memory term's name in ``lang``; names the table lacks are shown as given."""
    key = f"term.{name}"
    return text(lang, key) if key in locale_table("charts.yaml")["en"] else name


def short_source(source: str | None, limit: int = 44) -> str | None:
    """A source's short name for a caption: the part before the first ':', '(', ',' or ';'.

    Price quotes carry a full citation ("Tom's Hardware Jan 2023 eBay report: Jan eBay $2,062 …");
    a caption has room for one line, so it shows the publication and leaves the detail to the answer."""
    if not source:
        return None
    head = re.split(r"[:(,;]| — | - ", source, maxsplit=1)[0].strip().strip("'\"").strip()
    head = head or source.strip()
    return head if len(head) <= limit else head[: limit - 1].rstrip() + "…"
