"""The real bot against hostile users on the Discord double (issue 23): no cross-server trust, DMs refused
on server-only commands, no user text or interaction token in the logs, charts busy rather than queued."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading
from collections.abc import Iterator

import discord
import pytest

from bot import charts, observability
from bot.i18n import t
from bot.observability import DISCORD_PAYLOAD_LOGGERS, QUIET_LOGGERS, setup_logging

from .discord_double import DiscordDouble, FakeGuild
from .test_bot import make_bot, mention, no_pings

ADMIN = discord.Permissions(manage_guild=True, manage_messages=True)


def fresh_bot(**overrides):
    """No caching of settings or medians: what an answer shows is what the store holds right now."""
    return make_bot(community_price_cache_seconds=0, settings_cache_seconds=0, **overrides)


async def answers_of(double: DiscordDouble, guild_id: int) -> list[object]:
    """What a member of ``guild_id`` reads for questions the RTX 4090's price goes into."""
    out = []
    for name, options in (
        ("compare", {"gpu_a": "rtx-4090", "gpu_b": "rtx-3090"}),
        ("recommend", {"task": "llm_inference", "budget": 3000.0}),
        ("recommend", {"task": "image_generation", "condition": "used"}),
        ("breakeven", {"gpu": "rtx-4090", "hours_per_day": 6.0}),
        ("price show", {"gpu": "rtx-4090"}),
    ):
        response = await (await double.send_slash(name, options, guild_id=guild_id, user="reader")).wait_response()
        assert response.embeds, (name, response.content)
        out.append(response.embeds)
    return out


async def test_a_throwaway_server_cannot_poison_another_servers_prices() -> None:
    guilds = [FakeGuild(name="GPU Lab"), FakeGuild(name="Throwaway")]
    async with DiscordDouble(guilds=guilds) as double:
        victim, throwaway = (g.id for g in double.guilds.values())
        bot = fresh_bot()
        async with double.run(bot):
            for guild in (victim, throwaway):
                on = await double.send_slash("settings", {"community_prices": True}, guild_id=guild, permissions=ADMIN)
                assert "Community prices: on" in (await on.wait_response()).content
            honest = await (
                await double.send_slash(
                    "price report",
                    {
                        "gpu": "rtx-4090",
                        "amount": 1799.0,
                        "condition": "new",
                        "currency": "USD",
                        "where": "Micro Center",
                    },
                    guild_id=victim,
                    user="honest",
                )
            ).wait_response()
            assert "recorded" in honest.content
            before = await answers_of(double, victim)
            # Three fresh accounts, members of the throwaway server only, report ¥990,000 (≈ $7,235).
            for name in ("sock1", "sock2", "sock3"):
                double.add_user(name, guild_id=throwaway)
                ok = await (
                    await double.send_slash(
                        "price report",
                        {
                            "gpu": "rtx-4090",
                            "amount": 990_000.0,
                            "condition": "new",
                            "currency": "JPY",
                            "where": "trust me",
                        },
                        guild_id=throwaway,
                        user=name,
                    )
                ).wait_response()
                assert "recorded" in ok.content
            after = await answers_of(double, victim)
            assert after == before  # not one word of the victim's answers changed
            shown = after[-1][0]
            fields = {f["name"]: f["value"] for f in shown["fields"]}
            assert set(fields) == {"This server", "Catalog"}  # no "All servers"
            assert fields["This server"].startswith("$1,799 — one report in this server")  # kept, not an outlier
            assert "outlier" not in fields["This server"] and "¥" not in str(shown) and "7,2" not in str(shown)
            # The throwaway server only fools itself.
            own = await (
                await double.send_slash("price show", {"gpu": "rtx-4090"}, guild_id=throwaway, user="reader")
            ).wait_response()
            assert "median of 3 reports in this server" in str(own.embeds[0])
            assert (await bot.store.prices.price_overrides(victim)) == {}


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hans")])
async def test_server_only_commands_refuse_a_dm_and_store_nothing(double: DiscordDouble, locale, lang) -> None:
    """Discord hides these in DMs (guild_only), but an invocation that arrives anyway is the bot's to
    refuse: a DM report would belong to no server, and a DM list would show every server's reports."""
    bot = fresh_bot()
    async with double.run(bot):
        secret = await (
            await double.send_slash(
                "price report",
                {"gpu": "rtx-3090", "amount": 700.0, "condition": "used", "where": "Alice's garage, 555-0100"},
                user="alice",
            )
        ).wait_response()
        assert "recorded" in secret.content
        dm = double.dm_channel(double.add_user("mallory")).id
        cases = [
            ("price report", {"gpu": "rtx-4090", "amount": 1.0, "condition": "new"}),
            ("price list", {"gpu": "rtx-3090"}),
            ("price show", {"gpu": "rtx-3090"}),
            ("price remove", {"report_id": 1}),
            ("settings", {"currency": "EUR"}),
        ]
        for name, options in cases:
            handle = await double.send_slash(
                name, options, channel_id=dm, user="mallory", locale=locale, permissions=ADMIN
            )
            refused = await handle.wait_response()
            assert refused.ephemeral and refused.content == t(lang, "error.guild_only"), (name, refused.content)
            assert not refused.embeds and "garage" not in refused.text
            no_pings(refused)
        reports = await bot.store.prices.recent(include_removed=True, limit=50)
        assert [(r.user_id, r.gpu_id, r.removed_at) for r in reports] == [(reports[0].user_id, "rtx-3090", None)]
        assert (await bot.store.settings.get(double.guild.id)).currency == "USD"


