"""Guild settings: defaults for unknown servers, a round trip, validation, reset, and the AdviceContext."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from bot.store import GuildSettings, InvalidValue, StoreError, advice_context
from engine.cost import PriceQuote


async def test_unknown_guild_and_dm_get_defaults(store):
    unknown = await store.settings.get(123)
    assert unknown.guild_id == 123 and unknown.currency == "USD" and unknown.electricity_per_kwh == Decimal("0.12")
    assert unknown.locale is None and unknown.advice_channel_id is None and unknown.use_community_prices is False
    assert unknown.explicit == frozenset() and unknown.updated_at is None
    assert (await store.settings.get(None)).guild_id is None


async def test_round_trip_every_field(backend, store):
    guild = 2**62 + 5  # Discord snowflakes need BIGINT
    saved = await store.settings.set(
        guild,
        by=77,
        currency="eur",
        electricity_per_kwh=Decimal("0.3125"),
        locale="zh-Hant",
        advice_channel_id=2**60 + 1,
        use_community_prices=True,
    )
    again = await (await backend.open()).settings.get(guild)  # a second process sees the same
    for got in (saved, again):
        assert got.currency == "EUR" and got.electricity_per_kwh == Decimal("0.3125")
        assert got.locale == "zh-Hant" and got.advice_channel_id == 2**60 + 1 and got.use_community_prices is True
        assert got.updated_by == 77 and got.updated_at == backend.clock.now
        assert got.explicit == {
            "currency",
            "electricity_per_kwh",
            "locale",
            "advice_channel_id",
            "use_community_prices",
        }
    assert (await store.settings.get(guild + 1)).currency == "USD"  # other servers untouched


async def test_partial_updates_keep_other_fields_and_reset_restores_defaults(store):
    await store.settings.set(1, locale="en", use_community_prices=True)
    await store.settings.set(1, advice_channel_id=99)
    got = await store.settings.get(1)
    assert (got.locale, got.use_community_prices, got.advice_channel_id) == ("en", True, 99)
    got = await store.settings.reset(1, "locale")
    assert got.locale is None and got.use_community_prices is True
    got = await store.settings.reset(1)
    assert got.explicit == frozenset() and got.advice_channel_id is None and got.use_community_prices is False


async def test_changing_currency_keeps_the_real_electricity_price(store):
    # Not set: the default 0.12 USD shows in the server's currency.
    got = await store.settings.set(5, currency="EUR")
    assert got.electricity_per_kwh == Decimal("0.1046")  # 0.12 × 0.87138
    # Set explicitly in EUR, then switched to JPY: converted, not reinterpreted.
    await store.settings.set(6, currency="EUR", electricity_per_kwh="0.30")
    got = await store.settings.set(6, currency="JPY")
    assert got.currency == "JPY" and Decimal(54) < got.electricity_per_kwh < Decimal(55)


async def test_defaults_come_from_the_bot(backend):
    store = await backend.open(guild_defaults=GuildSettings(currency="TWD", electricity_per_kwh=Decimal("3.5")))
    got = await store.settings.get(1)
    assert (got.currency, got.electricity_per_kwh) == ("TWD", Decimal("3.5"))


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"currency": "XYZ"}, "unknown currency"),
        ({"currency": "'; DROP TABLE guild_settings;--"}, "unknown currency"),
        ({"electricity_per_kwh": "-1"}, "zero or more"),
        ({"electricity_per_kwh": "abc"}, "must be a number"),
        ({"electricity_per_kwh": "NaN"}, "zero or more"),
        ({"electricity_per_kwh": "500"}, "over 100 USD/kWh"),
        ({"locale": "fr"}, "unknown language"),
        ({"advice_channel_id": -4}, "channel id"),
        ({"use_community_prices": "yes"}, "true or false"),
        ({"colour": "blue"}, "unknown setting"),
    ],
)
async def test_bad_values_are_refused_with_a_message(store, changes, fragment):
    with pytest.raises(InvalidValue, match=fragment) as info:
        await store.settings.set(1, **changes)
    assert isinstance(info.value, StoreError) and isinstance(info.value, ValueError)
    assert (await store.settings.get(1)).explicit == frozenset()  # nothing half-written


async def test_advice_context_from_settings(store):
    quote = PriceQuote(
        gpu_id="rtx-3090", usd=Decimal(700), basis="override", date=store.prices.clock().date(), source="community"
    )
    off = await store.settings.set(1, currency="EUR", electricity_per_kwh=Decimal("0.30"))
    ctx = advice_context(off, price_overrides={"rtx-3090": quote})
    assert ctx.currency == "EUR" and ctx.price_overrides == {}
    assert ctx.electricity_usd_per_kwh == Decimal("0.344281")  # 0.30 / 0.87138
    on = await store.settings.set(1, use_community_prices=True)
    assert advice_context(on, price_overrides={"rtx-3090": quote}).price_overrides == {"rtx-3090": quote}


async def test_concurrent_changes_to_different_fields_are_all_kept(store):
    await store.settings.set(1, locale="en")  # the row exists: every change is a read-modify-write
    await asyncio.gather(
        store.settings.set(1, locale="zh-Hans"),
        store.settings.set(1, advice_channel_id=42),
        store.settings.set(1, use_community_prices=True),
        store.settings.set(1, currency="GBP"),
    )
    got = await store.settings.get(1)
    assert (got.locale, got.advice_channel_id, got.use_community_prices, got.currency) == ("zh-Hans", 42, True, "GBP")


def test_bot_defaults_convert_the_usd_electricity_price():
    assert GuildSettings.bot_defaults("USD", Decimal("0.12")).electricity_per_kwh == Decimal("0.12")
    eur = GuildSettings.bot_defaults("EUR", Decimal("0.12"))
    assert (eur.currency, eur.electricity_per_kwh) == ("EUR", Decimal("0.1046"))


@pytest.mark.parametrize("guild", [None, 0, -1, True])
async def test_settings_without_a_server_are_refused(store, guild):
    with pytest.raises(InvalidValue, match="belong to a server"):
        await store.settings.set(guild, currency="EUR")
    with pytest.raises(InvalidValue, match="belong to a server"):
        await store.settings.reset(guild)
    assert (await store.settings.get(None)).currency == "USD"  # a DM reads the bot's defaults
