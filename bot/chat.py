"""Conversation state: a follow-up refines the previous question instead of starting over.

"what about used?", "and with €800?" or "那二手的呢？" name no new question of their own: they
change one field of the last one. The state is a plain mapping from (user, channel) to the last
Query, with a time-to-live; the bot can back it with the database so a restart keeps the thread.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.memo import ANSWERS_REMEMBERED
from engine.query import ParseResult, Query

if TYPE_CHECKING:
    from engine.advisor import AdviceContext
    from engine.answer import Answer

TTL_SECONDS = 30 * 60
MAX_CONVERSATIONS = 10_000
# With the database behind it, memory keeps only the most recent threads; an older one is read back
# from the database when its user follows up (the database keeps them all for TTL_SECONDS). Once
# written, a thread is held in its stored form, ≈0.15 KB instead of ≈1.5 KB of objects (issue #24).
HELD_WITH_DATABASE = 2_048
# Conversation state reaches the database in batches this many seconds apart (see WriteThroughConversations).
BATCH_SECONDS = 2.0
# A follow-up is short and states no kind of its own ("what about used?").
FOLLOW_UP_MAX_WORDS = 8
# Answers to parsed questions remembered by ``respond``: as many as bot.views keeps rendered replies,
# fewer than the engine's answers. On real traffic a question is seldom asked twice, and 512 of them
# held ≈2.7 MB beyond what the engine's own memories hold (bot.observability.retained_sizes,
# 2026-12-06); a repeat past these gets the engine's remembered answer and is only rendered again.
# 32 since the eleventh session (issue #24): 128 found 14 answers again in 10,739 at 20,000 events of
# the benchmark's distinct traffic and held 0.3-0.5 MB.
RESPONSES_REMEMBERED = min(ANSWERS_REMEMBERED, 32)


@dataclass
class Conversations:
    """The last query per (user, channel), forgotten after ``ttl`` seconds; at most ``max_size`` held.

    An ordered dict by last use (the last question asked): a put moves its key to the end, so the
    least recently used thread is always first. At the cap, a put evicts that first entry in O(1)
    (it once scanned every entry: 772 µs per put at 10,000, bench/chat_bench.py), and it drops the
    expired entries it finds at the front, so a burst of one-off users does not keep dead threads
    until the cap is reached. A read of an expired thread forgets it.
    """

    ttl: float = TTL_SECONDS
    max_size: int = MAX_CONVERSATIONS
    _last: OrderedDict[tuple[int, int], tuple[float, Query | str]] = field(default_factory=OrderedDict)

    def get(self, key: tuple[int, int], now: float | None = None) -> Query | str | None:
        """The query held for ``key`` (as put, or in its :func:`stored_form` once compacted)."""
        now = time.monotonic() if now is None else now
        entry = self._last.get(key)
        if entry is None or now - entry[0] > self.ttl:
            self._last.pop(key, None)
            return None
        return entry[1]

    def put(self, key: tuple[int, int], query: Query | str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        last = self._last
        last[key] = (now, query)
        last.move_to_end(key)
        while last:
            oldest_key, (when, _) = next(iter(last.items()))
            if len(last) <= self.max_size and now - when <= self.ttl:
                break
            del last[oldest_key]

    def compact(self, key: tuple[int, int], query: Query, stored: str) -> None:
        """Hold ``stored`` (the :func:`stored_form` of ``query``) instead of ``query`` if ``key`` still
        holds that very query: same place, same time."""
        entry = self._last.get(key)
        if entry is not None and entry[1] is query:
            self._last[key] = (entry[0], stored)

    def __len__(self) -> int:
        return len(self._last)

    def keys(self) -> list[tuple[int, int]]:
        """The held keys, least recently used first (for tests and diagnostics)."""
        return list(self._last)


def stored_form(query: Query | str) -> str:
    """A conversation's query as it is stored: JSON of the fields the user stated (``exclude_unset``
    keeps which ones they were, so :func:`from_stored` gives back an equal query with the same
    ``model_fields_set``). A string is taken to be this form already."""
    return query if isinstance(query, str) else query.model_dump_json(exclude_unset=True)


def from_stored(query: Query | str) -> Query:
    """The query of :func:`stored_form` (or the query itself)."""
    return Query.model_validate_json(query) if isinstance(query, str) else query


# What a follow-up may state beside the previous question's own kind and still refine it ("and on vast.ai?" after a
# rent question: the provider's name says "cloud" too); a model, a card or a task makes a question of its own.
_REFINEMENTS = frozenset(
    {"kind", "provider", "cloud_interest", "condition", "budget", "hours_per_day", "vendor", "objective"}
)


def is_follow_up(text: str, result: ParseResult, previous: Query) -> bool:
    """Short text that states no question kind of its own refines the previous question; so does one that says the
    previous question's kind again with nothing but refinements beside it."""
    stated = result.query.model_fields_set
    same_kind = "kind" not in stated or (result.query.kind == previous.kind and stated <= _REFINEMENTS)
    return _short(text) and same_kind and bool(stated - {"kind"})


