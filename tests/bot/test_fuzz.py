"""Every path that builds a reply or a custom_id is total over valid input (issue 23, item 2).

Hypothesis drives hostile chat text (zero-width and bidi marks, emoji, CJK, mentions, markdown, huge
numbers, "can a 4090 run 1000000b", "PSU for 17x 3090", very long text) and slash-command values
within the ranges Discord enforces through parse → advise → compose → the Discord payload
(``bot.views.answer_message``: the embed dict and the buttons), then presses every button the
answer carries (rebuilding it from its custom_id, as a press after a restart does). It asserts:

- no exception but ``UserError``, whose message renders in every language;
- Discord's embed limits (``bot.embeds``) and component limits, every custom_id ≤ 100 characters
  and matching a registered ``DynamicItem`` template (``bot.views.DYNAMIC_ITEMS``), unique per message;
- no raw message key in what the user reads, and nothing that pings (allowed_mentions none, no live
  ``@everyone``/``@here``/user/role mention in the text);
- the slash commands' ranges lie within the one bounds table (``engine.query.BOUNDS``), so no value
  Discord lets through is refused by the engine as out of range.

Runs ≈ 3,800 generated cases plus their button presses (≈ 20 s of CPU).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.chat import MemoryConversationStore, respond, understand
from bot.embeds import DESCRIPTION_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX, FOOTER_MAX, MAX_FIELDS, TITLE_MAX, TOTAL_MAX
from bot.locales import LANGS, Lang
from bot.views import DYNAMIC_ITEMS, answer_message
from bot.words import catalog, render
from engine.advisor import AdviceContext
from engine.answer import Answer
from engine.catalog import load_catalog
from engine.cost import PriceQuote
from engine.errors import UserError
from engine.parse import LIMIT as PARSE_LIMIT
from engine.query import BOUNDS, MODES, TASKS

CUSTOM_ID_MAX, LABEL_MAX, ROWS_MAX, ROW_ITEMS_MAX = 100, 80, 5, 5  # Discord's component limits
TEMPLATES = {item: item.__discord_ui_compiled_template__ for item in DYNAMIC_ITEMS}  # type: ignore[attr-defined]
KEYISH = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-zA-Z0-9_-]+)+")
PINGS = re.compile(r"@everyone|@here|<@!?\d+>|<@&\d+>")
CONTEXTS = (
    AdviceContext(),
    AdviceContext(currency="JPY", electricity_usd_per_kwh=Decimal("0.3")),
    AdviceContext(
        currency="EUR",
        price_overrides={
            "rtx-3090": PriceQuote(
                gpu_id="rtx-3090", usd=Decimal("650"), basis="override", date="2026-11-30", source="community prices"
            )
        },
    ),
)
FUZZ = settings(
    max_examples=2000,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,  # monkeypatch: the same stubs for every case
    ],
)


# ---- strategies ---------------------------------------------------------------------------------

_CATALOG = load_catalog()
GPU_NAMES = sorted({*_CATALOG.ids(), *(g.short_name for g in _CATALOG.gpus.values())})
HOSTILE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\ufeff",
    "\u2060",
    "\u202e",
    "\u202d",
    "\u200f",
    "\u2066",
    "\u2069",
    "🚀",
    "👍🏽",
    "🇹🇼",
    "👨‍👩‍👧",
    "\u0301",
    "ｘ",
    "４０９０",
    "\x00",
    "\x07",
    "\t",
    "\n",
    "\r\n",
    "<@123456789012345678>",
    "<@!42>",
    "<@&987654321098765432>",
    "<#111>",
    "@everyone",
    "@here",
    "**",
    "__",
    "`",
    "```",
    "||",
    "> ",
    "# ",
    "[x](https://example.com)",
    "{key}",
    "{0}",
    "%s",
    "\\",
    "https://discord.gg/abc",
    "advice.followup.model",
    "followup.model",
    "error.generic",
    "ga:chart:e:x",
]
WORDS = [
    "can a",
    "run",
    "4090",
    "3090",
    "rtx",
    "a100",
    "h100",
    "2x",
    "17x",
    "x",
    "PSU for",
    "psu",
    "vs",
    "or",
    "which gpu",
    "for kaggle",
    "under",
    "budget",
    "$",
    "€",
    "¥",
    "NT$",
    "元",
    "块",
    "萬",
    "万",
    "used",
    "new",
    "llama",
    "llama 3 8b",
    "qwen2.5 14b",
    "70b",
    "1000000b",
    "8x7b",
    "b",
    "GB",
    "gb",
    "tokens",
    "context",
    "fp8",
    "int4",
    "q4_k_m",
    "lora",
    "qlora",
    "fine-tune",
    "train",
    "inference",
    "hours a day",
    "h/day",
    "rent or buy",
    "cloud",
    "power limit",
    "W",
    "slots",
    "cooling",
    "tensor cores",
    "explain",
    "cycles",
    "预算",
    "顯卡",
    "显卡",
    "跑",
    "張",
    "张",
    "二手",
    "電源",
    "电源",
    "訓練",
    "训练",
    "哪張",
    "哪个",
    "推薦",
    "what about",
    "and with",
    "?",
    "？",
    "!",
    ",",
    ".",
    "-",
    "−",
    "%",
    "k",
    "m",
    "e",
    "e+06",
    "1e9",
    "^",
]
NUMBERS = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.integers(0, 10**6).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1000000", "1e+06", "1e400", "nan", "inf", "9" * 40, "0", "0.0001", "-1", "１２００"]),
)
PIECE = st.one_of(
    st.sampled_from(WORDS), st.sampled_from(HOSTILE), st.sampled_from(GPU_NAMES), NUMBERS, st.text(max_size=6)
)
CHAT_TEXT = st.one_of(
    st.lists(PIECE, max_size=30).map(" ".join),
    st.lists(PIECE, max_size=30).map("".join),
    st.text(max_size=200),
    st.tuples(st.lists(PIECE, min_size=1, max_size=8).map(" ".join), st.integers(50, 600)).map(
        lambda t: (t[0] + " ") * t[1]  # very long text: the chat cuts it at PARSE_LIMIT
    ),
    st.sampled_from(
        [
            "can a 4090 run 1000000b",
            "PSU for 17x 3090?",
            "PSU for 4097x 3090",
            "which gpu for kaggle under $99999999999999999999",
            "can 4096x h100 run a 100000000b model at 10000000 context",
            "rtx 4090 vs " + "rtx 3090 vs " * 50,
            "@everyone which gpu <@&1> <@2>",
            "‮kaggle‬ ​4090​ 🚀 預算 三萬 台幣",
        ]
    ),
)
GPU_OPTION = st.one_of(
    st.sampled_from(GPU_NAMES), st.sampled_from(_CATALOG.ids()), PIECE, st.text(min_size=1, max_size=100)
)


def floats(low: float, high: float) -> st.SearchStrategy[float]:
    return st.one_of(st.floats(low, high, allow_nan=False, allow_infinity=False), st.sampled_from([low, high]))


def optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


# ---- the payload checks -------------------------------------------------------------------------


def raw_keys(text: str, echo: str = "") -> list[str]:
    """Message keys in ``text`` that are not the user's own words echoed back ("I don't know the GPU
    'error.generic'" is an echo, not a key that failed to render)."""
    keys = catalog()
    return [token for token in KEYISH.findall(text) if token in keys and token not in echo]


