"""Community price reports: validated on the way in, summarised robustly on the way out.

A report is one user's "I saw an RTX 3090 for €700, used, at <where>", made in a server. Community
prices are per server: a server's summary is built from the reports made in it and nothing else,
so no other server — however many accounts it has — can move, outvote or filter out a server's
own reports. Reports from a DM are refused (a DM belongs to no server). The summary of a GPU's
recent reports in a server is a median that no single user can move alone and that ignores
absurd values:

1. Window: reports made in this server with ``reported_at`` in (now − window_days, now], not
   removed by a moderator, for this GPU (and condition, when asked).
2. Every amount is converted to one currency with the caller's ``convert`` (exact Decimals).
3. One user, one voice: only each user's latest report counts; their older ones are "superseded".
4. Outliers (at least 3 users): with m the median and MAD the median absolute deviation of the
   per-user values, a value is left out when |x − m| > 3.5 × max(1.4826 × MAD, 0.05 × m). The
   floor (5 % of the median) keeps a tight cluster from making any small difference an outlier:
   values within ±17.5 % of the median are always kept.
5. The price is the median of what is left, rounded to hundredths.

Steps 3 and 4 mean one user moves the median by at most one position among the reporters, and
an absurd report by one user is left out altogether. There is no cross-server pool: an earlier
version fell back to the median of all servers when a server had fewer than 3 reporters, which
let three fresh accounts in a throwaway server set every such server's prices (and have the outlier
rule drop the victim's one honest report).
"""

from __future__ import annotations

import datetime as dt
import re
import statistics
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import and_, func, select, update

from bot.store.db import Database, as_utc, utcnow
from bot.store.errors import InvalidValue, LimitReached, NotFound, given
from bot.store.models import price_reports
from bot.store.rates import Convert, Rates, currency_codes
from engine.message import msg
from engine.money import Money

if TYPE_CHECKING:  # engine.cost (and numpy) loads on first use, not when the store is imported (issue #24)
    from engine.cost import PriceQuote

Condition = Literal["new", "used"]
Scope = Literal["guild", "global"]
HUNDRED = Decimal(100)
CENT = Decimal("0.01")
MIN_USD = Decimal(1)
MAX_USD = Decimal(1_000_000)
WHERE_MAX = 200
REASON_MAX = 200
DAILY_LIMIT = 3
LIMIT_PERIOD = dt.timedelta(hours=24)
MAX_AGE = dt.timedelta(days=365)
FUTURE_SLACK = dt.timedelta(minutes=5)
WINDOW_DAYS = 60
MIN_REPORTERS = 3
MAD_SCALE = Decimal("1.4826")
MAD_CUTOFF = Decimal("3.5")
MAD_FLOOR = Decimal("0.05")
GPU_ID = re.compile(r"^[a-z0-9][a-z0-9._+-]{0,63}$")
RULE = (
    "median of each reporter's latest report in the window; reports with |x − median| > "
    "3.5 × max(1.4826 × MAD, 5% of median) left out as outliers"
)


class PriceReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int | None
    user_id: int
    gpu_id: str
    price: Money
    condition: Condition
    where: str
    reported_at: dt.datetime
    created_at: dt.datetime
    removed_at: dt.datetime | None = None
    removed_by: int | None = None
    removal_reason: str | None = None


class ExcludedReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    user_id: int
    price: Money = Field(description="as reported")
    converted: Decimal = Field(description="in the summary's currency")
    reason: Literal["outlier", "superseded"]


class ScopeSummary(BaseModel):
    """The median of one scope (this server, or everywhere) and how it was reached."""

    model_config = ConfigDict(frozen=True)

    scope: Scope
    median: Money | None = Field(description="None when no report counts")
    count: int = Field(description="reports in the median: one per reporter")
    reports: int = Field(description="reports in the window before exclusions")
    first: dt.date | None = None
    last: dt.date | None = None
    excluded: tuple[ExcludedReport, ...] = ()

    @property
    def outliers(self) -> tuple[ExcludedReport, ...]:
        return tuple(e for e in self.excluded if e.reason == "outlier")

    def date_range(self) -> str:
        return date_range(self.first, self.last)

    def describe(self) -> str:
        """E.g. "median of 7 reports in this server, 12–30 Nov (1 outlier left out)"."""
        if self.median is None:
            return "no reports in this server" if self.scope == "guild" else "no reports"
        where = "in this server" if self.scope == "guild" else "from all servers"
        noun = "report" if self.count == 1 else "reports"
        text = f"median of {self.count} {noun} {where}, {self.date_range()}"
        if self.outliers:
            n = len(self.outliers)
            text += f" ({n} outlier{'s' if n > 1 else ''} left out)"
        return text


