"""Fonts for the charts, and matplotlib itself, loaded on first use.

DejaVu Sans (shipped with matplotlib) draws Latin text; CJK glyphs fall back to the first
installed family below, the regional face first (matplotlib ≥ 3.11 reads every face of a .ttc).
Debian: `apt-get install -y fonts-noto-cjk` (Noto Sans CJK, SIL OFL). GPU_ADVISOR_CJK_FONT may
name a font file to add when none is installed system-wide.

matplotlib is imported here, lazily, because the font list must be complete (CJK files added)
before any text is measured; ``import bot.charts`` never imports it.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from glob import glob
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.locales import Lang

LATIN_FAMILY = "DejaVu Sans"
CJK_PREFERRED: dict[Lang, tuple[str, ...]] = {
    "en": ("Noto Sans CJK SC",),
    "zh-Hant": ("Noto Sans CJK TC", "Noto Sans CJK HK", "Source Han Sans TC"),
    "zh-Hans": ("Noto Sans CJK SC", "Source Han Sans SC"),
}
CJK_FAMILIES: tuple[str, ...] = (
    "Noto Sans CJK SC",
    "Noto Sans CJK TC",
    "Noto Sans CJK HK",
    "Noto Sans CJK JP",  # face 0 of the .ttc: the only one matplotlib < 3.11 sees; covers all Han
    "Source Han Sans SC",
    "Source Han Sans TC",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
)
_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", str(Path.home() / ".local/share/fonts"))
_FONT_PATTERNS = ("*CJK*.tt[cf]", "*CJK*.otf", "wqy*.tt[cf]", "SourceHanSans*", "DroidSansFallback*")
CJK_INSTALL_HINT = "apt-get install -y fonts-noto-cjk"

# Agg for any pyplot imported later in this process; the charts themselves never import pyplot.
os.environ.setdefault("MPLBACKEND", "Agg")


@cache
def _mpl() -> SimpleNamespace:
    """matplotlib's pieces the charts use (Agg canvas, no pyplot), with the CJK fonts registered."""
    import matplotlib

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator
    from PIL import Image  # a dependency of matplotlib

    _ensure_cjk_fonts(font_manager)
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return SimpleNamespace(
        matplotlib=matplotlib,
        font_manager=font_manager,
        Figure=Figure,
        FigureCanvasAgg=FigureCanvasAgg,
        Line2D=Line2D,
        Patch=Patch,
        FuncFormatter=FuncFormatter,
        MaxNLocator=MaxNLocator,
        Image=Image,
        installed=installed,
    )


def _ensure_cjk_fonts(font_manager: Any) -> None:
    """Add CJK font files matplotlib's cached font list misses (installed after the cache was built)."""
    names = {f.name for f in font_manager.fontManager.ttflist}
    extra = os.environ.get("GPU_ADVISOR_CJK_FONT")
    paths = [extra] if extra and Path(extra).is_file() else []
    if not names.intersection(CJK_FAMILIES):
        for folder in _FONT_DIRS:
            for pattern in _FONT_PATTERNS:
                paths += glob(os.path.join(folder, "**", pattern), recursive=True)
    for path in sorted(set(paths)):
        try:
            font_manager.fontManager.addfont(path)
        except (OSError, RuntimeError, ValueError):  # an unreadable file: skip it
            continue


def font_families(lang: Lang) -> list[str]:
    """The font family list for ``lang``: DejaVu Sans, then the best installed CJK family (regional
    face first). One fallback is enough, and every extra family costs a font lookup per text."""
    installed = _mpl().installed
    ordered = dict.fromkeys((*CJK_PREFERRED.get(lang, ()), *CJK_FAMILIES))
    return [LATIN_FAMILY, *[f for f in ordered if f in installed][:1]]


def cjk_font_installed() -> bool:
    """Whether Chinese charts can draw their glyphs (the tests fail with :data:`CJK_INSTALL_HINT` if not)."""
    return len(font_families("zh-Hans")) > 1


def resolve_fonts(sample: str, lang: Lang) -> dict[str, str]:
    """Which family draws each distinct character of ``sample`` in ``lang`` ('' when none has it).

    Mirrors matplotlib's fallback: the first family in :func:`font_families` with the glyph."""
    mpl = _mpl()
    fm = mpl.font_manager
    fonts = []
    for family in font_families(lang):
        path = fm.findfont(fm.FontProperties(family=family), fallback_to_default=False)
        fonts.append((family, fm.get_font(path)))
    out: dict[str, str] = {}
    for ch in dict.fromkeys(sample):
        if ch.isspace():
            continue
        out[ch] = next((family for family, font in fonts if font.get_char_index(ord(ch))), "")
    return out