def check_words(text: str, where: str, echo: str = "") -> None:
    assert not raw_keys(text, echo), (where, raw_keys(text, echo), text[:300])
    assert not PINGS.search(text), (where, text[:300])


def check_embed(embed: discord.Embed, echo: str = "") -> None:
    data = embed.to_dict()
    assert len(data.get("title", "")) <= TITLE_MAX
    assert len(data.get("description", "")) <= DESCRIPTION_MAX
    fields = data.get("fields", [])
    assert len(fields) <= MAX_FIELDS
    for field in fields:
        assert 0 < len(field["name"]) <= FIELD_NAME_MAX, field
        assert 0 < len(field["value"]) <= FIELD_VALUE_MAX, field
    footer = data.get("footer", {}).get("text", "")
    assert len(footer) <= FOOTER_MAX
    assert len(embed) <= TOTAL_MAX
    text = "\n".join(
        [data.get("title", ""), data.get("description", ""), footer] + [f"{f['name']}\n{f['value']}" for f in fields]
    )
    check_words(text, "embed", echo)


def check_view(view: discord.ui.View | None, echo: str = "") -> list[discord.ui.DynamicItem[Any]]:
    if view is None:
        return []
    rows = view.to_components()
    assert len(rows) <= ROWS_MAX
    ids = []
    for row in rows:
        assert len(row["components"]) <= ROW_ITEMS_MAX
        for component in row["components"]:
            custom_id = component["custom_id"]
            assert len(custom_id) <= CUSTOM_ID_MAX, custom_id
            assert any(re.fullmatch(t, custom_id) for t in TEMPLATES.values()), custom_id
            assert len(component.get("label") or "") <= LABEL_MAX
            check_words(component.get("label") or "", "label", echo)
            ids.append(custom_id)
    assert len(ids) == len(set(ids)), ids
    items = list(view.children)
    assert all(isinstance(item, DYNAMIC_ITEMS) for item in items)
    return items  # type: ignore[return-value]