def _short(text: str) -> bool:
    """A message short enough to refine the previous question rather than ask one of its own."""
    return len(text.split()) <= FOLLOW_UP_MAX_WORDS or len(text) <= 24


def names_the_card_asked(text: str, result: ParseResult, previous: Query) -> bool:
    """ "Qwen 7B gives 1 token/s, why?" was answered with what sets a run's speed and "which GPU does it run on?":
    a short message naming only a card next ("on my 3060", which alone reads as a question about that card)
    answers that question."""
    stated = result.query.model_fields_set
    slow_run = previous.kind == "other" and previous.workload is not None and not previous.gpus
    return _short(text) and slow_run and "gpus" in stated and stated <= _CARD_FIELDS


# What naming one's card states ("on my 3060", "my 3090 24G", "我的是3060")
_CARD_FIELDS = frozenset({"kind", "gpus", "gpu_counts", "num_gpus", "min_memory_gb"})


def _asker_currency(language: str) -> str | None:
    """The currency a question's script implies (the parser's own reading of a bare amount: 简体 → CNY, 繁體 → TWD),
    or None for English."""
    from engine.parse_vocab import load_vocab

    code = load_vocab().money["script_default"].get(language)
    return str(code) if code else None


@lru_cache(maxsize=RESPONSES_REMEMBERED)
def respond(result: ParseResult, context: AdviceContext) -> Answer:
    """The engine's answer to a parsed question, with what the parser has to say back: ignored
    values, and GPU names it did not know ("did you mean …?") — a comparison with an unknown card
    asks again rather than comparing against something else; a question the engine refuses
    (``UserError``) is answered with what was wrong. Remembered like the engine's answers,
    so a repeated question gets the same Answer object (and bot.views.rendered its reply)."""
    from bot.render import unknown_gpu_msg
    from engine.advisor import advise
    from engine.answer import Answer, FollowUp
    from engine.errors import UserError
    from engine.message import msg

    hints = tuple(unknown_gpu_msg(name) for name in result.unknown_gpus)
    not_out = tuple(n for n in result.notes if n.key == "parse.note.not_out_yet")  # "rtx 6090 vs 4090"
    local = _asker_currency(result.language) if context.currency == "USD" else None
    if local is not None:
        # "租4090一小时多少钱" in a server that prices in dollars: the dollars stay first, the asker's yuan beside them
        context = context.model_copy(update={"currency": local})
    if (hints or not_out) and result.query.kind == "compare" and len(result.query.gpus) < 2:
        return Answer(
            kind="compare",
            query=result.query,
            headline=msg("sentences", items=(*hints, *not_out)),
            follow_up=FollowUp(field="gpu", question=msg("advice.followup.compare"), choices=()),
        )
    try:
        answer = advise(result.query, context)
    except UserError as exc:  # "rent or buy at 0 hours a day": say what was wrong, as an answer of its own
        return Answer(kind="other", query=result.query, headline=exc.message, notes=(*hints, *result.notes))
    notes = (*hints, *result.notes)
    if "kind" in result.missing and len(result.kind_choices) > 1 and answer.follow_up is None:
        # The reader was unsure what was asked: answer its best reading, and offer the others as buttons.
        choices = tuple((kind, msg(f"title.{kind}")) for kind in result.kind_choices if kind != answer.kind)
        answer = answer.model_copy(
            update={"follow_up": FollowUp(field="kind", question=msg("followup.kind"), choices=choices)}
        )
    if "advice.scaling.memory" in answer.headline.all_keys():  # the guide's answer on several GPUs says it already
        notes = tuple(n for n in notes if n.key != "parse.note.first_card")
    leading = tuple(n for n in notes if n.key in LEADING_NOTES)
    if leading:
        # "each of my two 4090s takes 20 GB, why not 10?", "only the first GPU is used": what the user saw is the
        # question, so what explains it leads, before the verdict on the card
        answer = answer.model_copy(update={"headline": msg("sentences", items=(*leading, answer.headline))})
        notes = tuple(n for n in notes if n.key not in LEADING_NOTES)
    return answer.model_copy(update={"notes": (*answer.notes, *notes)}) if notes else answer


