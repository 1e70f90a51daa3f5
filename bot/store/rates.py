"""What the store needs from exchange rates: ``engine.money.ExchangeRates`` fits, and so does a test double."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.money import Money

Convert = Callable[[Money, str], Money]


class Rates(Protocol):
    def supports(self, currency: str) -> bool: ...

    def convert(self, money: Money, to: str) -> Money: ...


def currency_codes(rates: Rates) -> tuple[str, ...]:
    """("USD", "AUD", "CAD", …): the codes an error message lists (joined the user's language's way)."""
    return ("USD", *sorted(getattr(rates, "per_usd", {})))


def known_currencies(rates: Rates) -> str:
    """ "USD, AUD, CAD, …" as English text."""
    return ", ".join(currency_codes(rates))


def default_rates() -> Rates:
    from engine.money import exchange_rates

    return exchange_rates()