def check_message(message: dict[str, Any], echo: str = "") -> list[discord.ui.DynamicItem[Any]]:
    assert set(message) <= {"embed", "allowed_mentions", "view", "content", "ephemeral", "file"}, set(message)
    mentions = message["allowed_mentions"].to_dict()
    assert mentions["parse"] == [] and not mentions.get("users") and not mentions.get("roles")
    assert not mentions.get("replied_user")
    if message.get("content"):
        check_words(message["content"], "content", echo)
    if message.get("embed") is not None:
        check_embed(message["embed"], echo)
    return check_view(message.get("view"), echo)


def check_user_error(error: UserError, echo: str = "") -> None:
    for lang in LANGS:
        words = render(error.message, lang)
        assert words.strip()
        assert not raw_keys(words, echo), (error.key, words)


# ---- a stand-in for discord.py around the callbacks ----------------------------------------------


class Response:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self.sent, self.done = sent, False

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **kwargs: Any) -> None:
        self.done = True
        self.sent.append({"allowed_mentions": discord.AllowedMentions.none(), **kwargs})

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.done = True
        self.sent.append({"content": content, **kwargs})

    async def defer(self, **kwargs: Any) -> None:
        self.done = True


class Followup:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self.sent = sent

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


class FakeBot:
    """What the cogs and buttons read from ``interaction.client`` (no store, no Discord)."""

    store = None

    def __init__(self, context: AdviceContext) -> None:
        self.context = context
        self.conversations = MemoryConversationStore()
        self.settings = SimpleNamespace(command_cooldown_seconds=0, chat_cooldown_seconds=0)

    async def context_for(self, guild_id: int | None) -> AdviceContext:
        return self.context

    async def guild_lang(self, guild_id: int | None) -> None:
        return None

    @contextlib.asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        yield


def interaction(bot: FakeBot, locale: str, sent: list[dict[str, Any]]) -> Any:
    return SimpleNamespace(
        client=bot,
        guild_id=None,
        guild=None,
        user=SimpleNamespace(id=7),
        channel_id=9,
        extras={},
        locale=discord.Locale(locale),
        response=Response(sent),
        followup=Followup(sent),
        message=None,
        command=None,
    )


