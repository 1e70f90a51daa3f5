"""Price reports: hostile input, the daily limit, concurrent writers, moderation, and the summary."""

from __future__ import annotations

import asyncio
import datetime as dt
from decimal import Decimal

import pytest

from bot.store import InvalidValue, LimitReached, NotFound, StoreError
from engine.money import Money, exchange_rates

GPU = "rtx-3090"


def report(store, user=1, amount="700", currency="USD", condition="used", where="eBay", guild=10, gpu=GPU, **kw):
    return store.prices.report(guild, user, gpu, amount, currency, condition, where, **kw)


# ---- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "where",
    [
        "'; DROP TABLE price_reports; --",
        "Robert'); DELETE FROM feedback WHERE ('1'='1",
        "1 OR 1=1 /* */ UNION SELECT * FROM guild_settings",
        "<@everyone> @here **bold** `code`",
        "二手 閒魚 ¥ 5,000 🚀",
        "$1 \\x00 %s %(name)s :param ?",
    ],
)
async def test_sql_looking_text_is_just_text(store, where):
    saved = await report(store, where=where)
    assert saved.where == where
    assert (await store.prices.get(saved.id)).where == where
    assert len(await store.prices.recent()) == 1  # nothing else happened to the table


async def test_where_is_trimmed_and_control_characters_flattened(store):
    saved = await report(store, where="  Micro\x00Center\n\t Tustin  ")
    assert saved.where == "Micro Center Tustin"


