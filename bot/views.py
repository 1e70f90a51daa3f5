"""Buttons under answers. Each keeps its state in its ``custom_id`` (``DynamicItem``), so a button
still works after a restart or on another shard process: nothing is looked up in memory except
the presser's conversation, and a lost conversation only means the choice starts a new question.
"""

from __future__ import annotations

import io
import re
import sys
from collections import OrderedDict, deque
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_internals import NeverListens, free_when_handled
from bot.embeds import answer_embed, why_embed
from bot.i18n import Lang, from_discord, t
from bot.store.db import StoreUnavailable
from bot.words import english, render
from engine.catalog import load_catalog
from engine.codec import decode, encode
from engine.errors import UserError
from engine.memo import ANSWERS_REMEMBERED
from engine.money import Money
from engine.query import Query
from engine.specs import WORKLOADS  # loaded anyway with the message catalogs (bot.words → engine.money)

if TYPE_CHECKING:
    from bot.app import GpuAdvisorBot
    from engine.answer import Answer

# The advisor (engine.advisor: the whole engine) and the composer load on the first press or answer,
# or in the warm-up after READY — not when the bot is imported (start-up, issue #24): each callback
# imports what it uses.

ID = r"[a-z0-9.-]{1,40}"
LANG = r"(?P<lang>en|zh-Hant|zh-Hans)"
WORKLOAD = "(?P<workload>" + "|".join(WORKLOADS) + ")"  # every metric the engine ranks by
SAFE = discord.AllowedMentions.none()


def _bot(interaction: discord.Interaction) -> GpuAdvisorBot:
    return interaction.client  # type: ignore[return-value]


async def _show(interaction: discord.Interaction, answer: Answer, lang: Lang) -> None:
    """Answer in place: the message the button sits under is replaced by the new answer (an answer
    without buttons clears the old ones). Like every answer it takes one of the bot's answer slots and a
    graceful shutdown waits for it (``GpuAdvisorBot.answering``)."""
    async with _bot(interaction).answering():
        embed, view = rendered(answer, lang)
        await interaction.response.edit_message(embed=embed, view=view)


class FreedWhenHandled:
    """Mixed into every button: a click's interaction, and the view discord.py rebuilt from its
    message to hold the button, are freed once the click is handled (issue #24,
    :func:`bot.discord_internals.free_when_handled`)."""

    view: discord.ui.View | None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        free_when_handled(interaction, self.view)
        return True