LOCALES = st.sampled_from(["en-US", "zh-TW", "zh-CN"])
LANG_OF = {"en-US": "en", "zh-TW": "zh-Hant", "zh-CN": "zh-Hans"}


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@pytest.fixture(autouse=True)
def no_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Charts: the spec is built (that is where a bad value would surface); drawing is
    tests/bot/test_charts.py's business and would take 100-300 ms a case."""
    from bot import charts

    async def spec_only(spec: Any, **kwargs: Any) -> bytes:
        assert spec.model_dump_json()
        return b"\x89PNG"

    async def kind_only(kind: str, *args: Any, **kwargs: Any) -> bytes:
        return await spec_only(charts.SPEC_BUILDERS[kind](*args, **kwargs))

    monkeypatch.setattr(charts, "render_spec_async", spec_only)
    monkeypatch.setattr(charts, "render_async", kind_only)


async def press_all(items: list[discord.ui.DynamicItem[Any]], bot: FakeBot, locale: str, echo: str) -> None:
    """Press each button as Discord would route it after a restart: rebuilt from its custom_id."""
    for item in items:
        custom_id = item.item.custom_id  # type: ignore[attr-defined]
        match = re.fullmatch(TEMPLATES[type(item)], custom_id)
        assert match is not None
        sent: list[dict[str, Any]] = []
        press = interaction(bot, locale, sent)
        rebuilt = await type(item).from_custom_id(press, item.item, match)
        try:
            await rebuilt.callback(press)
        except UserError as error:  # the tree's on_error shows it; it must read well
            check_user_error(error, echo)
            continue
        assert sent, custom_id
        for message in sent:
            message.setdefault("allowed_mentions", discord.AllowedMentions.none())
            check_message(message, echo)


def answered(answer: Answer, lang: Lang, bot: FakeBot, locale: str, loop: asyncio.AbstractEventLoop, echo: str) -> None:
    items = check_message(answer_message(answer, lang), echo)
    loop.run_until_complete(press_all(items, bot, locale, echo))


# ---- chat ----------------------------------------------------------------------------------------


@FUZZ
@given(text=CHAT_TEXT, follow=st.booleans(), context=st.sampled_from(CONTEXTS), locale=LOCALES)
def test_chat_text_is_answered_within_discords_limits(loop, text, follow, context, locale):
    """The chat cog's path: cut at PARSE_LIMIT, understood (as a follow-up of an earlier question
    or not), answered, laid out; then every button pressed."""
    text = text[:PARSE_LIMIT]
    previous = understand("which GPU for Kaggle under $500?", None).query if follow else None
    result = understand(text, previous, context.currency)
    answer = respond(result, context)
    answered(answer, result.language, FakeBot(context), locale, loop, text)


# ---- slash commands: the real callbacks, with the values Discord lets through --------------------


@pytest.fixture(scope="module")
def cogs() -> SimpleNamespace:
    from bot.cogs.advice import Advice
    from bot.cogs.charts import Charts

    bot = FakeBot(AdviceContext())
    return SimpleNamespace(advice=Advice(bot), charts=Charts(bot))  # type: ignore[arg-type]


def run_command(loop, monkeypatch, command, cog, server, locale, **options) -> None:
    """Call the command's callback as discord.py would after its checks; capture what it would
    send (bot.interactions.send_answer / bot.views.send_chart) and check it as a reply."""
    import bot.cogs.advice
    import bot.cogs.charts

    captured: list[tuple[Answer, Lang]] = []

    async def capture(interaction: Any, answer: Answer, lang: Lang, **kwargs: Any) -> None:
        captured.append((answer, lang))

    monkeypatch.setattr(bot.cogs.advice, "send_answer", capture)
    monkeypatch.setattr(bot.cogs.charts, "send_chart", capture)
    fake = FakeBot(server)
    sent: list[dict[str, Any]] = []
    echo = " ".join(str(v) for v in options.values())
    try:
        loop.run_until_complete(command.callback(cog, interaction(fake, locale, sent), **options))
    except UserError as error:
        check_user_error(error, echo)
        return
    for answer, lang in captured:
        assert lang == LANG_OF[locale]
        answered(answer, lang, fake, locale, loop, echo)
        if command.name == "chart":
            from bot import charts

            charts.answer_spec(answer, lang)  # send_chart's first step
    for message in sent:  # /chart performance sends its PNG itself
        message.setdefault("allowed_mentions", discord.AllowedMentions.none())
        check_message({k: v for k, v in message.items() if k != "file"}, echo)


