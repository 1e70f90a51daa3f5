"""Per-server settings: currency, electricity price, locale, advice channel, community prices.

A server that never set anything gets the defaults (the bot's own settings). A stored NULL also
means "the default", so changing the bot's defaults changes every server that did not choose.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from bot.store.db import Database, utcnow
from bot.store.errors import InvalidValue, given
from bot.store.models import guild_settings
from bot.store.rates import Rates, currency_codes
from engine.money import Money

Locale = Literal["en", "zh-Hant", "zh-Hans"]
LOCALES: tuple[Locale, ...] = ("en", "zh-Hant", "zh-Hans")
FIELDS = ("currency", "electricity_per_kwh", "locale", "advice_channel_id", "use_community_prices")
MICROS = Decimal(1_000_000)
MAX_ELECTRICITY_USD = Decimal(100)


class GuildSettings(BaseModel):
    """One server's settings with the defaults filled in; ``explicit`` names the fields the server set."""

    model_config = ConfigDict(frozen=True)

    guild_id: int | None = None
    currency: str = Field(default="USD", pattern=r"^[A-Z]{3}$")
    electricity_per_kwh: Decimal = Field(default=Decimal("0.12"), ge=0, description="in `currency`")
    locale: Locale | None = Field(default=None, description="None: each user's Discord locale")
    advice_channel_id: int | None = None
    use_community_prices: bool = False
    explicit: frozenset[str] = frozenset()
    updated_at: dt.datetime | None = None
    updated_by: int | None = None

    @classmethod
    def bot_defaults(cls, currency: str, electricity_usd_per_kwh: Decimal, rates: Rates | None = None) -> GuildSettings:
        """The defaults from the bot's Settings (``default_currency``, ``electricity_usd_per_kwh``)."""
        if currency == "USD":
            return cls(currency=currency, electricity_per_kwh=electricity_usd_per_kwh)
        from bot.store.rates import default_rates

        converted = (rates or default_rates()).convert(Money(amount=electricity_usd_per_kwh, currency="USD"), currency)
        return cls(currency=currency, electricity_per_kwh=converted.amount.quantize(Decimal("0.0001")))

    def electricity_usd_per_kwh(self, convert: Callable[[Money, str], Money]) -> Decimal:
        usd = convert(Money(amount=self.electricity_per_kwh, currency=self.currency), "USD").amount
        return usd.quantize(Decimal("0.000001"))


def _server(guild_id: object) -> None:
    """Settings are a server's: a DM (None) or a non-id is refused before anything is written."""
    if isinstance(guild_id, bool) or not isinstance(guild_id, int) or guild_id <= 0:
        raise InvalidValue("store.error.settings_no_server")