class CompareButton(
    FreedWhenHandled,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"ga:cmp:(?P<a>{ID}):(?P<b>{ID}):{WORKLOAD}:{LANG}",
):
    def __init__(self, a: str, b: str, workload: str, lang: Lang) -> None:
        self.a, self.b, self.workload, self.lang = a, b, workload, lang
        super().__init__(
            discord.ui.Button(
                label=t(lang, "button.compare_top"),
                style=discord.ButtonStyle.primary,
                custom_id=f"ga:cmp:{a}:{b}:{workload}:{lang}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match["a"], match["b"], match["workload"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.advisor import advise

        query = Query(kind="compare", gpus=(self.a, self.b), gpu_counts=(1, 1), workload=self.workload)
        await _show(interaction, advise(query, await _bot(interaction).context_for(interaction.guild_id)), self.lang)


class CloudButton(
    FreedWhenHandled, discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:cloud:(?P<gpu>{ID}):{LANG}"
):
    def __init__(self, gpu: str, lang: Lang) -> None:
        self.gpu, self.lang = gpu, lang
        super().__init__(
            discord.ui.Button(
                label=t(lang, "button.cloud"), style=discord.ButtonStyle.secondary, custom_id=f"ga:cloud:{gpu}:{lang}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match["gpu"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.advisor import advise

        query = Query(kind="cloud_vs_buy", gpus=(self.gpu,))
        await _show(interaction, advise(query, await _bot(interaction).context_for(interaction.guild_id)), self.lang)


class WhyButton(
    FreedWhenHandled, discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:why:(?P<gpu>{ID}):{WORKLOAD}:{LANG}"
):
    def __init__(self, gpu: str, workload: str, lang: Lang) -> None:
        self.gpu, self.workload, self.lang = gpu, workload, lang
        super().__init__(
            discord.ui.Button(
                label=t(lang, "button.why"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ga:why:{gpu}:{workload}:{lang}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match["gpu"], match["workload"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.performance import estimate, relative_speed

        gpu = load_catalog().get(self.gpu)
        result = estimate(gpu, self.workload)  # type: ignore[arg-type]
        embed = why_embed(result, relative_speed(self.gpu, self.workload), self.lang)  # type: ignore[arg-type]
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=SAFE)


class FollowUpButton(
    FreedWhenHandled,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"ga:fu:(?P<field>task|budget|kind):(?P<value>[a-z0-9_]{{1,20}}):{LANG}",
):
    """One answer to the bot's follow-up question; refines the presser's last question."""

    def __init__(self, field: str, value: str, label: str, lang: Lang) -> None:
        self.field, self.value, self.lang = field, value, lang
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.secondary, custom_id=f"ga:fu:{field}:{value}:{lang}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match["field"], match["value"], getattr(item, "label", None) or match["value"], match["lang"])  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.advisor import advise

        bot = _bot(interaction)
        key = (interaction.user.id, interaction.channel_id or 0)
        previous = await bot.conversations.get(key) or Query(kind="recommend")
        update = Query(**{self.field: self.value}) if self.field in ("task", "kind") else Query()
        context = await bot.context_for(interaction.guild_id)
        if self.field == "budget":
            currency = previous.budget.currency if previous.budget else context.currency
            update = Query(budget=Money(amount=int(self.value), currency=currency))
        query = previous.merged(update)
        await bot.conversations.put(key, query)
        await _show(interaction, advise(query, context), self.lang)


# ---- charts and votes: the button carries the whole question (engine.codec), so it survives restarts ----

QUERY = r"(?P<query>[!-~]{1,90})"  # Base85 text of engine.codec.encode
# The buttons' emoji, made once: discord.py parses an emoji given as text anew for every button (≈2 µs each,
# three buttons under every recommendation; issue #24). Read only (a Button sends its emoji's to_dict()).
_EMOJI = {key: discord.PartialEmoji.from_str(text) for key, text in (("chart", "📊"), ("up", "👍"), ("down", "👎"))}
LANG_CODES: dict[str, Lang] = {"e": "en", "t": "zh-Hant", "s": "zh-Hans"}
LANG_CODE = {lang: code for code, lang in LANG_CODES.items()}


def charted(answer: Answer) -> bool:
    """Whether ``answer`` has a chart (bot.charts.answer_spec draws one for exactly these)."""
    can_run = answer.can_run
    return bool(
        answer.comparison
        or answer.options
        or answer.break_even
        or answer.power
        or (can_run and can_run.model_id and can_run.verdicts)
    )


async def send_chart(interaction: discord.Interaction, answer: Answer, lang: Lang, *, ephemeral: bool = False) -> None:
    """Render off the event loop (charts.render_spec_async) and attach the PNG as a follow-up."""
    from bot import charts

    spec = charts.answer_spec(answer, lang)
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    if spec is None:
        await interaction.followup.send(t(lang, "chart.none"), ephemeral=True, allowed_mentions=SAFE)
        return
    try:
        png = await charts.render_spec_async(spec)
    except UserError as exc:  # the chart queue is full: say so, rather than leave "thinking…"
        await interaction.followup.send(render(exc.message, lang), ephemeral=True, allowed_mentions=SAFE)
        return
    await interaction.followup.send(
        file=discord.File(io.BytesIO(png), "chart.png"), ephemeral=ephemeral, allowed_mentions=SAFE
    )


class ChartButton(
    FreedWhenHandled, discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:chart:(?P<lang>[ets]):{QUERY}"
):
    """Draws the chart of the answer it sits under: the question is in the button, answered again."""

    def __init__(self, query: str, lang: Lang) -> None:
        self.query, self.lang = query, lang
        super().__init__(
            discord.ui.Button(
                label=t(lang, "button.chart"),
                style=discord.ButtonStyle.secondary,
                emoji=_EMOJI["chart"],
                custom_id=f"ga:chart:{LANG_CODE[lang]}:{query}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match["query"], LANG_CODES[match["lang"]])

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.advisor import advise

        answer = advise(decode(self.query), await _bot(interaction).context_for(interaction.guild_id))
        await send_chart(interaction, answer, self.lang)


class VoteButton(
    FreedWhenHandled, discord.ui.DynamicItem[discord.ui.Button], template=rf"ga:vote:(?P<vote>up|down):{QUERY}"
):
    """👍/👎 under a recommendation, stored with the whole question that produced it."""

    def __init__(self, vote: str, query: str) -> None:
        self.vote, self.query = vote, query
        super().__init__(
            discord.ui.Button(
                emoji=_EMOJI[vote],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ga:vote:{vote}:{query}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        return cls(match["vote"], match["query"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from engine.advisor import advise

        bot = _bot(interaction)
        answer = advise(decode(self.query), await bot.context_for(interaction.guild_id))
        lang = interaction.extras.get("lang") or from_discord(interaction.locale)
        if bot.store is not None and interaction.message is not None:
            try:
                await self._store(bot, interaction, answer)
            except StoreUnavailable:  # the database is down: say so rather than leave the press unanswered
                await interaction.response.send_message(
                    t(lang, "error.store_unavailable"), ephemeral=True, allowed_mentions=SAFE
                )
                return
        await interaction.response.send_message(t(lang, "vote.thanks"), ephemeral=True, allowed_mentions=SAFE)

    async def _store(self, bot: GpuAdvisorBot, interaction: discord.Interaction, answer: Answer) -> None:
        assert bot.store is not None and interaction.message is not None
        await bot.store.feedback.vote(
            interaction.message.id,
            interaction.user.id,
            1 if self.vote == "up" else -1,
            answer.query,
            english(answer.headline),
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
        )


def answer_message(answer: Answer, lang: Lang) -> dict[str, Any]:
    """A reply's keyword arguments: the answer's embed, its buttons if it has any, and no pings."""
    embed, view = rendered(answer, lang)
    message: dict[str, Any] = {"embed": embed, "allowed_mentions": SAFE}
    if view is not None:
        message["view"] = view
    return message


# Rendered replies remembered: fewer than the engine's answers. One holds its answer, embed and
# buttons, ≈45 KB: 512 of them (the engine's ANSWERS_REMEMBERED) held 23 MB, and the shared
# recommendation embeds 6.5 MB more (bot.observability.retained_sizes, 2026-12-03), while on real
# traffic a reply is seldom sent twice. A repeated question past these still gets the engine's
# remembered answer and only renders again. 32, not 128 (2026-12-06, issue #24): on the benchmark's
# distinct traffic 2 % of renders found their reply (385 of 18,000 at 20,000 events), and 128 held
# 0.4-0.9 MB of embeds and buttons; the repeated workload's 14 questions still fit.
RENDERED_REMEMBERED = min(ANSWERS_REMEMBERED, 32)
# Recommendation embeds remembered, shared by answers that read the same (``_recommendation_embed``):
# unlike whole replies these are found again, 86 % of the time on that traffic (9,478 of 11,079), so
# they keep the 128 they had (≈1.2 MB).
RECOMMENDATION_EMBEDS_REMEMBERED = min(ANSWERS_REMEMBERED, 128)
_RENDERED: OrderedDict[tuple[int, str], tuple[Answer, discord.Embed, discord.ui.View | None]] = OrderedDict()


def rendered(answer: Answer, lang: Lang) -> tuple[discord.Embed, discord.ui.View | None]:
    """The embed and buttons for an answer, built once per answer object and language.

    A repeated question gets the very same frozen Answer back from the engine (see
    ``engine.advisor.advise``), so its reply is looked up by identity; each entry holds the answer,
    so its id cannot be reused while remembered. Neither is changed after this: discord.py only
    reads an embed to send it, and a view of dynamic buttons only to list its components (pressing
    a button rebuilds the item from its ``custom_id``, never from this object).
    """
    key = (id(answer), lang)
    hit = _recall(_RENDERED, key)
    if hit is not None and hit[0] is answer:
        return hit[1], hit[2]
    embed, view = _recommendation_embed(answer, lang), answer_view(answer, lang)
    _RENDERED[key] = (answer, embed, view)
    while len(_RENDERED) > RENDERED_REMEMBERED:
        _, (_, _, forgotten) = _RENDERED.popitem(last=False)  # unpacked: no tuple holds it any more
        if forgotten is not None and not _release(forgotten):
            _STILL_SENDING.append(forgotten)
        del forgotten
        _release_sent()
    return embed, view


# Forgotten views that a send still held when they were forgotten (a burst of answers in flight):
# looked at again, two per forgotten view, and released once their send is done; beyond
# STILL_SENDING_MAX the oldest are left to the garbage collector, as before.
STILL_SENDING_MAX = 1_024
_STILL_SENDING: deque[discord.ui.View] = deque()


def _release_sent() -> None:
    pending = _STILL_SENDING
    for _ in range(min(2, len(pending))):
        view = pending.popleft()
        if not _release(view):
            pending.append(view)
        del view  # before the next look: a local reference would count as someone else's
    while len(pending) > STILL_SENDING_MAX:
        pending.popleft()


def _release(view: discord.ui.View) -> bool:
    """Break a forgotten view's reference cycles (each button points back at its view) when nothing
    else holds it, so it is freed at once instead of waiting, promoted, for a full collection of the
    garbage collector (issue #24: forgotten views were ≈9 KB each and the largest kind of garbage
    waiting for one, 2,881 of them after 6,000 events). False when something else still holds it
    (a send in flight, or waiting to retry): it keeps its buttons."""
    if sys.getrefcount(view) > _VIEW_HELD_BY_RELEASE + len(view.children):
        return False
    view.clear_items()
    return True


# References to a forgotten view that are not someone else's when _release looks: the caller's
# local, _release's parameter and getrefcount's argument (tests/bot/test_memory_bounds.py).
_VIEW_HELD_BY_RELEASE = 3


def _recall(cache: OrderedDict, key: Hashable) -> Any:
    """The entry for ``key``, or None; a hit becomes the newest entry, the last to be forgotten."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def _keep(cache: OrderedDict, key: Hashable, value: Any) -> None:
    """Store ``value`` as the newest entry of ``cache``, forgetting the oldest beyond
    ``RECOMMENDATION_EMBEDS_REMEMBERED`` (the recommendation embeds; ``rendered`` does the same for
    its replies, with its own bound)."""
    cache[key] = value
    while len(cache) > RECOMMENDATION_EMBEDS_REMEMBERED:
        cache.popitem(last=False)


_RECOMMEND_FIELDS: tuple[str, ...] = ()  # Answer's fields less its query: read at the first recommendation


class _Hashed:
    """A key hashed once. A recommendation's key holds the whole answer but its query, and hashing it
    walks every model and message in it (≈70 µs for a corpus recommendation, issue #24), which a tuple
    does anew for the look-up and again for the store on a miss. Equal as its tuple is."""

    __slots__ = ("_hash", "key")

    def __init__(self, key: tuple) -> None:
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hashed) and self._hash == other._hash and self.key == other.key


_RECOMMENDATION_EMBEDS: OrderedDict[_Hashed, discord.Embed] = OrderedDict()


def _recommendation_embed(answer: Answer, lang: Lang) -> discord.Embed:
    """A recommendation's embed, shared by answers that read the same. A new budget between the
    same two prices gets the same cards, figures and rules (engine.cost remembers rankings per
    price interval), and the embed shows the question only as "within your budget"; so the
    answer less its query, and whether it had a budget, is the key (the buttons do carry the
    exact question, so they are built per answer)."""
    if answer.kind != "recommend":
        return answer_embed(answer, lang)
    key = _Hashed(
        (lang, answer.query.budget is not None, *(getattr(answer, name) for name in _recommend_fields(answer)))
    )
    embed = _recall(_RECOMMENDATION_EMBEDS, key)
    if embed is None:
        embed = answer_embed(answer, lang)
        _keep(_RECOMMENDATION_EMBEDS, key, embed)
    return embed


def _recommend_fields(answer: Answer) -> tuple[str, ...]:
    """``Answer``'s field names less ``query`` (from the answer's class: engine.answer is not
    imported by this module)."""
    global _RECOMMEND_FIELDS
    if not _RECOMMEND_FIELDS:
        _RECOMMEND_FIELDS = tuple(name for name in type(answer).model_fields if name != "query")
    return _RECOMMEND_FIELDS


class AnswerView(NeverListens):
    """An answer's buttons, sent with every repeat of the question like its embed.

    Every button is a DynamicItem registered with the bot at start-up (``DYNAMIC_ITEMS``): a press
    is routed by its custom_id to a new item, never to this object, so the view never listens
    (bot.discord_internals.NeverListens)."""


# Discord's limit on a component's custom_id. Every Query a question produces encodes in fewer characters than the
# chart and vote buttons leave it (≤ 87; the corpus's longest takes 48); one with every field at its widest takes
# 88-89 (tests/engine/test_codec.py): such an answer is sent without those buttons, never refused.
CUSTOM_ID_MAX = 100


def answer_view(answer: Answer, lang: Lang) -> AnswerView | None:
    """The buttons that help next: follow-up choices, or compare / cloud / why under a pick. None for an
    answer with none of them (most: 927 of the corpus's 1,573), without building the view first (≈3 µs
    in discord.py, issue #24)."""
    follow_up = answer.follow_up
    if follow_up and follow_up.field in ("task", "budget", "kind"):
        view = AnswerView(timeout=None)  # sent as it is, even with no choices (an empty view), as before
        for value, label in follow_up.choices[:10]:
            view.add_item(FollowUpButton(follow_up.field, value, render(label, lang), lang))
        return view
    chart = charted(answer)
    if not (answer.options or answer.comparison or chart or answer.kind == "recommend"):
        return None
    view = AnswerView(timeout=None)
    if answer.options:
        top = answer.options[0]
        if len(answer.options) >= 2:
            view.add_item(CompareButton(top.gpu_id, answer.options[1].gpu_id, top.workload, lang))
        view.add_item(CloudButton(top.gpu_id, lang))
        view.add_item(WhyButton(top.gpu_id, top.workload, lang))
    elif answer.comparison:
        view.add_item(WhyButton(answer.comparison.gpu_ids[0], answer.comparison.workload, lang))
    query = encode(answer.query) if chart or answer.kind == "recommend" else ""
    if query and len(f"ga:vote:down:{query}") <= CUSTOM_ID_MAX:  # the longest prefix a query button has
        if chart:
            view.add_item(ChartButton(query, lang))
        if answer.kind == "recommend":
            view.add_item(VoteButton("up", query))
            view.add_item(VoteButton("down", query))
    return view if view.children else None


DYNAMIC_ITEMS = (CompareButton, CloudButton, WhyButton, FollowUpButton, ChartButton, VoteButton)
