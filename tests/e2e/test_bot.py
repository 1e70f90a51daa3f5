"""The real GPU Advisor bot (discord.py 2.x) against the local Discord double: a user's journey."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import discord
import pytest

from bot.app import GpuAdvisorBot
from bot.config import Settings
from bot.i18n import t

from .discord_double import CB_AUTOCOMPLETE, CB_UPDATE, DiscordDouble, DoubleError, DoubleTimeout


def make_bot(**overrides) -> GpuAdvisorBot:
    """The real bot with test settings: no cooldowns, its own SQLite file unless a database is given."""
    values = {
        "chat_cooldown_seconds": 0,
        "command_cooldown_seconds": 0,
        "guild_ready_timeout": 0.05,
        "data_dir": Path(tempfile.mkdtemp(prefix="gpu-advisor-e2e-")),
    } | overrides
    settings = Settings(_env_file=None, discord_token="double-token", **values)
    return GpuAdvisorBot(settings)


def mention(double: DiscordDouble, text: str) -> str:
    return f"<@{double.bot_user.id}> {text}"


def no_pings(sent) -> None:
    """What Discord would ping for this message: nobody."""
    assert sent.allowed_mentions is not None
    assert sent.allowed_mentions.get("parse") == []
    assert not sent.allowed_mentions.get("users") and not sent.allowed_mentions.get("roles")
    assert sent.allowed_mentions.get("replied_user") in (False, None)


async def test_a_mention_gets_an_answer_with_buttons(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        question = await double.send_message(
            double.channel.id, mention(double, "which GPU for Kaggle under $500?"), mentions=[double.bot_user.id]
        )
        reply = await double.wait_for_message(double.channel.id)
        assert str(reply.payload["message_reference"]["message_id"]) == str(question["id"])  # a reply to it
        embed = reply.embeds[0]
        assert embed["title"] == "GPU recommendation"
        assert "16-bit training your budget buys" in embed["description"]  # a budget buys its strongest card
        assert "Prices as of" in embed["footer"]["text"]
        assert any(cid.startswith("ga:cmp:") for cid in reply.custom_ids)
        no_pings(reply)


async def test_a_repeated_question_gets_the_same_reply_with_working_buttons(double: DiscordDouble) -> None:
    """The second asking is served from what the bot remembers (engine answers, rendered embed and
    buttons); it must look the same, its buttons must work, and the bot's own replies, which Discord
    sends back to it, must never reach a listener."""
    bot = make_bot()
    authors: list[int] = []

    async def on_message(message: discord.Message) -> None:
        authors.append(message.author.id)

    bot.add_listener(on_message)
    async with double.run(bot):
        replies = []
        for _ in range(2):
            await double.send_message(
                double.channel.id, mention(double, "which GPU for Kaggle under $500?"), mentions=[double.bot_user.id]
            )
            replies.append(await double.wait_for_message(double.channel.id))
        assert replies[0].embeds == replies[1].embeds
        assert replies[0].custom_ids == replies[1].custom_ids
        compare_id = next(cid for cid in replies[1].custom_ids if cid.startswith("ga:cmp:"))
        update = await (await double.press_button(replies[1].message_id, compare_id)).wait_response()
        assert update.callback_type == CB_UPDATE and update.embeds[0]["title"] == "Comparison"
    assert len(authors) == 2 and double.bot_user.id not in authors


@pytest.mark.parametrize("warm", [True, False])
async def test_charts_load_after_ready_only_when_asked_to(double: DiscordDouble, monkeypatch, warm: bool) -> None:
    """CHARTS_WARM_UP=false keeps matplotlib and the fonts (≈50 MB) out until a chart is asked for.
    Either way the warm start-up heap is frozen and the collector switches to its load thresholds."""
    import gc

    from bot import charts
    from bot.app import GC_THRESHOLDS

    calls: list[bool] = []
    monkeypatch.setattr(charts, "warm_up", lambda: calls.append(True))
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        bot = make_bot(charts_warm_up=warm)
        async with double.run(bot):
            await double.send_message(
                double.channel.id, mention(double, "PSU for 2x 3090?"), mentions=[double.bot_user.id]
            )
            await double.wait_for_message(double.channel.id)
            await bot._warm_task
        assert gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*before)
    assert calls == ([True] if warm else [])


async def test_messages_not_addressed_to_the_bot_are_ignored(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        await double.send_message(double.channel.id, "which GPU for Kaggle under $500?")
        with pytest.raises(DoubleTimeout):
            await double.wait_for_message(double.channel.id, timeout=0.5)


async def test_dms_are_answered(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        dm = await double.send_dm("can a 3060 12GB run llama 3 8b?")
        reply = await double.wait_for_message(int(dm["channel_id"]))
        assert "RTX 3060 12GB" in reply.embeds[0]["description"]


async def test_every_slash_command_answers(double: DiscordDouble) -> None:
    cases = {
        "recommend": {"task": "kaggle", "budget": 500.0},
        "compare": {"gpu_a": "rtx-4090", "gpu_b": "rtx-3090", "count_b": 2},
        "canrun": {"model": "Llama 3 8B", "gpu": "rtx-3060-12gb"},
        "breakeven": {"gpu": "rtx-3090", "hours_per_day": 3.0},
        "power": {"gpu": "rtx-3090", "count": 4, "power_limit": 300},
        "info": {"gpu": "rtx-3090"},
        "cycles": {"edition": "2020", "tensor_cores": False},
        "explain": {"topic": "tensor_cores"},
        "ask": {"question": "4090 or 2x 3090 for llama finetuning?"},
    }
    async with double.run(make_bot()):
        assert {c["name"] for c in double.commands[None]} >= set(cases)  # synced globally
        for name, options in cases.items():
            response = await (await double.send_slash(name, options)).wait_response()
            assert response.embeds, name
            no_pings(response)
        power = await (await double.send_slash("power", {"gpu": "rtx-3090", "count": 4})).wait_response()
        assert "1700 W" in power.embeds[0]["description"]
        cycles = await (await double.send_slash("cycles", {"edition": "2020", "tensor_cores": False})).wait_response()
        assert "392" in str(cycles.embeds[0])


async def test_autocomplete_returns_matching_gpus(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        result = await (await double.autocomplete("info", {"gpu": "4090"}, focused="gpu")).wait_response()
        assert result.callback_type == CB_AUTOCOMPLETE
        values = [c["value"] for c in result.choices]
        assert values[0] == "rtx-4090" and "rtx-4090-laptop" in values and len(values) <= 25


async def test_compare_button_updates_the_message_in_place(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        first = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        compare_id = next(cid for cid in first.custom_ids if cid.startswith("ga:cmp:"))
        update = await (await double.press_button(first.message_id, compare_id)).wait_response()
        assert update.callback_type == CB_UPDATE
        assert update.embeds[0]["title"] == "Comparison"


async def test_answers_are_never_kept_in_the_view_store_and_their_buttons_work(
    double: DiscordDouble, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slash answers (an interaction's first response), chat replies and in-place updates: none
    puts its view into discord.py's view store, and the buttons still answer."""
    stored: list[discord.ui.View] = []
    monkeypatch.setattr(discord.ui.view.ViewStore, "add_view", lambda store, view, message_id=None: stored.append(view))
    async with double.run(make_bot()):
        first = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        await double.send_message(double.channel.id, mention(double, "4090 vs 2x 3090?"), mentions=[double.bot_user.id])
        reply = await double.wait_for_message(double.channel.id)
        compare_id = next(cid for cid in first.custom_ids if cid.startswith("ga:cmp:"))
        update = await (await double.press_button(first.message_id, compare_id)).wait_response()
        assert update.callback_type == CB_UPDATE and update.embeds[0]["title"] == "Comparison"
        assert reply.custom_ids and update.custom_ids
    assert stored == []