class PriceSummary(BaseModel):
    """Everything the bot says about a GPU's community price in one server."""

    model_config = ConfigDict(frozen=True)

    gpu_id: str
    currency: str
    condition: Condition | None
    window_days: int
    since: dt.datetime
    until: dt.datetime
    guild: ScopeSummary | None = Field(description="None without a server (a DM): there is nothing to summarise")
    rule: str = RULE

    def best(self, min_reports: int = MIN_REPORTERS) -> ScopeSummary | None:
        """This server's median when it has ``min_reports`` reporters, else None (the catalog price stays)."""
        scope = self.guild
        if scope is not None and scope.median is not None and scope.count >= min_reports:
            return scope
        return None

    def quote(self, min_reports: int = MIN_REPORTERS) -> PriceQuote | None:
        """A ``PriceQuote`` for ``AdviceContext.price_overrides`` (summaries in USD only)."""
        scope = self.best(min_reports)
        if scope is None or scope.median is None or scope.last is None:
            return None
        if self.currency != "USD":
            raise ValueError("price overrides are in USD: summarise with currency='USD'")
        from engine.cost import PriceQuote

        kind = f"{self.condition} " if self.condition else ""
        return PriceQuote(
            gpu_id=self.gpu_id,
            usd=scope.median.amount,
            basis="override",
            date=scope.last,
            source=f"community {kind}prices: {scope.describe()}",
        )


def date_range(first: dt.date | None, last: dt.date | None) -> str:
    """ "12–30 Nov", "28 Oct – 3 Nov", "30 Dec 2025 – 2 Jan 2026", "12 Nov"."""
    if first is None or last is None:
        return ""
    if first == last:
        return f"{first.day} {first:%b}"
    if first.year != last.year:
        return f"{first.day} {first:%b %Y} – {last.day} {last:%b %Y}"
    if first.month != last.month:
        return f"{first.day} {first:%b} – {last.day} {last:%b}"
    return f"{first.day}–{last.day} {last:%b}"


# ---- validation -------------------------------------------------------------------------------


def clean_text(value: object, what: str, limit: int, *, required: bool = True) -> str:
    """Trimmed text with control characters as spaces and runs of spaces collapsed; else InvalidValue.

    ``what`` names the field in messages: ``store.field.<what>`` ("where", "reason")."""
    field = msg(f"store.field.{what}")
    if not isinstance(value, str):
        raise InvalidValue("store.error.text.not_text", what=field)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidValue("store.error.text.invalid", what=field) from None
    text = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in value)
    text = " ".join(text.split())
    if required and not text:
        raise InvalidValue("store.error.text.empty", what=field)
    if len(text) > limit:
        raise InvalidValue("store.error.text.too_long", what=field, limit=limit, length=len(text))
    return text


def parse_amount(value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, Decimal | int | float | str):
        raise InvalidValue("store.error.price.not_number")
    try:
        amount = Decimal(str(value).strip().replace(",", "").replace("_", ""))
    except InvalidOperation:
        raise InvalidValue("store.error.price.not_number_given", given=given(value, 40)) from None
    if not amount.is_finite():
        raise InvalidValue("store.error.price.not_finite")
    if amount <= 0:
        raise InvalidValue("store.error.price.not_positive", amount=amount)
    return amount


def parse_currency(value: object, rates: Rates) -> str:
    code = value.strip().upper() if isinstance(value, str) else ""
    if not re.fullmatch(r"[A-Z]{3}", code) or not rates.supports(code):
        raise InvalidValue("store.error.unknown_currency", given=given(value, 20), known=currency_codes(rates))
    return code