async def test_community_words_are_in_the_members_language(double: DiscordDouble) -> None:
    async with double.run(fresh_bot()):
        done = await (
            await double.send_slash("settings", {"community_prices": True}, permissions=ADMIN, locale="zh-TW")
        ).wait_response()
        assert "社群價格：開啟" in done.content and "Currency" not in done.content
        thanks = await (
            await double.send_slash(
                "price report", {"gpu": "rtx-3090", "amount": 700.0, "condition": "used"}, locale="zh-CN"
            )
        ).wait_response()
        assert "已记录" in thanks.content and "二手" in thanks.content and "Thanks" not in thanks.content
        listed = await (await double.send_slash("price list", {"gpu": "rtx-3090"}, locale="zh-CN")).wait_response()
        assert "二手" in listed.content and "$700" in listed.content
        shown = await (await double.send_slash("price show", {"gpu": "rtx-3090"}, locale="zh-TW")).wait_response()
        text = str(shown.embeds[0])
        assert "社群價格" in text and "本伺服器" in text and "This server" not in text and "Last 60" not in text
        empty = await (await double.send_slash("price list", {"gpu": "rtx-4090"}, locale="zh-TW")).wait_response()
        assert empty.content == t("zh-Hant", "community.list.none")
        removed = await (
            await double.send_slash("price remove", {"report_id": 1}, permissions=ADMIN, locale="zh-TW")
        ).wait_response()
        assert removed.content.startswith("已移除回報 #1")


# ---- logs -------------------------------------------------------------------------------------


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """The bot's logging as configured at LOG_LEVEL=DEBUG, written to a buffer; put back afterwards."""
    root = logging.getLogger()
    saved = (root.handlers[:], root.level, dict(observability._options))
    levels = {name: logging.getLogger(name).level for name in (*DISCORD_PAYLOAD_LOGGERS, *QUIET_LOGGERS)}
    buffer = io.StringIO()
    setup_logging("DEBUG", True)
    root.handlers[0].setStream(buffer)  # type: ignore[attr-defined]
    try:
        yield buffer
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        observability._options.update(saved[2])
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