SLASH = settings(FUZZ, max_examples=300)


@SLASH
@given(
    task=optional(st.sampled_from(TASKS)),
    budget=optional(floats(1.0, 10_000_000.0)),
    currency=optional(
        st.one_of(st.sampled_from(["USD", "eur", "JPY", "twd", "XYZ", "", "€", "usd\u200b"]), st.text(max_size=12))
    ),
    memory=optional(floats(1.0, 4096.0)),
    count=optional(st.integers(1, 64)),
    condition=optional(st.sampled_from(["new", "used"])),
    hours_per_day=optional(floats(0.1, 24.0)),
    context=st.sampled_from(CONTEXTS),
    locale=LOCALES,
)
def test_recommend(loop, monkeypatch, cogs, context, locale, **options):
    run_command(loop, monkeypatch, cogs.advice.recommend, cogs.advice, context, locale, **options)


@SLASH
@given(
    gpu_a=GPU_OPTION,
    gpu_b=GPU_OPTION,
    count_a=st.integers(1, 64),
    count_b=st.integers(1, 64),
    workload=optional(st.sampled_from(["train16", "infer16", "infer8"])),
    context=st.sampled_from(CONTEXTS),
    locale=LOCALES,
)
def test_compare(loop, monkeypatch, cogs, context, locale, **options):
    run_command(loop, monkeypatch, cogs.advice.compare, cogs.advice, context, locale, **options)


@SLASH
@given(
    gpu=optional(GPU_OPTION),
    hours_per_day=floats(0.1, 24.0),
    desktop_cost=optional(floats(1.0, 10_000_000.0)),
    hourly=optional(floats(0.01, 10_000.0)),
    electricity=optional(floats(0.0, 100.0)),
    context=st.sampled_from(CONTEXTS),
    locale=LOCALES,
)
def test_breakeven(loop, monkeypatch, cogs, context, locale, **options):
    run_command(loop, monkeypatch, cogs.advice.breakeven, cogs.advice, context, locale, **options)


MODEL_TEXT = (
    st.one_of(
        st.sampled_from(
            [
                "Llama 3 8B",
                "llama 3 70b",
                "Qwen2.5 14B",
                "70B",
                "1000000b",
                "8x7b",
                "mixtral",
                "gpt-4",
                "deepseek v3",
                "1b",
                "0.5b",
                "999999999999b",
                "1e+06b",
            ]
        ),
        st.lists(PIECE, min_size=1, max_size=6).map(" ".join),
        st.text(min_size=1, max_size=100),
    )
    .map(lambda s: s[:100])
    .filter(lambda s: len(s) >= 1)
)


@SLASH
@given(
    model=MODEL_TEXT,
    gpu=optional(GPU_OPTION),
    count=st.integers(1, 64),
    mode=optional(st.sampled_from(MODES)),
    precision=optional(
        st.one_of(
            st.sampled_from(["bf16", "fp8", "int8", "int4", "q4_k_m", "nf4", "fp32", "q9"]),
            st.text(min_size=1, max_size=20),
        )
    ),
    context=optional(st.integers(128, 10_000_000)),
    server=st.sampled_from(CONTEXTS),
    locale=LOCALES,
)
def test_canrun(loop, monkeypatch, cogs, server, locale, **options):
    run_command(loop, monkeypatch, cogs.advice.canrun, cogs.advice, server, locale, **options)