def parse_condition(value: object) -> Condition:
    text = value.strip().lower() if isinstance(value, str) else ""
    if text == "new":
        return "new"
    if text == "used":
        return "used"
    raise InvalidValue("store.error.condition", given=given(value, 20))


# ---- aggregation (pure) -----------------------------------------------------------------------


def _median(values: list[Decimal]) -> Decimal:
    return Decimal(statistics.median(values))


def summarize(reports: Iterable[PriceReport], scope: Scope, currency: str, convert: Convert) -> ScopeSummary:
    """Apply the rules in the module docstring to ``reports`` (already filtered to window and scope)."""
    rows = sorted(reports, key=lambda r: (r.reported_at, r.id), reverse=True)
    converted = {r.id: convert(r.price, currency).amount for r in rows}
    latest: dict[int, PriceReport] = {}
    excluded: list[ExcludedReport] = []
    for r in rows:
        if r.user_id in latest:
            excluded.append(
                ExcludedReport(
                    id=r.id, user_id=r.user_id, price=r.price, converted=converted[r.id], reason="superseded"
                )
            )
        else:
            latest[r.user_id] = r
    kept = list(latest.values())
    if len(kept) >= 3:
        m = _median([converted[r.id] for r in kept])
        mad = _median([abs(converted[r.id] - m) for r in kept])
        limit = MAD_CUTOFF * max(MAD_SCALE * mad, MAD_FLOOR * abs(m))
        outliers = [r for r in kept if abs(converted[r.id] - m) > limit]
        for r in outliers:
            excluded.append(
                ExcludedReport(id=r.id, user_id=r.user_id, price=r.price, converted=converted[r.id], reason="outlier")
            )
        out = {r.id for r in outliers}
        kept = [r for r in kept if r.id not in out]
    excluded.sort(key=lambda e: e.id)
    if not kept:
        return ScopeSummary(scope=scope, median=None, count=0, reports=len(rows), excluded=tuple(excluded))
    median = _median([converted[r.id] for r in kept]).quantize(CENT, rounding=ROUND_HALF_UP)
    dates = [r.reported_at.date() for r in kept]
    return ScopeSummary(
        scope=scope,
        median=Money(amount=median, currency=currency),
        count=len(kept),
        reports=len(rows),
        first=min(dates),
        last=max(dates),
        excluded=tuple(excluded),
    )


# ---- repository -------------------------------------------------------------------------------


