"""The store's refusals are messages: every one raised through the store's API renders in en, zh-Hant
and zh-Hans from data/locales/messages/store.yaml, with no raw key and no English sentence in Chinese,
while ``str(error)`` stays the English sentence for logs.

"English sentence" as in tests/bot/test_words.py: three or more consecutive ordinary English words
(letters only, at least two, not all capitals, not a code or unit kept Latin on purpose).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.locales import LANGS
from bot.store import InvalidValue, LimitReached, NotFound, StoreError
from bot.store.prices import clean_text
from bot.words import catalog, english, render
from engine.errors import UserError

STORE = Path(__file__).resolve().parents[2] / "bot" / "store"
GPU = "rtx-3090"
LATIN = {"gpu", "usd", "kwh", "query", "json", "utc", "new", "used", "true", "false", "none", "id"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


def english_run(text: str) -> str | None:
    run: list[str] = []
    for token in re.split(r"[\s,;:()（）“”\"]+", text):
        ordinary = (
            bool(WORD.fullmatch(token)) and len(token) >= 2 and not token.isupper() and token.lower() not in LATIN
        )
        run = [*run, token] if ordinary else []
        if len(run) >= 3:
            return " ".join(run)
    return None


def report(store, user=1, amount="700", currency="USD", condition="used", where="eBay", guild=10, gpu=GPU, **kw):
    return store.prices.report(guild, user, gpu, amount, currency, condition, where, **kw)


async def _twice(store) -> None:
    await report(store)
    await report(store)


async def _text(value: object, *, required: bool = True) -> None:
    clean_text(value, "where", 200, required=required)


# (name, what raises it, its exception type, today's English sentence where it is fixed)
Case = tuple[str, Callable[..., Awaitable[object]], type[StoreError], str | None]
CASES: list[Case] = [
    ("where not text", lambda s, c: report(s, where=5), InvalidValue, "'where' must be text"),
    (
        "where not valid",
        lambda s, c: report(s, where="\ud800 x"),
        InvalidValue,
        "'where' contains characters that are not valid text",
    ),
    ("where empty", lambda s, c: _text("  \n "), InvalidValue, "'where' is empty"),
    (
        "where too long",
        lambda s, c: report(s, where="x" * 10_000),
        InvalidValue,
        "'where' is limited to 200 characters (yours has 10,000)",
    ),
    ("price not a number", lambda s, c: report(s, amount=True), InvalidValue, "the price must be a number"),
    (
        "price not a number, given",
        lambda s, c: report(s, amount="seven hundred"),
        InvalidValue,
        "the price must be a number, not 'seven hundred'",
    ),
    ("price not finite", lambda s, c: report(s, amount="NaN"), InvalidValue, "the price must be a finite number"),
    (
        "price not positive",
        lambda s, c: report(s, amount="-700"),
        InvalidValue,
        "the price must be more than zero, not -700",
    ),
    (
        "price too low",
        lambda s, c: report(s, amount="0.50"),
        InvalidValue,
        "0.50 USD is less than 1 USD; is that the whole price?",
    ),
    (
        "price too high",
        lambda s, c: report(s, amount="1000001"),
        InvalidValue,
        "1,000,001 USD is over 1,000,000 USD; that is not a GPU price",
    ),
    (
        "price far too high",
        lambda s, c: report(s, amount="1e300"),
        InvalidValue,
        "that is over 1,000,000 USD; that is not a GPU price",
    ),
    ("currency", lambda s, c: report(s, currency="XYZ"), InvalidValue, None),
    (
        "condition",
        lambda s, c: report(s, condition="broken"),
        InvalidValue,
        "condition must be 'new' or 'used', not 'broken'",
    ),
    ("gpu", lambda s, c: report(s, gpu="rtx-9999-ultra"), InvalidValue, "unknown GPU 'rtx-9999-ultra'"),
    (
        "future",
        lambda s, c: report(s, reported_at=c.now + dt.timedelta(days=1)),
        InvalidValue,
        "a price cannot be reported for a time in the future",
    ),
    (
        "too old",
        lambda s, c: report(s, reported_at=c.now - dt.timedelta(days=400)),
        InvalidValue,
        "that price is more than a year old",
    ),
    (
        "daily limit",
        None,
        LimitReached,  # a store of its own, with a limit of one: see the test
        "you can report at most 1 prices for rtx-3090 a day; try again after 2026-12-01 12:00 UTC",
    ),
    (
        "no server",
        lambda s, c: report(s, guild=None),
        InvalidValue,
        "price reports belong to a server: report prices in a server, not in a direct message",
    ),
    (
        "no report",
        lambda s, c: s.prices.remove(999, moderator_id=1),
        NotFound,
        "no price report #999 (or it was already removed)",
    ),
    (
        "no report here",
        lambda s, c: s.prices.remove(999, moderator_id=1, guild_id=10),
        NotFound,
        "no price report #999 in this server (or it was already removed)",
    ),
    (
        "reason too long",
        lambda s, c: s.prices.remove(1, moderator_id=1, reason="r" * 300),
        InvalidValue,
        "the reason is limited to 200 characters (yours has 300)",
    ),
    (
        "settings without a server",
        lambda s, c: s.settings.set(None, currency="EUR"),
        InvalidValue,
        "settings belong to a server: change them in a server, not in a direct message",
    ),
    (
        "unknown setting",
        lambda s, c: s.settings.set(1, colour="blue"),
        InvalidValue,
        "unknown setting(s): colour; known: currency, electricity_per_kwh, locale, advice_channel_id, "
        "use_community_prices",
    ),
    (
        "unknown settings to reset",
        lambda s, c: s.settings.reset(1, "size", "colour"),
        InvalidValue,
        "unknown setting(s): colour, size; known: currency, electricity_per_kwh, locale, advice_channel_id, "
        "use_community_prices",
    ),
    ("settings currency", lambda s, c: s.settings.set(1, currency="XYZ"), InvalidValue, None),
    (
        "electricity not a number",
        lambda s, c: s.settings.set(1, electricity_per_kwh="abc"),
        InvalidValue,
        "electricity price must be a number, not 'abc'",
    ),
    (
        "electricity negative",
        lambda s, c: s.settings.set(1, electricity_per_kwh="-1"),
        InvalidValue,
        "electricity price must be zero or more, not -1",
    ),
    (
        "electricity too high",
        lambda s, c: s.settings.set(1, electricity_per_kwh="500"),
        InvalidValue,
        "electricity price 500 USD/kWh is over 100 USD/kWh; check the unit",
    ),
    (
        "language",
        lambda s, c: s.settings.set(1, locale="fr"),
        InvalidValue,
        "unknown language 'fr'; choose one of en, zh-Hant, zh-Hans, or none",
    ),
    (
        "advice channel",
        lambda s, c: s.settings.set(1, advice_channel_id=-4),
        InvalidValue,
        "advice channel must be a channel id, not -4",
    ),
    (
        "community prices",
        lambda s, c: s.settings.set(1, use_community_prices="yes"),
        InvalidValue,
        "use_community_prices must be true or false, not 'yes'",
    ),
    ("vote", lambda s, c: s.feedback.vote(1, 2, 5, "{}", "x"), InvalidValue, "a vote is +1 or -1, not 5"),
    (
        "query not JSON",
        lambda s, c: s.feedback.vote(1, 2, 1, "nonsense", "x"),
        InvalidValue,
        "the query must be a Query or its JSON",
    ),
    (
        "query not text",
        lambda s, c: s.feedback.vote(1, 2, 1, 5, "x"),
        InvalidValue,
        "the query must be a Query or its JSON",
    ),
    ("query invalid", lambda s, c: s.feedback.vote(1, 2, 1, '{"kind": "DROP TABLE"}', "x"), InvalidValue, None),
]


async def _raise(case: Case, backend, clock) -> StoreError:
    name, call, kind, _ = case
    if name == "daily limit":
        store = await backend.open(daily_report_limit=1)
        call = lambda s, c: _twice(s)  # noqa: E731
    else:
        store = await backend.open()
    with pytest.raises(kind) as info:
        await call(store, clock)
    return info.value


def _raw_keys(text: str) -> list[str]:
    keys = set(catalog())
    return [part for part in re.findall(r"[\w.]+", text) if part in keys or part.startswith("store.")]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
async def test_each_refusal_is_a_message_in_every_language(case, backend, clock):
    error = await _raise(case, backend, clock)
    assert isinstance(error, UserError) and isinstance(error, ValueError)
    assert error.key.startswith("store.error.")
    words = {lang: render(error.message, lang) for lang in LANGS}
    assert str(error) == english(error.message) == words["en"]  # logs and match= read the English
    if case[3] is not None:
        assert words["en"] == case[3]
    for lang, text in words.items():
        assert text and not _raw_keys(text), (lang, text)
    for lang in ("zh-Hant", "zh-Hans"):
        assert re.search(r"[\u4e00-\u9fff]", words[lang]), words[lang]
        assert english_run(words[lang]) is None, (lang, words[lang])
        assert words[lang] != words["en"]


async def test_every_store_message_is_raised_and_every_raised_key_is_written(backend, clock):
    """The cases above reach every key in store.yaml, and the code names no key that is not there."""
    reached: set[str] = set()
    for case in CASES:
        reached.update((await _raise(case, backend, clock)).message.all_keys())
    written = {key for key in catalog() if key.startswith("store.")}
    assert written - reached == set()
    assert {key for key in reached if key.startswith("store.")} <= written
    named = set(
        re.findall(
            r'"(store\.(?:error|field)\.[\w.]+)"',
            "".join(path.read_text(encoding="utf-8") for path in STORE.glob("*.py")),
        )
    )
    assert named and named <= written


def test_a_list_of_choices_is_joined_in_the_users_language():
    error = InvalidValue("store.error.unknown_language", given="'fr'", choices=("en", "zh-Hant", "zh-Hans"))
    assert "en, zh-Hant, zh-Hans, or none" in render(error.message, "en")
    assert "en、zh-Hant、zh-Hans" in render(error.message, "zh-Hant")
    assert "en、zh-Hant、zh-Hans" in render(error.message, "zh-Hans")


def test_a_log_line_survives_a_key_the_catalogs_lack():
    assert str(InvalidValue("store.error.no_such_key", n=1)) == "store.error.no_such_key {'n': 1}"