@pytest.mark.parametrize(
    ("mode", "precision"), [("full_finetune", "fp8"), ("pretrain", "int4"), ("qlora", "bf16"), ("lora", "q4_k_m")]
)
def test_canrun_refuses_a_precision_its_mode_cannot_train_in_as_a_user_error(loop, monkeypatch, cogs, mode, precision):
    run_command(
        loop,
        monkeypatch,
        cogs.advice.canrun,
        cogs.advice,
        CONTEXTS[0],
        "en-US",
        model="Llama 3 8B",
        gpu="rtx-3090",
        count=1,
        mode=mode,
        precision=precision,
        context=None,
    )


@SLASH
@given(
    gpu=GPU_OPTION,
    count=st.integers(1, 16),
    power_limit=optional(st.integers(1, 2000)),
    context=st.sampled_from(CONTEXTS),
    locale=LOCALES,
)
def test_power(loop, monkeypatch, cogs, context, locale, **options):
    run_command(loop, monkeypatch, cogs.advice.power, cogs.advice, context, locale, **options)


@SLASH
@given(
    kind=st.sampled_from(["performance", "value", "breakeven", "power", "memory"]),
    gpus=optional(st.lists(GPU_OPTION, min_size=1, max_size=12).map(", ".join).map(lambda s: s[:200] or "x")),
    gpu=optional(GPU_OPTION),
    task=optional(st.sampled_from(TASKS)),
    budget=optional(floats(1.0, 10_000_000.0)),
    count=st.integers(1, 16),
    hours_per_day=floats(0.1, 24.0),
    model=optional(MODEL_TEXT),
    context=st.sampled_from(CONTEXTS),
    locale=LOCALES,
)
def test_chart(loop, monkeypatch, cogs, context, locale, **options):
    run_command(loop, monkeypatch, cogs.charts.chart, cogs.charts, context, locale, **options)


# ---- one bounds table ----------------------------------------------------------------------------

# Slash options that become a Query field (command, option) → field in engine.query.BOUNDS.
OPTION_FIELDS = {
    ("recommend", "budget"): "budget",
    ("recommend", "memory"): "min_memory_gb",
    ("recommend", "count"): "num_gpus",
    ("recommend", "hours_per_day"): "hours_per_day",
    ("compare", "count_a"): "gpu_counts",
    ("compare", "count_b"): "gpu_counts",
    ("breakeven", "hours_per_day"): "hours_per_day",
    ("breakeven", "desktop_cost"): "desktop_usd",
    ("breakeven", "hourly"): "cloud_usd_per_hour",
    ("breakeven", "electricity"): "electricity_usd_per_kwh",
    ("canrun", "model"): "model",
    ("canrun", "count"): "gpu_counts",
    ("canrun", "precision"): "precision",
    ("canrun", "context"): "context_tokens",
    ("power", "count"): "num_gpus",
    ("power", "power_limit"): "power_limit_w",
    ("chart", "budget"): "budget",
    ("chart", "count"): "num_gpus",
    ("chart", "hours_per_day"): "hours_per_day",
    ("chart", "model"): "model",
}


def test_every_slash_range_lies_within_the_one_bounds_table(cogs):
    """A value Discord lets through is never refused by Query as out of range: the slash commands
    may be narrower than BOUNDS (a Discord form has its own sense of scale), never wider."""
    commands = {c.name: c for c in [*cogs.advice.__cog_app_commands__, *cogs.charts.__cog_app_commands__]}
    checked = 0
    for (name, option), field in OPTION_FIELDS.items():
        parameter = commands[name]._params[option]
        low, high = parameter.min_value, parameter.max_value
        assert low is not None and high is not None, (name, option)
        bound = BOUNDS[field]
        assert low >= bound.low and (low > bound.low or not getattr(bound, "low_open", False)), (name, option, bound)
        assert high <= bound.high, (name, option, bound)
        checked += 1
    assert checked == len(OPTION_FIELDS)
    # ... and every ranged option of these commands is in the table above, but /chart's list of names.
    ranged = {(c.name, o) for c in commands.values() for o, p in c._params.items() if p.min_value is not None}
    assert ranged - set(OPTION_FIELDS) == {("chart", "gpus")}
