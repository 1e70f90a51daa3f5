"""Money: an amount with its currency, and conversion at dated, sourced exchange rates.

Amounts are ``Decimal`` so that prices round-trip exactly; conversion happens only where two
currencies meet (a budget in EUR against a catalog price in USD), at the rates in
``data/currencies.yaml``, whose date every answer that converts can show.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from functools import cache

from pydantic import Field, field_validator

from engine.datafiles import data_dir, read_yaml, validate_document
from engine.specs import Frozen

# Minor units per currency (ISO 4217); the rest have two.
_ZERO_DECIMAL = {"JPY", "KRW", "TWD", "VND", "IDR", "CLP", "HUF"}


class Money(Frozen):
    amount: Decimal
    currency: str = Field(pattern=r"^[A-Z]{3}$")

    @field_validator("amount", mode="before")
    @classmethod
    def _exact(cls, value: object) -> object:
        # Floats pass through str() so 0.1 stays 0.1 instead of its binary neighbour.
        return Decimal(str(value)) if isinstance(value, float) else value

    def rounded(self) -> Money:
        step = Decimal(1) if self.currency in _ZERO_DECIMAL else Decimal("0.01")
        return Money(amount=self.amount.quantize(step, rounding=ROUND_HALF_UP), currency=self.currency)

    def format(self) -> str:
        """Human form with thousands separators: "$1,200", "€700", "NT$60,000", "12,000 CNY"."""
        symbol = SYMBOLS.get(self.currency)
        value = self.amount
        digits = 0 if value == value.to_integral_value() or self.currency in _ZERO_DECIMAL else 2
        text = f"{value:,.{digits}f}"
        return f"{symbol}{text}" if symbol else f"{text} {self.currency}"

    def __str__(self) -> str:
        return self.format()


SYMBOLS = {
    "USD": "$",
    "EUR": "€",
    "GBP": "£",
    "CAD": "CA$",
    "AUD": "A$",
    "TWD": "NT$",
    "JPY": "¥",
    "CNY": "CN¥",
    "HKD": "HK$",
    "KRW": "₩",
    "INR": "₹",
}


class ExchangeRates(Frozen):
    """Units of each currency per one USD on ``date``."""

    date: dt.date
    source: str
    per_usd: dict[str, Decimal]

    def supports(self, currency: str) -> bool:
        return currency == "USD" or currency in self.per_usd

    def convert(self, money: Money, to: str) -> Money:
        if money.currency == to:
            return money
        for code in (money.currency, to):
            if not self.supports(code):
                raise ValueError(f"no exchange rate for {code}; known: USD, {', '.join(sorted(self.per_usd))}")
        usd = money.amount / self._rate(money.currency)
        return Money(amount=usd * self._rate(to), currency=to)

    def _rate(self, code: str) -> Decimal:
        return Decimal(1) if code == "USD" else self.per_usd[code]


@cache
def exchange_rates() -> ExchangeRates:
    path = data_dir() / "currencies.yaml"
    return validate_document(path, read_yaml(path), ExchangeRates)


def usd(amount: Decimal | int | float | str) -> Money:
    return Money(amount=Decimal(str(amount)), currency="USD")


def local_estimate(amount_usd: Decimal, currency: str, cents: bool = False) -> Money | None:
    """A dollar price shown in another currency ("≈ CN¥5,398", no cents; with ``cents``, an hourly rate's
    "≈ CN¥1.88") at the dated rates; None for dollars and for a currency the rates do not hold."""
    if currency == "USD":
        return None
    rates = exchange_rates()
    if not rates.supports(currency):
        return None
    converted = rates.convert(Money(amount=amount_usd, currency="USD"), currency)
    return Money(amount=converted.amount.quantize(Decimal("0.01") if cents else Decimal(1)), currency=currency)