async def test_buttons_still_work_after_a_restart(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        first = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
    why_id = next(cid for cid in first.custom_ids if cid.startswith("ga:why:"))
    async with double.run(make_bot()):  # a new process knows nothing of the old message
        why = await (await double.press_button(first.message_id, why_id)).wait_response()
        assert why.ephemeral and "memory bandwidth" in why.embeds[0]["description"]


async def test_a_follow_up_refines_the_previous_question(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        await double.send_message(
            double.channel.id,
            mention(double, "which GPU for Kaggle under $500?"),
            author="alice",
            mentions=[double.bot_user.id],
        )
        await double.wait_for_message(double.channel.id)
        await double.send_message(
            double.channel.id, mention(double, "and with €800?"), author="alice", mentions=[double.bot_user.id]
        )
        second = await double.wait_for_message(double.channel.id)
        assert "€" in str(second.embeds[0]) and second.embeds[0]["title"] == "GPU recommendation"


async def test_missing_task_asks_with_buttons_and_a_choice_answers(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        await double.send_message(
            double.channel.id, mention(double, "recommend a gpu"), author="bob", mentions=[double.bot_user.id]
        )
        question = await double.wait_for_message(double.channel.id)
        assert any(cid.startswith("ga:fu:task:kaggle") for cid in question.custom_ids)
        kaggle = next(cid for cid in question.custom_ids if cid.startswith("ga:fu:task:kaggle"))
        update = await (await double.press_button(question.message_id, kaggle, user="bob")).wait_response()
        assert "Kaggle" in str(update.embeds[0]) or "≥ 8 GB" in str(update.embeds[0])


async def test_a_chinese_question_gets_a_chinese_answer(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        await double.send_message(
            double.channel.id, mention(double, "四張 RTX 4090 需要多大的電源供應器？"), mentions=[double.bot_user.id]
        )
        reply = await double.wait_for_message(double.channel.id)
        assert reply.embeds[0]["title"] == t("zh-Hant", "title.power")
        traditional = await (await double.send_slash("recommend", {"task": "kaggle"}, locale="zh-TW")).wait_response()
        assert traditional.embeds[0]["title"] == t("zh-Hant", "title.recommend")


async def test_mentions_in_the_question_ping_no_one(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        role = double.add_role(double.guild.id, "gpu-fans")
        text = mention(double, f"@everyone <@&{role.id}> <@{double.bot_user.id}> best gpu for kaggle under $500")
        await double.send_message(double.channel.id, text, mentions=[double.bot_user.id])
        reply = await double.wait_for_message(double.channel.id)
        no_pings(reply)
        pinged = reply.effective_mentions()
        assert not pinged["everyone"] and not pinged["users"] and not pinged["roles"] and not pinged["replied_user"]
        assert "@everyone" not in str(reply.embeds)


async def test_unknown_gpu_gets_one_clear_line_not_a_traceback(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        response = await (await double.send_slash("info", {"gpu": "rtx 9090"})).wait_response()
        assert response.ephemeral
        assert "don't know the GPU" in response.content and "Traceback" not in response.content


async def test_survives_a_dropped_gateway(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        await double.drop_gateway(0, code=4000)
        await double.wait_resumed(0)
        await double.send_message(double.channel.id, mention(double, "PSU for 4x 3090?"), mentions=[double.bot_user.id])
        reply = await double.wait_for_message(double.channel.id)
        assert reply.embeds[0]["title"] == "Power and cooling"


async def test_rate_limit_and_server_error_are_retried(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        double.fail_next("POST", r"/channels/\d+/messages", 429, retry_after=0.2)
        await double.send_message(double.channel.id, mention(double, "PSU for 2x 3090?"), mentions=[double.bot_user.id])
        assert (await double.wait_for_message(double.channel.id, timeout=5)).embeds
        double.fail_next("POST", r"/channels/\d+/messages", 500)
        await double.send_message(double.channel.id, mention(double, "PSU for 3x 3090?"), mentions=[double.bot_user.id])
        assert (await double.wait_for_message(double.channel.id, timeout=8)).embeds


async def test_advice_channel_needs_the_message_content_intent(double: DiscordDouble) -> None:
    channel = double.channel.id
    async with double.run(make_bot(message_content=True, advice_channel_ids=[channel])):
        await double.send_message(channel, "which GPU for Kaggle under $500?")
        reply = await double.wait_for_message(channel)
        assert reply.embeds[0]["title"] == "GPU recommendation"
    assert discord.Intents.message_content.flag


async def test_advice_channel_set_by_settings_is_answered_and_others_are_not(double: DiscordDouble) -> None:
    general, advice = (c.id for c in double.guild.text_channels[:2])
    async with double.run(make_bot(message_content=True)):
        admin = discord.Permissions(manage_guild=True)
        await double.send_message(advice, "PSU for 2x 3090?")  # not an advice channel yet: ignored
        done = await (
            await double.send_slash("settings", {"advice_channel": advice}, permissions=admin)
        ).wait_response()
        assert f"Advice channel: <#{advice}>" in done.content
        await double.send_message(general, "PSU for 3x 3090?")  # an ordinary channel: ignored
        await double.send_message(advice, "PSU for 4x 3090?")
        reply = await double.wait_for_message(advice)
        assert reply.embeds and "4×" in str(reply.embeds[0])
        await asyncio.sleep(0.3)
        assert not [
            s
            for s in double.sent
            if s.kind == "create" and s.payload.get("message_reference") and s.channel_id != advice
        ]
        assert sum(1 for s in double.sent if s.kind == "create" and s.channel_id == advice) == 1


async def test_command_descriptions_are_localized(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        recommend = double.find_command("recommend")
        assert recommend["description_localizations"]["zh-TW"] == "依用途與預算推薦 GPU"
        assert recommend["description_localizations"]["zh-CN"] == "按用途和预算推荐 GPU"


async def test_cooldowns_answer_kindly(double: DiscordDouble) -> None:
    async with double.run(make_bot(chat_cooldown_seconds=30, command_cooldown_seconds=30)):
        first = await (await double.send_slash("info", {"gpu": "rtx-3090"}, user="carol")).wait_response()
        assert first.embeds
        again = await (await double.send_slash("info", {"gpu": "rtx-3090"}, user="carol")).wait_response()
        assert again.ephemeral and "try again in" in again.content
        for text in ("PSU for 4x 3090?", "PSU for 2x 3090?"):
            await double.send_message(
                double.channel.id, mention(double, text), author="dave", mentions=[double.bot_user.id]
            )
        replies = [await double.wait_for_message(double.channel.id) for _ in range(2)]
        assert sum(bool(r.embeds) for r in replies) == 1
        assert sum("try again in" in (r.content or "") for r in replies) == 1


async def test_chart_button_and_command_attach_a_png(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        first = await (await double.send_slash("compare", {"gpu_a": "rtx-4090", "gpu_b": "rtx-3090"})).wait_response()
        chart_id = next(cid for cid in first.custom_ids if cid.startswith("ga:chart:"))
        press = await double.press_button(first.message_id, chart_id)
        sent = await press.wait_response(predicate=lambda s: bool(s.files))
        assert sent.files[0].data.startswith(b"\x89PNG")
        handle = await double.send_slash("chart", {"kind": "memory", "model": "Llama 3 8B", "gpu": "rtx-3060-12gb"})
        drawn = await handle.wait_response(predicate=lambda s: bool(s.files))
        assert drawn.files[0].data.startswith(b"\x89PNG")


async def test_settings_need_manage_server(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        # Discord hides the command from members without Manage Server (default_member_permissions) ...
        with pytest.raises(DoubleError, match="default_member_permissions"):
            await double.send_slash(
                "settings", {"currency": "EUR"}, user="member", permissions=discord.Permissions(send_messages=True)
            )
        admin = discord.Permissions(manage_guild=True)
        done = await (
            await double.send_slash(
                "settings", {"currency": "EUR", "electricity": 0.35}, user="owner", permissions=admin
            )
        ).wait_response()
        assert "Currency: EUR" in done.content
        answer = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        assert "€" in str(answer.embeds[0])  # the server's currency is used for budgets and prices


async def test_community_prices_report_show_remove_and_feed_answers(double: DiscordDouble) -> None:
    async with double.run(make_bot()):
        admin = discord.Permissions(manage_guild=True, manage_messages=True)
        await (await double.send_slash("settings", {"community_prices": True}, permissions=admin)).wait_response()
        for i, user in enumerate(["u1", "u2", "u3", "u4"]):
            amount = 350.0 + 10 * i if user != "u4" else 5_000.0  # u4 is an outlier
            ok = await (
                await double.send_slash(
                    "price report",
                    {
                        "gpu": "rtx-3090",
                        "amount": amount,
                        "condition": "used",
                        "currency": "USD",
                        "where": "'; DROP TABLE price_reports; --",
                    },
                    user=user,
                )
            ).wait_response()
            assert ok.ephemeral and "recorded" in ok.content
        shown = await (await double.send_slash("price show", {"gpu": "rtx-3090"})).wait_response()
        text = str(shown.embeds[0])
        assert "$360" in text and "outlier" in text
        hostile = await (
            await double.send_slash(
                "price report", {"gpu": "rtx-3090", "amount": 99_999_999.0, "condition": "used"}, user="u5"
            )
        ).wait_response()
        assert hostile.ephemeral and "1,000,000" in hostile.content
        answer = await (
            await double.send_slash("recommend", {"task": "llm_inference", "condition": "used"})
        ).wait_response()
        assert "community prices: median of 3 reports in this server" in str(answer.embeds[0])
        # Subcommands can't carry default permissions on Discord: the bot's own check refuses.
        refused = await (
            await double.send_slash(
                "price remove", {"report_id": 1}, user="u2", permissions=discord.Permissions(send_messages=True)
            )
        ).wait_response()
        assert refused.ephemeral and "Manage Messages" in refused.content
        removed = await (await double.send_slash("price remove", {"report_id": 1}, permissions=admin)).wait_response()
        assert "Removed report #1" in removed.content


async def test_votes_are_stored_with_their_query(double: DiscordDouble) -> None:
    bot = make_bot()
    async with double.run(bot):
        first = await (await double.send_slash("recommend", {"task": "kaggle", "budget": 500.0})).wait_response()
        down = next(cid for cid in first.custom_ids if cid.startswith("ga:vote:down:"))
        thanks = await (await double.press_button(first.message_id, down, user="critic")).wait_response()
        assert thanks.ephemeral
        votes = await bot.store.feedback.votes(first.message_id)
        assert [v.vote for v in votes] == [-1] and '"task":"kaggle"' in votes[0].query_json.replace(" ", "")


async def test_a_bare_mention_and_a_failed_answer_get_a_short_reply(double: DiscordDouble) -> None:
    """The chat's two short replies go out as replies to the question, pinging no one; a failing
    answer is counted, and the next question is answered again."""
    bot = make_bot()
    async with double.run(bot):
        question = await double.send_message(double.channel.id, mention(double, ""), mentions=[double.bot_user.id])
        empty = await double.wait_for_message(double.channel.id)
        assert empty.content == t("en", "empty.question") and not empty.embeds
        assert str(empty.payload["message_reference"]["message_id"]) == str(question["id"])
        no_pings(empty)

        chat = bot.get_cog("Chat")

        async def broken(*args, **kwargs):
            raise RuntimeError("engine down")

        chat.answer = broken  # the instance's, so the cog's class (loaded as an extension) stays as it is
        await double.send_message(
            double.channel.id, mention(double, "best gpu for kaggle"), mentions=[double.bot_user.id]
        )
        failed = await double.wait_for_message(double.channel.id)
        assert failed.content == t("en", "error.generic") and not failed.embeds
        no_pings(failed)
        assert bot.metrics.registry.get_sample_value("gpu_advisor_errors_total", {"source": "chat"}) == 1
        del chat.answer
        await double.send_message(
            double.channel.id, mention(double, "best gpu for kaggle under $500"), mentions=[double.bot_user.id]
        )
        assert (await double.wait_for_message(double.channel.id)).embeds


async def test_chart_and_vote_rebuild_a_multi_field_question_exactly(double: DiscordDouble) -> None:
    """ "lab, train LLMs, under €3000, 8 h/day": the buttons carry the whole question, so the chart
    draws that very answer (multi-GPU options, euros) and 👍 stores that very query."""
    from bot import charts
    from bot.chat import understand
    from engine.advisor import advise
    from engine.query import Query

    text = "our lab wants to train LLMs, under €3000, about 8 h/day"
    bot = make_bot()
    async with double.run(bot):
        await double.send_message(double.channel.id, mention(double, text), mentions=[double.bot_user.id])
        reply = await double.wait_for_message(double.channel.id)
        asked = understand(text, None, "USD").query
        assert asked.organization and asked.hours_per_day == 8 and asked.budget.currency == "EUR"
        chart_id = next(cid for cid in reply.custom_ids if cid.startswith("ga:chart:"))
        drawn = await (await double.press_button(reply.message_id, chart_id)).wait_response(
            predicate=lambda s: bool(s.files)
        )
        expected = charts.render_spec(charts.answer_spec(advise(asked, await bot.context_for(double.guild.id)), "en"))
        assert drawn.files[0].data == expected
        up = next(cid for cid in reply.custom_ids if cid.startswith("ga:vote:up:"))
        assert (await (await double.press_button(reply.message_id, up, user="fan")).wait_response()).ephemeral
        (vote,) = await bot.store.feedback.votes(reply.message_id)
        assert vote.vote == 1 and Query.model_validate_json(vote.query_json) == asked


@pytest.mark.parametrize(
    ("text", "pick", "left_out"),
    [
        ("A5000, 3090 or two 4070 Ti for llama finetuning?", "Pick RTX 3090", "Left out of the pick"),
        ("微调 llama 用 A5000、3090 还是两张 4070 Ti？", "选 RTX 3090", "未列入选择"),
    ],
)
async def test_a_comparison_of_three_setups_names_them_all_and_picks_one(
    double: DiscordDouble, text: str, pick: str, left_out: str
) -> None:
    async with double.run(make_bot()):
        await double.send_message(double.channel.id, mention(double, text), mentions=[double.bot_user.id])
        reply = await double.wait_for_message(double.channel.id)
        embed = reply.embeds[0]
        assert embed["description"].startswith(pick)
        shown = str(embed)
        assert all(name in shown for name in ("RTX A5000", "RTX 3090", "2× RTX 4070 Ti")) and left_out in shown


# Questions of each answer kind and the words their Discord reply must show, in English and in Chinese.
ASKED_IN_THEIR_LANGUAGE: list[tuple[str, tuple[str, str]]] = [
    ("I have a 3060 12GB, what can it run?", ("runs LLMs up to", "What it runs")),
    ("我的 3060 12G 能跑什么模型？", ("最大能跑到", "能跑什么")),
    ("€2000 for a deep learning card, what is best?", ("your budget buys", "Best value:")),
    ("预算 15000 元，训练模型买什么显卡？", ("预算内", "最划算")),
    ("which cloud GPU should I rent for fine-tuning LLMs?", ("To rent:", "per RTX 3090-h of work")),
    ("想租云 GPU 微调大模型，租哪个划算？", ("要租的话", "每 RTX 3090 小时工作量")),
    ("should I wait for the next generation or buy a 3090 now?", ("no FP8 Tensor Cores", "Today's market")),
    ("要不要等下一代再买 4090？", ("不必等", "目前市场")),
    ("Is the RX 7900 XTX supported by ROCm?", ("gfx1100", "ROCm")),
    ("我的 5090 不支持 PyTorch 吗？", ("计算能力 12.0", "支持")),
    ("what can I run with 12GB of VRAM?", ("A GPU with 12 GB runs LLMs up to", "speed depends")),
    ("12G显存能跑什么模型？", ("有 12 GB 显存的显卡最大能跑到", "显存带宽")),
    ("A100 or H100 on the cloud, which is better value?", ("Per unit of work", "the cheapest you named")),
    ("租A100还是H100划算？", ("按工作量算", "最便宜")),
    ("how long does it take to fine-tune llama 3 8b on a 3090?", ("h per 100M training tokens", "Training time")),
    ("3090 微调 qwen2.5 7b 要多久", ("每 100M 个训练 token 约", "训练时间")),
    ("4090 or 2x3090 for llama 70b?", ("Pick 2× RTX 3090: the only one that holds", "RTX 4090: No")),
    ("两张3090还是一张4090跑70B", ("选 2× RTX 3090：只有它放得下", "RTX 4090：不行")),
    ("is a used 3090 still worth it?", ("Yes: RTX 3090 (24 GB)", "among cards with 24 GB or more")),
    ("二手3090还值得买吗？", ("值得：RTX 3090（24 GB）", "24 GB 以上的显卡中")),
    ("rent an H100 at $2.50/h, 6 h a day, or buy a $2000 card?", ("A $2,000 desktop", "$2.50/GPU-hour")),
    ("租 A100 每小时 1.2 美元划算还是买 4090", ("RTX 4090 台式机", "$1.20（≈ CN¥")),
    ("What's the best GPU for running Llama 3 70B locally under $2000?", ("Fastest within your budget", "4× RTX")),
    ("预算15000元跑 Llama 3 70B 买什么显卡", ("预算内最快", "放得下的最便宜配置")),
    ("Is a GT 1030 usable for deep learning?", ("under the guide's 8 GB", "Free notebook GPUs")),
    ("GT 1030 能用来学深度学习吗", ("低于指南", "免费的在线 Notebook")),
    ("can two 2080 Ti 22G run Qwen2.5 32B?", ("memory-modified board", "2× RTX 2080 Ti 22GB: Yes")),
    ("我有两张2080ti 22g，能跑 Qwen2.5 32B 吗", ("魔改卡", "2× RTX 2080 Ti 22GB：可以")),
    ("How big a GPU do I need to train BM-DETR?", ("computer vision", "per dollar")),
    ("训练 BM-DETR 需要多大显存的显卡？", ("计算机视觉", "每美元")),
    ("is my 750W PSU enough for a 4090?", ("Your 750 W PSU: fine", "about 650 W for the machine under load")),
    ("850W电源能带两张3090吗", ("你的 850 W 电源：太小", "满载约 900 W")),
    ("my PSU is 450W: would a 3090 or a 5060 Ti work?", ("Your 450 W PSU: RTX 3090 too small", "RTX 5060 Ti")),
    ("llama 3 8b with 128k context on a 3090?", ("RTX 3090: Yes", "KV cache          16.0")),
    ("qwen2.5 7b 上下文 128k，4090 能跑吗", ("RTX 4090：可以", "KV 缓存     7.0")),
    ("我的电源 650W，3080 和 4070 哪个能用？", ("你的 650 W 电源：RTX 3080 10GB够用", "RTX 4070够用")),
    ("Can my 3060 12GB run FLUX?", ("Yes at NF4", "9.5 GB of 12 GB")),
    ("我的 3060 12G 能跑 FLUX 吗？", ("降到 NF4", "9.5 GB / 12 GB")),
    ("renting for LoRA runs: A100 40GB or a 4090 on a marketplace?", ("the cheapest you named", "RTX 4090")),
    ("租卡跑 LoRA：A100 40GB 还是 4090 划算？", ("按工作量算", "RTX 4090")),
    ("4060Ti 16G 是否能微调呢", ("用 QLoRA 最大能微调", "RTX 4060 Ti 16GB")),
    ("How much VRAM does FooTalker need?", ('the model "FooTalker"', "How many parameters does FooTalker have")),
    ("运行FooTalker这个模型需要多大的显存呀", ("我不认识模型“FooTalker”", "模型大小")),
    (
        "I get CUDA out of memory training FooNet on my RTX 3090",
        ("ran out of memory as you ran it", "checkpointing"),
    ),
    ("训练FooGAN爆显存了，我的卡是3060 12G", ("显存不够", "梯度检查点")),
    ("tell me about the RTX 2080 Ti specs", ("0.63× an RTX 3090", "Turing")),
    ("2080 Ti 的规格是什么", ("RTX 3090 的 0.63 倍", "Turing")),
    ("Can a Mac Studio with 192GB run Llama 3 70B?", ("Apple M2 Ultra (192 GB): Yes", "of 144 GB")),
    ("Mac Studio 192G能跑70B吗", ("Apple M2 Ultra (192 GB)：可以", "/ 144 GB")),
    ("Can one RTX 4090 train FooNet? How long will it take?", ("trains at 1.37× an RTX 3090", "time one epoch")),
    # tenth session: a slow run with no card, two cards for an image model, a fine-tune said without how
    ("Training FooSeg takes 3 hours per epoch, why so slow?", ("depends first on the card", "DataLoader workers")),
    ("训练FooSeg一个epoch要3个小时，为什么这么慢？", ("首先取决于显卡", "DataLoader worker")),
    ("two 3090s for SDXL training, does 24gb+24gb work?", ("do not add up to one larger memory", "2× RTX 3090")),
    ("两张3090能训练SDXL吗，显存能加起来吗", ("显存不会叠加成一块更大的", "2× RTX 3090")),
    ("can I finetune llama 3 8b on my 3090?", ("Yes, at LoRA", "A full fine-tune (BF16 mixed precision)")),
    ("我的3090能微调llama 3 8b吗", ("可以，用 LoRA", "全参数微调（BF16 混合精度）放不下")),
    ("两张A100 80G能从零训练FooNet吗？要多久？", ("16 位训练速度是 RTX 3090 的 4.17 倍", "计时")),
    ("My 4060 Ti 16GB only gets 5 tok/s with Llama 3 8B, is that normal?", ("Expected on it", "tokens/s for one")),
    ("为啥我的3090跑Qwen2-7B只有10 tokens/s？正常吗", ("预期速度：Qwen2 7B", "有层跑在 CPU")),
    ("The docs say at least 14GB of VRAM. Will my 4060 Ti 16G do?", ("Yes: RTX 4060 Ti 16GB", "2 GB more")),
    ("文档说至少14GB显存，我的4060ti 16G可以吗？", ("可以：RTX 4060 Ti 16GB", "多 2 GB")),
    ("is free colab enough to fine-tune llama 3 8b with qlora?", ("T4: Yes, at QLoRA", "Colab's free tier")),
    ("colab免费版能跑sdxl吗", ("T4：可以", "Colab 免费版")),
    ("I have 99999 RTX 4090s, can I run llama 405b?", ("RTX 4090", "ignored a count of 99,999 GPUs")),
    ("is the 4090 ti good for llms?", ("RTX 4090", "there is no RTX 4090 Ti")),
    ("I have a 3060 12GB, what should I upgrade to for SDXL?", ("From your RTX 3060 12GB", "× its speed")),
    ("我现在用2060，想升级显卡跑SD，买什么好？", ("你的 RTX 2060", "的速度是它的")),
    ("How do you calculate how much VRAM fine-tuning needs?", ("16 bytes per parameter", "QLoRA")),
    ("训练时显存怎么计算？", ("每个参数要 16 字节", "QLoRA")),
    ("Is a used 3090 for $700 a good deal?", ("at the $700 you quote", "below it")),
    ("二手3090 5000元值得买吗？", ("按你说的 CN¥5,000", "行情价是")),
    ("Can my 3090 run Time-LLM?", ('the model "Time-LLM"', "Weighed as a 7B model")),
    ("请问用RTX3090 24GB显存能跑动Time-LLM这个模型吗", ("按 7B 模型估算", "RTX 3090：可以")),
    ("Can I use FlashAttention on my V100?", ("FlashAttention-2 does not run on", "scaled_dot_product_attention")),
    ("vLLM支持P40吗", ("vLLM 不支持 Tesla P40", "llama.cpp 或 Ollama")),
    ("why are my 4 GPUs training slower than one?", ("at 3.66× one RTX 3090", "synchronisation")),
    ("双卡训练比单卡还慢，为什么？", ("是一张 RTX 3090 的 1.91 倍", "同步")),
    ("how much per hour to rent 2x A100 80GB?", ("at that rate: $", "GPU-hour")),
    ("在云平台上租四张4090一小时多少钱？", ("4× RTX 4090 按这个价格每小时", "AutoDL")),
    (
        "can my 3060 12GB run llama 3 70b?",
        ("RTX 3060 12GB does run Llama 3 8B", "4× RTX 3060 12GB at GGUF Q4_K_M"),
    ),
    ("M3 Max 36GB能跑70B模型吗", ("Apple M3 Max (36 GB) 能跑的是 Qwen2.5 32B", "不行")),
    ("€1500 for a GPU to QLoRA 7B models, which is best?", ("far less than your budget buys", "Best value")),
    ("预算1万元，跑Qwen2.5 7B推理用什么显卡最好？", ("远低于你的预算买得到的", "最划算")),
    ("my PC restarts when training on my 4090, PSU is 850W", ("Your 850 W PSU", "nvidia-smi -pl")),
    ("训练的时候电脑自动重启，显卡是4090，电源850W", ("你的 850 W 电源", "nvidia-smi -pl")),
    ("Why does my RTX 3090 train no faster than a 1080 Ti?", ("mixed precision", "bandwidth ratio")),
    ("为什么我的3090训练速度和1080 Ti差不多？", ("混合精度", "带宽比")),
    ("Does FooCam support 50 series GPUs?", ("PyTorch 2.7 or newer built for CUDA 12.8", "cu128")),
    ("FooCam支持50系显卡吗？", ("需要 PyTorch 2.7 或更新", "cu128")),
    # fourteenth session: a model too big for the card, its own line's smaller model; a pasted OOM message
    (
        "能在4090上跑deepseek吗",
        ("RTX 4090 能跑的是 DeepSeek R1 Distill Qwen 32B", "一台机器装的 RTX 4090 放不下它"),
    ),
    (
        "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 5.94 GiB total capacity; 4.50 GiB already "
        "allocated). Is my card too small to train FooGAN?",
        ("6 GB ran out of memory as you ran it", "gradient checkpointing"),
    ),
    ("海光DCU能跑chatglm3-6b吗", ("DCU K100-AI：可以", "没有 CUDA")),
    ("best laptop for deep learning under $2000?", ("A laptop is sold whole", "RTX 5070 Ti Laptop GPU")),
    ("想买个笔记本跑深度学习，预算一万", ("笔记本是整机卖的", "RTX 5070 Ti Laptop GPU")),
    ("2x 3060 12GB or one 4070 Ti Super for LLMs?", ("the only one with the 24 GB", "24 GB between them")),
    ("两张3060 12G和一张4070 Ti Super，跑大模型哪个好？", ("只有它有这项工作需要的 24 GB", "合计约可放 24 GB")),
    ("Do I need NVLink for two 3090s to fine-tune 13B?", ("NVLink is not needed", "2× RTX 3090: Yes")),
    ("两张3090微调13B需要NVLink吗", ("不需要 NVLink", "2× RTX 3090：可以")),
    ("$700 budget, GPU for running local LLMs?", ("Two cards reach it", "2× RTX 3060 12GB (24 GB in all)")),
    ("预算5000元，主要跑本地大模型，买什么显卡好？", ("两张卡可以在预算内达到", "2× RTX 3060 12GB（合计 24 GB）")),
    # sixteenth session: why it ran out, serving capacity, two setups of one card, the first card fuller
    ("Yi-34B-Chat OOM on my A6000 48GB, why?", ("Yes at INT8", "most tools load a model at BF16")),
    ("请问Yi-34B-Chat用49G的显卡运行时提示显存溢出OOM", ("降到 INT8", "大多数工具默认用 BF16 加载模型")),
    ("How many concurrent requests can an A100 80GB serve with Llama 2 13B?", ("3.4 GB of KV cache", "about 17")),
    ("A100 80GB跑Llama 2 13B能支持多少并发？", ("3.4 GB 的 KV 缓存", "大约能同时处理 17 个")),
    ("Can one 4090 or two 4090s LoRA fine-tune a 13B model?", ("RTX 4090: Yes at QLoRA", "2× RTX 4090: Yes")),
    ("4090单卡能否lora微调13b模型？不行的话两张4090呢", ("RTX 4090：可以，降到 QLoRA", "2× RTX 4090：可以")),
    ("Training FooDet-7B on 4 GPUs, only the first card runs out of memory. Why?", ("DataParallel", "torchrun")),
    ("我用4张卡训练FooVL-26B，第一张卡上占用很多显存导致OOM", ("DataParallel", "torchrun")),
    # seventeenth session: two kinds of card trained together, the machine's power with no card named
    ("can I use a 3060 and 3090 together for training?", ("the slowest sets the pace", "0.74× one RTX 3090")),
    ("我有一张3060和一张3090，能一起训练吗？", ("最慢的卡决定速度", "比 RTX 3090 单独跑还慢")),
    ("what PSU do I need?", ("about 200 W for CPU and board", "Which GPU and how many?")),
    ("這個主機的功耗大概是多少？", ("約 200 W（CPU 和主機板）", "哪張 GPU、幾張？")),
    ("Can LLaMA-Factory train on the NPU of my Intel Core Ultra laptop?", ("runs inference only", "OpenVINO")),
    ("请问LLaMA-Factory可以使用intel ultra系列的NPU吗？", ("只做推理", "PyTorch 不能在上面训练")),
    (
        "how long to train resnet50 on imagenet with a 4090?",
        ("ImageNet epoch of ResNet-50 takes about 16 min", "1,301"),
    ),
    ("用4090训练resnet50跑imagenet要多久", ("跑一个 ImageNet epoch 大约 16 分钟", "每秒 1,301 张")),
    ("Can Colab Pro run HunyuanVideo?", ("A100 40GB SXM4: No, 40 GB is under the 45 GB minimum", "H100 SXM5: Yes")),
    ("colab pro能跑HunyuanVideo吗", ("A100 40GB SXM4：不行", "H100 SXM5：可以")),
    ("cheapest cloud gpu to fine-tune llama 3 70b?", ("QLoRA fine-tuning of Llama 3 70B costs least on", "a run")),
    ("租卡微调qwen2.5 7b要多少钱", ("Qwen2.5 7B 的QLoRA 微调在", "一次约")),
    ("which GPU on runpod for training SDXL lora?", ("RTX 4090 on RunPod at $0.34/GPU-hour", "RunPod")),
    ("在runpod上租哪张卡训练SDXL LoRA最划算？", ("RunPod 上的 RTX 4090", "$0.34")),
    (
        "fastest gpu for deep learning?",
        ("RTX 5090 (32 GB): the fastest 16-bit training", "Best value: RTX 3080 Ti"),
    ),
    ("最好的深度学习显卡是哪张？", ("个人买得到的显卡中 16 位训练最快", "最划算：RTX 3080 Ti")),
    ("Is 64GB RAM enough for llama 70b with offloading on a 4090?", ("Yes with CPU offload", "On the GPU alone: No")),
    ("4090加64G内存，把一部分层卸载到内存跑70B可以吗", ("用 CPU 卸载可以", "只用 GPU：不行")),
    ("CUDA out of memory, what can I do?", ("gradient checkpointing", "Which model do you want to run?")),
    ("显存不够怎么办", ("梯度检查点", "你想跑哪个模型？")),
    ("can a tesla p40 run llama 2 13b?", ("Tesla P40: Yes", "passively cooled")),
    ("二手P40能跑13b的模型吗", ("Tesla P40：可以", "被动散热")),
    ("my 4090 only gets 20 tokens/s on llama 70b q4, is that normal?", ("41 of 80 layers on the GPU", "system RAM")),
    ("4090跑70b q4只有2 token/s正常吗", ("80 层中的 41 层放在 GPU", "系统内存")),
    ("should I get a mac studio or 2x3090 for 70b models?", ("Apple M3 Ultra (96 GB): Yes", "sold today")),
    ("买Mac Studio还是双3090跑70b大模型", ("Apple M3 Ultra (96 GB)：可以", "现在在卖的机型")),
    ("it requires at least 24GB of VRAM, will it run in 16GB?", ("Not as quoted: 16 GB is 8 GB short", "24 GB")),
    ("README说最低要求12G显存，我的8G能跑吗", ("按你说的需求不够：8 GB 比 12 GB 少 4 GB", "量化")),
    ("I have a 3090, should I add another 3090 or a 4090?", ("Beside your RTX 3090, the RTX 4090", "two RTX 3090s")),
    ("我有一张3090，想再加一张，加3090还是4090？", ("和你的 RTX 3090 一起用时", "两张 RTX 3090")),
    ("I spend $300 a month on runpod, should I buy a gpu instead?", ("does the work you rent for $300", "months")),
    ("我每个月在autodl上花2000块，买卡划算吗", ("租来做的工作", "回本")),
    ("how many h100s to train a 7b model from scratch in a week?", ("To train it in 168 h", "H100 SXM5")),
    ("用A100从头训练一个1B模型，三天内训完需要几张卡", ("要在 72 小时内训练完", "A100")),
    ("my job gets killed while loading llama 13b on my 3090", ("OOM killer", "RAM")),
    ("4090加载模型时程序被kill了，是显存不够吗？", ("OOM killer", "内存（RAM）用完了")),
]


async def test_new_answer_kinds_reach_discord_in_the_askers_language(double: DiscordDouble) -> None:
    """My card, the budget's strongest setup with the best value beside it, what to rent, … — each as a Discord
    reply, in English and in Chinese. One bot answers them all, each asked by a user of their own (so no question
    reads as a follow-up of another); starting a bot per question made this the suite's slowest test (≈2 s each)."""
    missed = []
    async with double.run(make_bot()):
        for number, (text, expected) in enumerate(ASKED_IN_THEIR_LANGUAGE):
            asker = double.add_user(f"asker-{number}")
            await double.send_message(
                double.channel.id, mention(double, text), author=asker, mentions=[double.bot_user.id]
            )
            reply = await double.wait_for_message(double.channel.id)
            no_pings(reply)
            shown = str(reply.embeds[0])
            if not all(words in shown for words in expected):
                missed.append(f"{text!r}: {expected} not in {shown[:300]!r}")
    assert not missed, "\n".join(missed)
