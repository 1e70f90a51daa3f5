""" "Should I wait for the next generation?" — the guide's answer, with today's facts beside it.

The guide (2023, "Do I need to wait for the RTX 50 series?") says improvements now come from special
logic and lower precision, not from smaller transistors, and that an 8-bit-capable GPU is a solid buy
for years. What a user needs next to that is what the guide could not know: which generation is on
sale now, whether the card they name is of it, whether it has FP8 Tensor Cores, and where its price
went over the last year of our dated snapshots. This module gathers those facts as messages; it
guesses nothing about unreleased cards.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict

from engine.catalog import load_catalog
from engine.cost import PriceCondition, PriceQuote, price_history
from engine.message import Msg, msg
from engine.specs import Gpu

TREND_DAYS = 365  # how far back a price trend looks: one year of monthly snapshots


class Generation(BaseModel):
    """The newest NVIDIA desktop GeForce generation in the catalog: what is on sale today."""

    model_config = ConfigDict(frozen=True)

    architecture: str
    year: int
    example_gpu_id: str


class CardNow(BaseModel):
    """One named card against today's market."""

    model_config = ConfigDict(frozen=True)

    gpu_id: str
    architecture: str
    release_year: int
    fp8: bool
    newest: bool
    then: PriceQuote | None = None
    now: PriceQuote | None = None

    @property
    def change(self) -> float | None:
        """The price's relative change over the trend window, or None without two prices."""
        if self.then is None or self.now is None or self.then.date == self.now.date:
            return None
        return float((self.now.usd - self.then.usd) / self.then.usd)


def newest_generation() -> Generation:
    """The latest architecture of NVIDIA's desktop consumer cards (GeForce) the catalog holds."""
    catalog = load_catalog()
    cards = [
        g
        for g in catalog.gpus.values()
        if g.vendor == "nvidia" and g.gpu_class == "consumer" and g.platform == "desktop" and g.has_tensor_cores
    ]
    top = max(cards, key=lambda g: (catalog.architecture(g.id).year, g.release_year, g.memory_gb))
    arch = catalog.architecture(top.id)
    return Generation(architecture=arch.name, year=top.release_year, example_gpu_id=top.id)


def card_now(gpu: Gpu, newest: Generation, snapshot: str | None, condition: PriceCondition | None) -> CardNow:
    """The card's generation, FP8 support and its price a year ago and now (same basis)."""
    arch = load_catalog().architecture(gpu.id)
    history = price_history(gpu.id, snapshot=snapshot, condition=condition, within_days=TREND_DAYS)
    return CardNow(
        gpu_id=gpu.id,
        architecture=arch.name,
        release_year=gpu.release_year,
        fp8=arch.features.fp8,
        newest=arch.name == newest.architecture,
        then=history[0] if len(history) > 1 else None,
        now=history[-1] if history else None,
    )


def wait_messages(
    gpu_ids: tuple[str, ...], *, snapshot: str | None = None, condition: PriceCondition | None = None
) -> tuple[Msg, tuple[Msg, ...]]:
    """The verdict and the facts behind it, as messages: (headline, notes)."""
    newest = newest_generation()
    catalog = load_catalog()
    notes: list[Msg] = [
        msg(
            "advice.wait.newest",
            architecture=newest.architecture,
            year=newest.year,
            gpu=catalog.get(newest.example_gpu_id).short_name,
        )
    ]
    cards = [card_now(catalog.get(g), newest, snapshot, condition) for g in gpu_ids[:4]]
    for card in cards:
        name = catalog.get(card.gpu_id).short_name
        key = "advice.wait.card.newest" if card.newest else "advice.wait.card.older"
        notes.append(msg(key, gpu=name, architecture=card.architecture, year=card.release_year))
        notes.append(msg("advice.wait.fp8.yes" if card.fp8 else "advice.wait.fp8.no", gpu=name))
        change = card.change
        if change is not None and card.then is not None and card.now is not None:
            notes.append(
                msg(
                    "advice.wait.trend",
                    gpu=name,
                    then_usd=_whole(card.then.usd),
                    then_date=card.then.date,
                    now_usd=_whole(card.now.usd),
                    now_date=card.now.date,
                    change=change,
                    basis=card.now.basis_message(),
                )
            )
    if not cards:
        headline = msg("advice.wait.headline.general")
    elif all(c.fp8 for c in cards):
        headline = msg("advice.wait.headline.buy", gpus=tuple(catalog.get(c.gpu_id).short_name for c in cards))
    else:
        without = tuple(catalog.get(c.gpu_id).short_name for c in cards if not c.fp8)
        headline = msg("advice.wait.headline.no_fp8", gpus=without)
    return headline, tuple(notes)


def _whole(usd: Decimal) -> float:
    return float(usd.quantize(Decimal(1)))