class GuildSettingsRepository:
    def __init__(
        self,
        db: Database,
        rates: Rates,
        defaults: GuildSettings | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.db = db
        self.rates = rates
        self.defaults = defaults or GuildSettings()
        self.clock = clock

    async def get(self, guild_id: int | None) -> GuildSettings:
        """This server's settings; the defaults for an unknown server or a DM (``guild_id`` None)."""
        if guild_id is None:
            return self.defaults
        async with self.db.read() as conn:
            row = (await conn.execute(select(guild_settings).where(guild_settings.c.guild_id == guild_id))).first()
        return self._merge(guild_id, row._mapping if row else None)

    async def set(self, guild_id: int, *, by: int | None = None, **changes: Any) -> GuildSettings:
        """Change some fields, e.g. ``set(g, currency="EUR", electricity_per_kwh=Decimal("0.30"))``.

        Raises :class:`InvalidValue` with a user-facing message for a bad value. Fields not named
        keep their value; :meth:`reset` returns fields to the defaults.
        """
        _server(guild_id)
        unknown = set(changes) - set(FIELDS)
        if unknown:
            raise InvalidValue("store.error.unknown_settings", names=tuple(sorted(unknown)), known=FIELDS)
        async with self.db.write() as conn:
            await self.db.lock(conn, "guild_settings", guild_id)  # read-modify-write: one writer per server
            row = (await conn.execute(select(guild_settings).where(guild_settings.c.guild_id == guild_id))).first()
            stored = dict(row._mapping) if row else {"guild_id": guild_id}
            current = self._merge(guild_id, stored)
            values = self._validate(current, changes)
            stored.update(values, updated_at=self.clock(), updated_by=by)
            await self._save(conn, stored)
        return self._merge(guild_id, stored)

    async def reset(self, guild_id: int, *fields: str, by: int | None = None) -> GuildSettings:
        """Back to the defaults: the named fields, or all of them."""
        _server(guild_id)
        names = fields or FIELDS
        unknown = set(names) - set(FIELDS)
        if unknown:
            raise InvalidValue("store.error.unknown_settings", names=tuple(sorted(unknown)), known=FIELDS)
        columns = {"electricity_micros" if n == "electricity_per_kwh" else n: None for n in names}
        async with self.db.write() as conn:
            await self.db.lock(conn, "guild_settings", guild_id)  # read-modify-write: one writer per server
            row = (await conn.execute(select(guild_settings).where(guild_settings.c.guild_id == guild_id))).first()
            stored = dict(row._mapping) if row else {"guild_id": guild_id}
            stored.update(columns, updated_at=self.clock(), updated_by=by)
            await self._save(conn, stored)
        return self._merge(guild_id, stored)

    async def _save(self, conn: Any, stored: dict[str, Any]) -> None:
        upsert = self.db.upsert(guild_settings, ("guild_id",), tuple(k for k in stored if k != "guild_id"))
        await conn.execute(upsert, stored)

    def _validate(self, current: GuildSettings, changes: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        currency = current.currency
        if "currency" in changes:
            currency = str(changes["currency"] or "").strip().upper()
            if not self.rates.supports(currency) or len(currency) != 3:
                raise InvalidValue(
                    "store.error.unknown_currency", given=given(changes["currency"]), known=currency_codes(self.rates)
                )
            out["currency"] = currency
        if "electricity_per_kwh" in changes or "currency" in changes:
            raw = changes.get("electricity_per_kwh")
            if raw is None:  # a new currency: the same real price, in that currency
                raw = self._in(current.electricity_per_kwh, current.currency, currency)
                if "electricity_per_kwh" in current.explicit:
                    changes = {**changes, "electricity_per_kwh": raw}
            try:
                price = Decimal(str(raw).strip())
            except (InvalidOperation, ValueError):
                raise InvalidValue("store.error.electricity.not_number", given=given(raw)) from None
            if not price.is_finite() or price < 0:
                raise InvalidValue("store.error.electricity.negative", value=str(raw))
            usd = self.rates.convert(Money(amount=price, currency=currency), "USD").amount
            if usd > MAX_ELECTRICITY_USD:
                raise InvalidValue("store.error.electricity.too_high", price=price, currency=currency)
            if "electricity_per_kwh" in changes:
                out["electricity_micros"] = int((price * MICROS).to_integral_value())
        if "locale" in changes:
            locale = changes["locale"]
            if locale is not None and locale not in LOCALES:
                raise InvalidValue("store.error.unknown_language", given=given(locale), choices=LOCALES)
            out["locale"] = locale
        if "advice_channel_id" in changes:
            channel = changes["advice_channel_id"]
            if channel is not None and (isinstance(channel, bool) or not isinstance(channel, int) or channel <= 0):
                raise InvalidValue("store.error.advice_channel", given=given(channel))
            out["advice_channel_id"] = channel
        if "use_community_prices" in changes:
            flag = changes["use_community_prices"]
            if not isinstance(flag, bool):
                raise InvalidValue("store.error.community_prices", given=given(flag))
            out["use_community_prices"] = flag
        return out

    def _in(self, price: Decimal, currency: str, to: str) -> Decimal:
        if currency == to:
            return price
        return self.rates.convert(Money(amount=price, currency=currency), to).amount.quantize(Decimal("0.0001"))

    def _merge(self, guild_id: int, row: Any) -> GuildSettings:
        if row is None:
            return self.defaults.model_copy(update={"guild_id": guild_id})
        values: dict[str, Any] = {}
        if row.get("currency") is not None:
            values["currency"] = row["currency"]
        if row.get("electricity_micros") is not None:
            values["electricity_per_kwh"] = (Decimal(row["electricity_micros"]) / MICROS).normalize()
        for name in ("locale", "advice_channel_id", "use_community_prices"):
            if row.get(name) is not None:
                values[name] = row[name]
        explicit = frozenset(values)
        currency = values.get("currency", self.defaults.currency)
        if "electricity_per_kwh" not in values and currency != self.defaults.currency:
            default = self.defaults
            values["electricity_per_kwh"] = self._in(default.electricity_per_kwh, default.currency, currency)
        return self.defaults.model_copy(
            update={
                **values,
                "guild_id": guild_id,
                "explicit": explicit,
                "updated_at": row.get("updated_at"),
                "updated_by": row.get("updated_by"),
            }
        )
