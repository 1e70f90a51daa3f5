"""What the store needs from exchange rates: ``engine.money.ExchangeRates`` fits, and so does a test double."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.money import Money

Convert = Callable[[Money, str], Money]


class Rates(Protocol):
    def supports(self, currency: str) -> bool: ...

    def convert(self, money: Money, to: str) -> Money: ...


def known_currencies(rates: Rates) -> str:
    """"USD, AUD, CAD, …" for error messages."""
    codes = sorted(getattr(rates, "per_usd", {}))
    return ", ".join(["USD", *codes])


def default_rates() -> Rates:
    from engine.money import exchange_rates

    return exchange_rates()