@pytest.mark.parametrize(
    ("where", "fragment"),
    [
        ("x" * 10_000, "limited to 200 characters (yours has 10,000)"),
        ("y" * 201, "limited to 200"),
        ("\ud800 lone surrogate", "not valid text"),
    ],
)
async def test_bad_where_is_refused(store, where, fragment):
    with pytest.raises(InvalidValue, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        await report(store, where=where)
    assert await store.prices.recent() == []


async def test_where_is_optional(store):
    assert (await report(store, where="   \n\t ")).where == ""


async def test_where_of_exactly_200_characters_after_trimming_is_fine(store):
    assert len((await report(store, where="  " + "z" * 200 + "  ")).where) == 200


@pytest.mark.parametrize(
    ("amount", "currency", "fragment"),
    [
        ("-700", "USD", "more than zero"),
        (0, "USD", "more than zero"),
        ("0.50", "USD", "less than 1 USD"),
        ("99", "JPY", "less than 1 USD"),
        ("1000001", "USD", "over 1,000,000 USD"),
        ("1e300", "USD", "over 1,000,000 USD"),
        ("NaN", "USD", "finite"),
        ("Infinity", "USD", "finite"),
        ("seven hundred", "USD", "must be a number"),
        ("700; DROP TABLE price_reports", "USD", "must be a number"),
        (True, "USD", "must be a number"),
        ("700", "XYZ", "unknown currency"),
        ("700", "usdollars", "unknown currency"),
        ("700", "", "unknown currency"),
        ("700", None, "unknown currency"),
    ],
)
async def test_bad_amounts_and_currencies_are_refused(store, amount, currency, fragment):
    with pytest.raises(InvalidValue, match=fragment):
        await report(store, amount=amount, currency=currency)
    assert await store.prices.recent() == []


async def test_other_bad_fields(store, clock):
    cases = [
        ({"condition": "broken"}, "'new' or 'used'"),
        ({"gpu": "rtx-9999-ultra"}, "unknown GPU"),
        ({"gpu": "../../etc/passwd"}, "unknown GPU"),
        ({"reported_at": clock.now + dt.timedelta(days=1)}, "future"),
        ({"reported_at": clock.now - dt.timedelta(days=400)}, "more than a year"),
    ]
    for change, fragment in cases:
        with pytest.raises(StoreError, match=fragment):
            await report(store, **change)


async def test_amounts_are_exact_and_normalised(store):
    saved = await report(store, amount="1,234.565", currency=" eur ", condition=" NEW ", gpu=" RTX-3090 ")
    assert saved.price == Money(amount=Decimal("1234.57"), currency="EUR")
    assert (saved.condition, saved.gpu_id) == ("new", GPU)
    yen = await report(store, user=2, amount=98765, currency="JPY")
    assert (await store.prices.get(yen.id)).price == Money(amount=Decimal(98765), currency="JPY")


# ---- limits and concurrency -------------------------------------------------------------------


async def test_at_most_three_reports_per_gpu_per_user_per_day(store, clock):
    for n in range(3):
        await report(store, amount=700 + n)
    with pytest.raises(LimitReached, match="at most 3 prices for rtx-3090 a day; try again after 2026-12-01 12:00"):
        await report(store)
    await report(store, gpu="rtx-4090", amount=1800)  # another GPU is fine
    await report(store, user=2)  # another user is fine
    clock.advance(hours=23, minutes=59)
    with pytest.raises(LimitReached):
        await report(store)
    clock.advance(minutes=2)
    await report(store)


async def test_the_limit_is_configurable(backend):
    store = await backend.open(daily_report_limit=1)
    await report(store)
    with pytest.raises(LimitReached, match="at most 1 prices"):
        await report(store)


async def test_many_concurrent_reports_lose_nothing(store):
    gpus = ["rtx-3090", "rtx-4090", "rtx-3080-10gb", "rtx-3060-12gb"]
    calls = [
        report(store, user=1000 + u, gpu=g, amount=500 + u + i, guild=1 + u % 3)
        for u in range(50)
        for i, g in enumerate(gpus)
    ]
    saved = await asyncio.gather(*calls)
    assert len(saved) == 200 and len({r.id for r in saved}) == 200
    stored = await store.prices.recent(limit=500)
    assert {r.id for r in stored} == {r.id for r in saved}


async def test_concurrent_reports_by_one_user_respect_the_limit(store):
    outcomes = await asyncio.gather(*(report(store, amount=700 + n) for n in range(10)), return_exceptions=True)
    assert sum(not isinstance(o, Exception) for o in outcomes) == 3
    assert all(isinstance(o, LimitReached) for o in outcomes if isinstance(o, Exception))
    assert len(await store.prices.recent()) == 3


# ---- moderation -------------------------------------------------------------------------------


async def test_moderator_removal_records_who_and_why(store, clock):
    keep = [await report(store, user=u, amount=700) for u in (1, 2, 3)]
    bad = await report(store, user=4, amount=705, where="spam")
    clock.advance(minutes=5)
    removed = await store.prices.remove(bad.id, moderator_id=99, reason="  spam\nbot ", guild_id=10)
    assert (removed.removed_by, removed.removal_reason, removed.removed_at) == (99, "spam bot", clock.now)
    assert [r.id for r in await store.prices.recent()] == [r.id for r in reversed(keep)]
    assert (await store.prices.recent(include_removed=True))[0].id == bad.id
    summary = await store.prices.price_summary(GPU, 10)
    assert summary.guild.count == 3 and bad.id not in {e.id for e in summary.guild.excluded}
    with pytest.raises(NotFound, match="already removed"):
        await store.prices.remove(bad.id, moderator_id=99)
    with pytest.raises(NotFound, match="in this server"):  # another server's moderator
        await store.prices.remove(keep[0].id, moderator_id=98, guild_id=11)
    with pytest.raises(NotFound):
        await store.prices.remove(123456, moderator_id=99)
    # Removal does not give the user their daily reports back.
    await report(store, user=4)
    await report(store, user=4)
    with pytest.raises(LimitReached):
        await report(store, user=4)


# ---- summaries --------------------------------------------------------------------------------


async def test_summary_median_window_and_date_range(store, clock):
    start = clock.now
    amounts = {1: 700, 2: 720, 3: 690, 4: 750, 5: 710, 6: 705, 7: 730}
    for user, amount in amounts.items():
        await report(store, user=user, amount=amount, reported_at=start - dt.timedelta(days=user * 2))
    await report(store, user=8, amount=900, reported_at=start - dt.timedelta(days=61))  # outside the window
    await report(store, user=9, amount=710, guild=11)  # another server
    summary = await store.prices.price_summary(GPU, 10, now=start)
    assert summary.guild.median == Money(amount=Decimal(710), currency="USD")
    assert (summary.guild.count, summary.guild.reports) == (7, 7)
    assert (summary.guild.first, summary.guild.last) == (dt.date(2026, 11, 16), dt.date(2026, 11, 28))
    assert summary.guild.describe() == "median of 7 reports in this server, 16–28 Nov"
    assert (await store.prices.price_summary(GPU, 11, now=start)).guild.count == 1  # the other server's own
    # A window of 11 days keeps users 1–5 (2–10 days ago).
    short = await store.prices.price_summary(GPU, 10, now=start, window_days=11)
    assert short.guild.count == 5 and short.guild.median.amount == Decimal(710)
    # Without a server there is nothing to summarise.
    assert (await store.prices.price_summary(GPU, None, now=start)).guild is None


async def test_summary_converts_currencies_with_the_callers_function(store):
    await report(store, user=1, amount="700", currency="USD")
    await report(store, user=2, amount="609.97", currency="EUR")  # ≈ 700 USD
    await report(store, user=3, amount="111531", currency="JPY")  # = 700 USD
    rates = exchange_rates()
    summary = await store.prices.price_summary(GPU, 10, convert=rates.convert, currency="EUR")
    assert summary.currency == "EUR" and summary.guild.count == 3
    assert abs(summary.guild.median.amount - Decimal("609.97")) < Decimal("0.02")
    calls = []

    def fixed(money, to):
        calls.append((money.currency, to))
        return Money(amount=Decimal(1), currency=to)

    assert (await store.prices.price_summary(GPU, 10, convert=fixed)).guild.median.amount == 1
    assert ("JPY", "USD") in calls


async def test_outliers_are_left_out_and_listed(store):
    normal = [await report(store, user=u, amount=a) for u, a in enumerate([700, 720, 690, 710, 730], start=1)]
    low = await report(store, user=6, amount=5)
    high = await report(store, user=7, amount=25_000)
    summary = await store.prices.price_summary(GPU, 10)
    g = summary.guild
    assert g.median.amount == Decimal(710) and g.count == 5 and g.reports == 7
    assert {(e.id, e.reason) for e in g.excluded} == {(low.id, "outlier"), (high.id, "outlier")}
    assert {e.id for e in g.outliers} == {low.id, high.id}
    assert g.describe().endswith("(2 outliers left out)")
    assert all(r.id not in {e.id for e in g.excluded} for r in normal)


async def test_one_user_cannot_move_the_median_alone(store, clock):
    for user, amount in enumerate([700, 710, 720, 730, 740], start=1):
        await report(store, user=user, amount=amount)
    before = (await store.prices.price_summary(GPU, 10)).guild
    # User 66 reports three low prices a day for three days (all plausible, none outliers).
    attacker = []
    for _ in range(3):
        for _ in range(3):
            attacker.append(await report(store, user=66, amount=620))
            clock.advance(minutes=1)
        clock.advance(hours=24)
    after = (await store.prices.price_summary(GPU, 10)).guild
    assert before.median.amount == Decimal(720)
    assert after.median.amount == Decimal(715)  # one voice: the median moves one position at most
    superseded = {e.id for e in after.excluded if e.reason == "superseded"}
    assert superseded == {r.id for r in attacker[:-1]} and after.count == 6
    # The same user with an absurd value is simply an outlier.
    clock.advance(hours=24)
    await report(store, user=66, amount=50)
    assert (await store.prices.price_summary(GPU, 10)).guild.median.amount == Decimal(720)


async def test_condition_filter_and_empty_summaries(store):
    for user in (1, 2, 3):
        await report(store, user=user, amount=1500, condition="new")
        await report(store, user=user, amount=700, condition="used")
    used = await store.prices.price_summary(GPU, 10, condition="used")
    assert used.guild.median.amount == 700 and used.guild.count == 3
    new = await store.prices.price_summary(GPU, 10, condition="new")
    assert new.guild.median.amount == 1500
    nothing = await store.prices.price_summary("rtx-4090", 10)
    assert nothing.guild.median is None and nothing.guild.count == 0
    assert nothing.best() is None and nothing.quote() is None
    assert nothing.guild.describe() == "no reports in this server"


async def test_price_overrides_are_this_servers_alone(store, clock):
    for user in (1, 2, 3):
        await report(store, user=user, amount=650, guild=10)  # this server: 3 reporters
        await report(store, user=user, gpu="rtx-4090", amount=1700, guild=20)  # elsewhere only
    await report(store, user=4, gpu="rtx-3080-10gb", amount=500, guild=10)  # too few reporters
    overrides = await store.prices.price_overrides(10)
    assert set(overrides) == {"rtx-3090"}  # no fallback to other servers' medians
    q = overrides["rtx-3090"]
    assert (q.usd, q.basis, q.date) == (Decimal(650), "override", clock.now.date())
    assert "in this server" in q.source and "community" in q.source
    assert set(await store.prices.price_overrides(20)) == {"rtx-4090"}
    assert set(await store.prices.price_overrides(10, min_reports=4)) == set()
    assert await store.prices.price_overrides(None) == {}
    summaries = await store.prices.summaries(10)
    assert set(summaries) == {"rtx-3080-10gb", "rtx-3090"}
    assert await store.prices.summaries(None) == {}
    with pytest.raises(ValueError, match="in USD"):
        (await store.prices.price_summary(GPU, 10, currency="EUR")).quote()


# ---- no trust across servers ------------------------------------------------------------------


@pytest.mark.parametrize("guild", [None, 0, -5, True, "10"])
async def test_a_report_without_a_server_is_refused(store, guild):
    """A DM belongs to no server: its report would count nowhere, or (as it once did) everywhere."""
    with pytest.raises(InvalidValue, match="belong to a server"):
        await report(store, guild=guild)
    assert await store.prices.recent(include_removed=True) == []


async def test_a_throwaway_server_cannot_poison_another(store, clock):
    """Issue 23: three fresh accounts in a throwaway server report an RTX 4090 at ¥990,000 (≈ $6,214).
    The victim server, with one honest report, keeps the catalog price (no override), its one report
    is never left out as an outlier, and its /price show reads the same as before."""
    honest = await report(store, user=1, gpu="rtx-4090", amount=1799, guild=10)
    before = await store.prices.price_summary("rtx-4090", 10)
    before_overrides = await store.prices.price_overrides(10, min_reports=1)
    for attacker in (901, 902, 903):
        await report(store, user=attacker, gpu="rtx-4090", amount=990_000, currency="JPY", guild=666)
    for spam_server in range(1000, 1020):  # many servers do not make a pool either
        await report(store, user=spam_server, gpu="rtx-4090", amount=990_000, currency="JPY", guild=spam_server)
    after = await store.prices.price_summary("rtx-4090", 10)
    assert after == before
    assert after.guild.count == 1 and after.guild.excluded == () and after.guild.median.amount == Decimal(1799)
    assert await store.prices.price_overrides(10) == {}  # fewer than 3 reporters: the catalog price stays
    assert await store.prices.price_overrides(10, min_reports=1) == before_overrides
    assert before_overrides["rtx-4090"].usd == Decimal(1799)
    assert honest.id not in {e.id for e in after.guild.excluded}
    poisoned = await store.prices.price_overrides(666)  # the throwaway server only fools itself
    assert poisoned["rtx-4090"].usd > 6000
