"""The charts' look: the card's size, its colours and type sizes, and matplotlib's settings for it.

One place for the theme, so that every kind of chart reads as the same card (docs/charts.md).
"""

from __future__ import annotations

from typing import Any

from bot.charts.fonts import font_families
from bot.locales import Lang
from engine.specs import Workload

WIDTH_PX, HEIGHT_PX, DPI = 1200, 675, 100
FIGSIZE = (WIDTH_PX / DPI, HEIGHT_PX / DPI)  # 12 × 6.75 in

# An opaque, neutral mid-dark card with light text. Discord shows a transparent PNG on the
# viewer's theme colour, so dark text vanishes in dark mode and light text in light mode; an
# opaque card reads the same on both (it looks like an embedded card in light mode and like a
# slightly darker panel in dark mode). Series colours are Okabe-Ito (safe for colour-blind
# readers), all at ≥ 3:1 contrast against the card.
BG = "#2B2D31"
FG = "#F2F3F5"
MUTED = "#B5BAC1"
GRID = "#4E5058"
DARK_TEXT = "#1E1F22"
GREY_BAR = "#5C5F66"
PALETTE = ("#56B4E9", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#D55E00", "#A6A9F0", "#9AA0A6")
WORKLOAD_COLOURS: dict[Workload, str] = {"train16": "#56B4E9", "infer16": "#E69F00", "infer8": "#009E73"}
DESKTOP_COLOUR, CLOUD_COLOUR = "#56B4E9", "#E69F00"
PSU_COLOUR, MAX_LOAD_COLOUR = "#F0E442", "#D55E00"
GPU_SEGMENT_COLOURS = ("#56B4E9", "#3D8FC2")
CPU_COLOUR = "#E69F00"

TITLE_PT, LABEL_PT, TICK_PT, VALUE_PT, CAPTION_PT = 22, 18, 16, 16, 14


def rc(lang: Lang) -> dict[str, Any]:
    """matplotlib settings for one render in ``lang``: the card's colours, type sizes and fonts."""
    return {
        "font.family": font_families(lang),
        "font.size": TICK_PT,
        "axes.titlesize": TITLE_PT,
        "axes.labelsize": LABEL_PT,
        "xtick.labelsize": TICK_PT,
        "ytick.labelsize": TICK_PT,
        "legend.fontsize": TICK_PT,
        "figure.facecolor": BG,
        "axes.facecolor": BG,
        "savefig.facecolor": BG,
        "text.color": FG,
        "axes.labelcolor": FG,
        "axes.edgecolor": GRID,
        "xtick.color": FG,
        "ytick.color": FG,
        "grid.color": GRID,
        "grid.linewidth": 1.0,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "legend.frameon": False,
        "axes.axisbelow": True,
        "text.parse_math": False,  # "$2,200 … $71" is money, not mathtext
    }