def _report(row: Mapping[Any, Any]) -> PriceReport:
    return PriceReport(
        id=row["id"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        gpu_id=row["gpu_id"],
        price=Money(amount=Decimal(row["amount_hundredths"]) / HUNDRED, currency=row["currency"]),
        condition=row["condition"],
        where=row["place"],
        reported_at=row["reported_at"],
        created_at=row["created_at"],
        removed_at=row["removed_at"],
        removed_by=row["removed_by"],
        removal_reason=row["removal_reason"],
    )


class PriceReports:
    def __init__(
        self,
        db: Database,
        rates: Rates,
        *,
        daily_limit: int = DAILY_LIMIT,
        known_gpu: Callable[[str], bool] | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.db = db
        self.rates = rates
        self.daily_limit = daily_limit
        self.known_gpu = known_gpu
        self.clock = clock

    async def report(
        self,
        guild_id: int,
        user_id: int,
        gpu_id: str,
        amount: Decimal | int | str,
        currency: str,
        condition: str,
        where: str,
        reported_at: dt.datetime | None = None,
    ) -> PriceReport:
        """Store one report made in server ``guild_id``; :class:`InvalidValue` (also for a report
        without a server, e.g. from a DM) or :class:`LimitReached` (user-facing) otherwise."""
        if isinstance(guild_id, bool) or not isinstance(guild_id, int) or guild_id <= 0:
            raise InvalidValue("store.error.no_server")
        now = as_utc(self.clock())
        values = self._validate(guild_id, user_id, gpu_id, amount, currency, condition, where, reported_at, now)
        async with self.db.write() as conn:
            await self.db.lock(conn, "price_report", user_id, values["gpu_id"])
            recent = select(func.count(), func.min(price_reports.c.created_at)).where(
                price_reports.c.user_id == user_id,
                price_reports.c.gpu_id == values["gpu_id"],
                price_reports.c.created_at > now - LIMIT_PERIOD,
            )
            count, oldest = (await conn.execute(recent)).one()
            if count >= self.daily_limit:
                again = as_utc(oldest) + LIMIT_PERIOD
                raise LimitReached(
                    "store.error.daily_limit",
                    limit=self.daily_limit,
                    gpu=values["gpu_id"],
                    again=f"{again:%Y-%m-%d %H:%M}",
                )  # UTC, as the message says
            result = await conn.execute(price_reports.insert().values(**values).returning(*price_reports.c))
            return _report(result.one()._mapping)

    def _validate(
        self,
        guild_id: int,
        user_id: int,
        gpu_id: str,
        amount: object,
        currency: object,
        condition: object,
        where: object,
        reported_at: dt.datetime | None,
        now: dt.datetime,
    ) -> dict[str, Any]:
        gpu = gpu_id.strip().lower() if isinstance(gpu_id, str) else ""
        if not GPU_ID.fullmatch(gpu) or (self.known_gpu is not None and not self.known_gpu(gpu)):
            raise InvalidValue("store.error.unknown_gpu", given=given(gpu_id, 40))
        price = parse_amount(amount)
        code = parse_currency(currency, self.rates)
        usd = self.rates.convert(Money(amount=price, currency=code), "USD").amount
        if usd < MIN_USD:
            raise InvalidValue("store.error.price.too_low", amount=price, currency=code)
        if usd > MAX_USD:
            if price < MAX_USD * 10_000:
                raise InvalidValue("store.error.price.too_high", amount=price, currency=code)
            raise InvalidValue("store.error.price.far_too_high")
        price = price.quantize(CENT, rounding=ROUND_HALF_UP)
        when = now if reported_at is None else as_utc(reported_at)
        if when > now + FUTURE_SLACK:
            raise InvalidValue("store.error.reported_at.future")
        if when < now - MAX_AGE:
            raise InvalidValue("store.error.reported_at.too_old")
        return {
            "guild_id": guild_id,
            "user_id": user_id,
            "gpu_id": gpu,
            "amount_hundredths": int(price * HUNDRED),
            "currency": code,
            "condition": parse_condition(condition),
            "place": clean_text(where, "where", WHERE_MAX, required=False),
            "reported_at": when,
            "created_at": now,
        }

    async def remove(
        self, report_id: int, *, moderator_id: int, reason: str | None = None, guild_id: int | None = None
    ) -> PriceReport:
        """Take a report out of every summary, recording who did it and why.

        The caller checks the moderator's permission; ``guild_id`` limits removal to that server's
        reports (a moderator of one server cannot remove another server's). Raises :class:`NotFound`.
        """
        why = None if reason is None else clean_text(reason, "reason", REASON_MAX, required=False) or None
        conditions = [price_reports.c.id == report_id, price_reports.c.removed_at.is_(None)]
        if guild_id is not None:
            conditions.append(price_reports.c.guild_id == guild_id)
        async with self.db.write() as conn:
            result = await conn.execute(
                update(price_reports)
                .where(and_(*conditions))
                .values(removed_at=as_utc(self.clock()), removed_by=moderator_id, removal_reason=why)
                .returning(*price_reports.c)
            )
            row = result.first()
        if row is None:
            raise NotFound("store.error.no_report" if guild_id is None else "store.error.no_report_here", id=report_id)
        return _report(row._mapping)

    async def get(self, report_id: int) -> PriceReport | None:
        async with self.db.read() as conn:
            row = (await conn.execute(select(price_reports).where(price_reports.c.id == report_id))).first()
        return _report(row._mapping) if row else None

    async def recent(
        self,
        *,
        gpu_id: str | None = None,
        guild_id: int | None = None,
        user_id: int | None = None,
        limit: int = 20,
        include_removed: bool = False,
    ) -> list[PriceReport]:
        """Newest first, e.g. for a moderator looking for the id to remove."""
        query = select(price_reports).order_by(price_reports.c.id.desc()).limit(max(1, min(limit, 500)))
        if gpu_id is not None:
            query = query.where(price_reports.c.gpu_id == gpu_id)
        if guild_id is not None:
            query = query.where(price_reports.c.guild_id == guild_id)
        if user_id is not None:
            query = query.where(price_reports.c.user_id == user_id)
        if not include_removed:
            query = query.where(price_reports.c.removed_at.is_(None))
        async with self.db.read() as conn:
            return [_report(row._mapping) for row in await conn.execute(query)]

    async def _window(
        self, guild_id: int, since: dt.datetime, until: dt.datetime, gpu_id: str | None, condition: Condition | None
    ) -> list[PriceReport]:
        """This server's reports in the window: no other server's row is ever read for a summary."""
        query = select(price_reports).where(
            price_reports.c.guild_id == guild_id,
            price_reports.c.removed_at.is_(None),
            price_reports.c.reported_at > since,
            price_reports.c.reported_at <= until,
        )
        if gpu_id is not None:
            query = query.where(price_reports.c.gpu_id == gpu_id)
        if condition is not None:
            query = query.where(price_reports.c.condition == condition)
        async with self.db.read() as conn:
            return [_report(row._mapping) for row in await conn.execute(query)]

    async def price_summary(
        self,
        gpu_id: str,
        guild_id: int | None,
        now: dt.datetime | None = None,
        window_days: int = WINDOW_DAYS,
        convert: Convert | None = None,
        *,
        currency: str = "USD",
        condition: Condition | None = None,
    ) -> PriceSummary:
        """This server's median for ``gpu_id`` over the last ``window_days``, in ``currency``
        (``guild`` is None without a server).

        ``convert`` is e.g. ``engine.money.exchange_rates().convert`` (the default: the store's rates).
        """
        until = as_utc(now or self.clock())
        since = until - dt.timedelta(days=window_days)
        rows = [] if guild_id is None else await self._window(guild_id, since, until, gpu_id, condition)
        return self._summary(gpu_id, guild_id, rows, since, until, window_days, convert, currency, condition)

    def _summary(
        self,
        gpu_id: str,
        guild_id: int | None,
        rows: list[PriceReport],
        since: dt.datetime,
        until: dt.datetime,
        window_days: int,
        convert: Convert | None,
        currency: str,
        condition: Condition | None,
    ) -> PriceSummary:
        conv = convert or self.rates.convert
        return PriceSummary(
            gpu_id=gpu_id,
            currency=currency,
            condition=condition,
            window_days=window_days,
            since=since,
            until=until,
            guild=None if guild_id is None else summarize(rows, "guild", currency, conv),
        )

    async def summaries(
        self,
        guild_id: int | None,
        now: dt.datetime | None = None,
        window_days: int = WINDOW_DAYS,
        convert: Convert | None = None,
        *,
        currency: str = "USD",
        condition: Condition | None = None,
    ) -> dict[str, PriceSummary]:
        """:meth:`price_summary` for every GPU with reports in this server's window, from one query
        (empty without a server)."""
        if guild_id is None:
            return {}
        until = as_utc(now or self.clock())
        since = until - dt.timedelta(days=window_days)
        by_gpu: dict[str, list[PriceReport]] = {}
        for r in await self._window(guild_id, since, until, None, condition):
            by_gpu.setdefault(r.gpu_id, []).append(r)
        return {
            gpu: self._summary(gpu, guild_id, rows, since, until, window_days, convert, currency, condition)
            for gpu, rows in sorted(by_gpu.items())
        }

    async def price_overrides(
        self,
        guild_id: int | None,
        now: dt.datetime | None = None,
        *,
        window_days: int = WINDOW_DAYS,
        min_reports: int = MIN_REPORTERS,
        condition: Condition | None = None,
        convert: Convert | None = None,
    ) -> dict[str, PriceQuote]:
        """``AdviceContext.price_overrides`` from community prices: per GPU, this server's median when
        it has ``min_reports`` reporters, else no override (the snapshot price stays). Other servers'
        reports never count (see the module docstring)."""
        summaries = await self.summaries(guild_id, now, window_days, convert, currency="USD", condition=condition)
        quotes = {gpu: s.quote(min_reports) for gpu, s in summaries.items()}
        return {gpu: q for gpu, q in quotes.items() if q is not None}