async def test_logs_at_debug_carry_no_user_text_and_no_interaction_token(double: DiscordDouble, log_lines) -> None:
    question = "which GPU for kaggle under $500, call me on +1 (555) 867-5309 or jenny@example.com"
    async with double.run(fresh_bot()):
        reported = await double.send_slash(
            "price report",
            {"gpu": "rtx-3090", "amount": 700.0, "condition": "used", "where": "Jenny's flat, 4th floor"},
        )
        assert "recorded" in (await reported.wait_response()).content
        await double.send_message(double.channel.id, mention(double, question), mentions=[double.bot_user.id])
        assert (await double.wait_for_message(double.channel.id)).embeds
        await double.send_dm("PSU for 2x 3090? my secret dm words")
        await double.wait_for_message()
        handles = []
        double.fail_next(
            "POST", r"/interactions/\d+/[^/]+/callback", 429, retry_after=0.05
        )  # discord.http warns with the URL
        for name, options in (("info", {"gpu": "rtx-3090"}), ("ask", {"question": "slash secret words 4090?"})):
            handle = await double.send_slash(name, options)
            assert (await handle.wait_response()).embeds
            handles.append(handle)
    text = log_lines.getvalue()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert any(line["logger"].startswith("discord.") for line in lines)  # discord.py's INFO lines are kept
    assert any(line.get("message") == "answered" for line in lines)  # and the bot's own
    quiet = (*DISCORD_PAYLOAD_LOGGERS, *QUIET_LOGGERS)
    assert not any(line["level"] == "DEBUG" and line["logger"].startswith(quiet) for line in lines)
    assert any(line["level"] == "DEBUG" for line in lines)  # DEBUG was on for the rest (alembic, the bot)
    assert "rate limited" in text  # the 429 on the interaction callback was logged (without its URL)
    for handle in handles:
        assert handle.token not in text
    assert "itok_" not in text
    for secret in (
        "867-5309",
        "jenny",
        "example.com",
        "kaggle under",
        "secret dm words",
        "slash secret",
        "double-token",
    ):
        assert secret not in text, secret
    assert not any("excerpt" in line for line in lines)  # LOG_EXCERPTS is off by default


# ---- charts: a bounded queue --------------------------------------------------------------------


async def test_a_chart_beyond_the_queue_gets_a_polite_busy(double: DiscordDouble, monkeypatch) -> None:
    from bot.charts import rendering

    gate = threading.Event()
    draw = rendering._draw

    def slow(spec):
        gate.wait(10)
        return draw(spec)

    monkeypatch.setattr(rendering, "_draw", slow)
    limit = charts.max_waiting()
    charts.set_max_waiting(0)
    charts.cache_clear()
    try:
        async with double.run(fresh_bot()):
            first = await double.send_slash("chart", {"kind": "performance", "gpus": "rtx 4090, rtx 3090"})
            await asyncio.sleep(0.2)
            busy = await (
                await double.send_slash("chart", {"kind": "performance", "gpus": "rtx 4080, a100"}, locale="zh-TW")
            ).wait_response()
            assert busy.content == t("zh-Hant", "chart.busy") and not busy.files
            gate.set()
            drawn = await first.wait_response(predicate=lambda s: bool(s.files), timeout=20)
            assert drawn.files[0].data.startswith(b"\x89PNG")
            again = await (
                await double.send_slash("chart", {"kind": "performance", "gpus": "rtx 4080, a100"})
            ).wait_response(predicate=lambda s: bool(s.files), timeout=20)
            assert again.files[0].data.startswith(b"\x89PNG")  # room again
    finally:
        gate.set()
        charts.set_max_waiting(limit)
        charts.cache_clear()


async def test_a_chart_button_beyond_the_queue_gets_a_polite_busy(double: DiscordDouble, monkeypatch) -> None:
    from bot.charts import rendering

    gate = threading.Event()
    draw = rendering._draw

    def slow(spec):
        gate.wait(10)
        return draw(spec)

    limit = charts.max_waiting()
    charts.cache_clear()
    try:
        async with double.run(fresh_bot()):
            first = await (
                await double.send_slash("compare", {"gpu_a": "rtx-4090", "gpu_b": "rtx-3090"})
            ).wait_response()
            chart_id = next(cid for cid in first.custom_ids if cid.startswith("ga:chart:"))
            monkeypatch.setattr(rendering, "_draw", slow)
            charts.set_max_waiting(0)
            await double.send_slash("chart", {"kind": "performance", "gpus": "rtx 4090, rtx 3090"})
            await asyncio.sleep(0.2)
            try:
                press = await double.press_button(first.message_id, chart_id)
                busy = await press.wait_response(predicate=lambda s: bool(s.content), timeout=3)
                assert busy.content == t("en", "chart.busy")
            finally:
                gate.set()  # before the bot closes: its shutdown waits for the chart thread
    finally:
        gate.set()
        charts.set_max_waiting(limit)
        charts.cache_clear()