# The parser's notes that answer what was asked rather than add to it (engine/parse.py): memory seen taken, one GPU of
# several used, the first of several fuller than the rest, a program on the CPU instead of the GPU, why a laptop is
# answered with its GPUs side by side and no price, whether NVLink is needed, what a laptop's NPU runs, what a card
# added to the user's own does beside it, a process killed for want of RAM
LEADING_NOTES = frozenset(
    {
        "parse.note.reserved",
        "parse.note.one_gpu",
        "parse.note.first_card",
        "parse.note.cpu_fallback",
        "parse.note.laptop_tiers",
        "parse.note.nvlink",
        "parse.note.pc_npu",
        "parse.note.add_to_own",
        "parse.note.add_to_own.slower",
        "parse.note.killed_ram",
    }
)


def understand(text: str, previous: Query | None, default_currency: str = "USD") -> ParseResult:
    """Parse ``text``; when it is a follow-up, merge it into ``previous``. With no previous question
    the text is read as a whole question (``standalone``): "…能微调呢？" ends like a follow-up but,
    as a first message, has a kind of its own to find."""
    from engine.parse import parse

    result = parse(text, default_currency=default_currency, standalone=previous is None)
    if previous is not None and names_the_card_asked(text, result, previous):
        # the run's speed on that card: what the model named decodes at on it, or the card's speed for the work
        merged = previous.merged(result.query)
        return result.model_copy(
            update={"query": merged.model_copy(update={"kind": "can_run" if merged.model else "info"})}
        )
    if previous is not None and is_follow_up(text, result, previous):
        return result.model_copy(update={"query": previous.merged(result.query)})
    return result


class MemoryConversationStore:
    """The bot's conversation store in one process; the database-backed store has the same methods."""

    def __init__(self, ttl: float = TTL_SECONDS) -> None:
        self._conversations = Conversations(ttl=ttl)

    async def get(self, key: tuple[int, int]) -> Query | None:
        found = self._conversations.get(key)
        return None if found is None else from_stored(found)

    async def put(self, key: tuple[int, int], query: Query) -> None:
        self._conversations.put(key, query)


class WriteThroughConversations:
    """Conversation state kept in memory and persisted to the database in batches.

    A channel's messages all reach the one shard process that owns its guild (DMs: shard 0), so
    this process's memory is authoritative for the threads it serves; the database only matters
    after a restart. Reads hit memory first, so an answer costs no database round trip; writes
    are collected for ``batch_seconds`` and stored in one transaction. ``flush()`` (called at
    shutdown) writes what is left, so only a crash can lose the last two seconds of threads. Each
    batch costs a transaction whatever its size: at 0.5 s, writing was ≈4 % of the bot's CPU per
    answer under load (bench/e2e_bench.py), at 2 s a quarter of that. Memory holds the ``held``
    most recent threads (``HELD_WITH_DATABASE``), each written one in the form the database stores
    (the JSON written once for both; read back into a Query when its user follows up); an older one
    comes back from the database, and a thread not yet written is found in the pending batch.
    """

    def __init__(
        self,
        backing: object,
        ttl: float = TTL_SECONDS,
        batch_seconds: float = BATCH_SECONDS,
        held: int = HELD_WITH_DATABASE,
    ) -> None:
        self._backing = backing
        self._memory = Conversations(ttl=ttl, max_size=held)
        self._dirty: dict[tuple[int, int], Query] = {}
        self._batch_seconds = batch_seconds
        self._writer: asyncio.Task[None] | None = None

    async def get(self, key: tuple[int, int]) -> Query | None:
        found = self._memory.get(key)
        if found is None:
            found = self._dirty.get(key)  # evicted from memory before its batch was written
        if found is None:
            found = await self._backing.get(key)  # type: ignore[attr-defined]
            if found is not None:
                self._memory.put(key, found)
        return None if found is None else from_stored(found)

    async def put(self, key: tuple[int, int], query: Query) -> None:
        self._memory.put(key, query)
        self._dirty[key] = query
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_soon())

    async def _write_soon(self) -> None:
        await asyncio.sleep(self._batch_seconds)
        await self.flush()

    async def flush(self) -> None:
        """Write the batch; memory then holds each written query in its stored form (written out once,
        for both): ≈0.15 KB instead of ≈1.5 KB of objects (issue #24)."""
        dirty, self._dirty = self._dirty, {}
        if not dirty:
            return
        batch: list[tuple[tuple[int, int], Query | str]] = []
        for key, query in dirty.items():
            stored = stored_form(query)
            self._memory.compact(key, query, stored)
            batch.append((key, stored))
        await self._backing.put_many(batch)  # type: ignore[attr-defined]
