"""From stored server settings (and community prices) to the engine's ``AdviceContext``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.store.rates import Rates, default_rates
from bot.store.settings import GuildSettings

if TYPE_CHECKING:  # the engine loads on first use, not when the store is imported (start-up, issue #24)
    from engine.advisor import AdviceContext
    from engine.cost import PriceQuote


def advice_context(
    settings: GuildSettings,
    *,
    price_overrides: Mapping[str, PriceQuote] | None = None,
    snapshot: str | None = None,
    rates: Rates | None = None,
) -> AdviceContext:
    """The engine's context for a server: its currency, its electricity price in USD, community prices.

    ``price_overrides`` is used only when the server turned community prices on.
    """
    from engine.advisor import AdviceContext

    convert = (rates or default_rates()).convert
    return AdviceContext(
        snapshot=snapshot,
        currency=settings.currency,
        electricity_usd_per_kwh=settings.electricity_usd_per_kwh(convert),
        price_overrides=dict(price_overrides or {}) if settings.use_community_prices else {},
    )
