"""Free text → :class:`~engine.query.ParseResult`: what a user asked, in English, Chinese or a mix.

The parser is rules over vocabularies (``data/locales/parse.yaml``) and the GPU catalog, not a
model: every decision can be read, tested and extended by adding words. It works in passes over
one lower-cased copy of the text, each pass taking the characters it explains so later passes
cannot misread them (a model size, a GPU name, a count, a wattage, hours and memory are taken
before anything may be read as money). A ``Query`` gets only the fields the text states, so a
follow-up ("what about used?") refines the previous question through ``Query.merged``.
See docs/parsing.md.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from engine.answer import ANSWERS_REMEMBERED
from engine.catalog import Catalog, load_catalog
from engine.message import Msg, msg
from engine.money import Money
from engine.parse_numbers import (
    Count,
    Scan,
    count_after,
    count_before,
    count_patterns,
    currency_hints,
    find_amounts,
    find_hours,
    find_memory,
    find_power_limit,
    generic_counts,
    money_patterns,
    resolve_currency,
    take_percents,
)
from engine.parse_vocab import (
    GpuIndex,
    Vocab,
    Words,
    build_gpu_index,
    gpu_tokens,
    load_vocab,
    squash,
)
from engine.query import ParseResult, Query

LIMIT = 2000  # characters read; longer text is cut before any regex runs
FOLLOW_UP_MAX = 60  # a follow-up is short: "what about used?", "and with €800?"

_INVISIBLE = dict.fromkeys(
    map(ord, "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
             "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u00ad\u180e"),
    None,
)
_DISCORD = re.compile(r"<a?:\w{1,32}:[0-9]{1,20}>|<(?:@[!&]?|#)[0-9]{1,20}>|@(?:everyone|here)\b|https?://\S{1,300}")
_MARKDOWN = re.compile(r"\*{1,3}|`{1,3}|~~|\|\||__|^[ \t]{0,3}(?:#{1,6}|>{1,3})[ \t]", re.M)
_MARKUP_CHARS = frozenset("*`~|_#>")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SEPARATOR = re.compile(r"[\s\-_]{0,2}")
_NX = re.compile(r"^([0-9]{1,4})x([a-z][a-z0-9]*|[0-9]{3,4}[a-z]*)$")
_VARIANT = frozenset({"ti", "super", "xt", "xtx"})
_STAGES = ("llm_pretrain", "llm_finetune", "llm_inference")
_BLOCKING_DOMAINS = ("image_generation", "computer_vision", "rl", "other")


@dataclass(frozen=True)
class Mention:
    """One GPU name in the text."""

    gpu_id: str
    start: int
    end: int
    memory: float | None  # a memory size typed with the name ("3060 12GB")
    guessed: bool  # one of several variants, or a fuzzy match
    count: Count | None


class Hits(dict[str, bool]):
    """Which of several phrase lists the text matches, each searched only when first asked."""

    def __init__(self, patterns: dict[str, Any], words: Words) -> None:
        super().__init__()
        self.patterns, self.words = patterns, words

    def __missing__(self, key: str) -> bool:
        hit = self[key] = self.patterns[key].find(self.words) is not None
        return hit


@dataclass(frozen=True)
class Cues:
    kinds: Hits
    topic: str | None
    topic_strong: bool


def clean(text: str) -> tuple[str, bool]:
    """Text safe to scan: cut to ``LIMIT`` first, NFKC (full-width digits → ASCII), without
    invisible and bidi characters, Discord mentions, links and Markdown marks."""
    if not isinstance(text, str):
        text = ""
    cut = len(text) > LIMIT
    text = text[:LIMIT]
    if not text.isascii():  # ASCII is already NFKC and has no invisible characters
        text = unicodedata.normalize("NFKC", text)[:LIMIT].translate(_INVISIBLE)
    if "<" in text or "@" in text or "http" in text:
        text = _DISCORD.sub(" ", text)
    if _MARKUP_CHARS.intersection(text):
        text = _MARKDOWN.sub(" ", text)
    return text, cut


def lower(text: str) -> str:
    """Lower case with offsets kept (a few characters grow when lower-cased; those stay as they are)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def language(low: str, vocab: Vocab, default_currency: str) -> str:
    """en, zh-Hant or zh-Hans, by which script's distinctive characters the text uses."""
    if low.isascii() or not _CJK.search(low) or vocab.kana.search(low):
        return "en"
    hant = sum(c in vocab.hant for c in low)
    hans = sum(c in vocab.hans for c in low)
    if hant != hans:
        return "zh-Hant" if hant > hans else "zh-Hans"
    return "zh-Hant" if default_currency in ("TWD", "HKD") else "zh-Hans"


class Parser:
    """The vocabularies and the GPU index, built once; :meth:`parse` keeps no state between calls."""

    def __init__(self, vocab: Vocab, index: GpuIndex) -> None:
        self.vocab = vocab
        self.index = index
        self._fuzzy: dict[str, str | None] = {}
        self._max_budget = Decimal(vocab.money["max_plausible"])
        targets = _VARIANT | vocab.gpu_laptop
        self._typo_targets = tuple(sorted(w for w in targets if len(w) >= 3))
        self._typo_exact = frozenset(targets | {w + s for w in targets for s in ("s", "es")}
                                     | index.starts | vocab.gpu_noise | vocab.gpu_lines | vocab.gpu_like)

    # --- GPU names ---------------------------------------------------------------------------------

    def _token(self, tok: str, start: int, scan: Scan) -> tuple[str, int]:
        """A token as a name part: "2x3090" → "3090"; a plural "4090s" → "4090", except where the
        catalog has the "s" form ("2070s" is a 2070 Super) and no count says it is a plural."""
        nx = _NX.match(tok) if "x" in tok else None
        if nx and nx.group(2) in self.index.starts:
            return nx.group(2), start + len(nx.group(1)) + 1
        if tok[-1] == "s" and tok[:-1] in self.index.starts:
            plural = count_patterns(self.vocab).search_before(scan.left(start, 24))
            if tok not in self.index.starts or plural:
                return tok[:-1], start
        return tok, start

    def _run(self, toks: list[tuple[str, int, int]], i: int, scan: Scan) -> list[tuple[str, int, int]]:
        """The tokens from ``i`` that may form one name: joined only by spaces or hyphens, at most 6."""
        tok, start = self._token(toks[i][0], toks[i][1], scan)
        end = toks[i][2]
        variant_next = i + 1 < len(toks) and toks[i + 1][0] in _VARIANT
        if tok not in self.index.starts and not (tok.isdigit() and variant_next):
            return []
        if not scan.free(start, end):
            return []
        run = [(tok, start, end)]
        low, last = scan.low, end
        for nxt, s, e in toks[i + 1:i + 6]:
            gap = low[last:s]
            if (gap != " " and not _SEPARATOR.fullmatch(gap)) or not scan.free(s, e):
                break
            run.append((self._token(nxt, s, scan)[0] if nxt[-1] == "s" or "x" in nxt else nxt, s, e))
            last = e
        return run

    def _lookup(self, core: str, extras: tuple[str, ...], laptop: bool) -> tuple[str, ...]:
        """The cards a name key means; a laptop word in the text picks the laptop card where one exists."""
        if not core:
            return ()
        if laptop and "laptop" not in extras:
            promoted = self.index.lookup((core, tuple(sorted((*extras, "laptop")))))
            if promoted:
                return promoted
        return self.index.lookup((core, extras))

    def _money_context(self, scan: Scan, start: int, end: int) -> bool:
        """A bare number next to a currency ("$1080", "2080 dollars") is money, not a GPU."""
        if re.search(r"[$€£¥]\s*$", scan.left(start, 3)):
            return True
        return bool(money_patterns(self.vocab).suffix.match(scan.low, end)) or scan.low[end:end + 1] == "k"

    def _resolve_fuzzy(self, text: str) -> str | None:
        if text not in self._fuzzy:
            self._fuzzy[text] = self.index.catalog.resolve(text) if len(self._fuzzy) < 4096 else None
        return self._fuzzy[text]

    def find_gpus(self, scan: Scan, laptop: bool) -> tuple[list[Mention], list[str], list[Count]]:
        """GPU names, longest catalog match first; GPU-like names that match nothing go to unknown,
        with the counts written next to them ("2x 4080 supr")."""
        toks = gpu_tokens(scan.low, self.vocab)
        mentions: list[Mention] = []
        unknown: list[str] = []
        loose: list[Count] = []
        starts = self.index.starts
        i, n = 0, len(toks)
        while i < n:
            tok = toks[i][0]
            # Only what _run accepts may begin a name: a start word (maybe as a plural or after
            # "2x"), or a number followed by a variant word ("3090 super"). Skip the rest cheaply.
            if not (tok in starts
                    or (tok[-1] == "s" and tok[:-1] in starts)
                    or ("x" in tok and self._nx_start(tok))
                    or (tok.isdigit() and i + 1 < n and toks[i + 1][0] in _VARIANT)):
                i += 1
                continue
            run = self._run(toks, i, scan)
            found = self._match(run, laptop, scan) if run else None
            if found:
                length, (gpu_id, start, end, memory, guessed) = found
                if length < len(run) and self._variant_typo(run[length][0]):
                    # "4080 supr": a misspelt variant word. Ask about it rather than read the base card.
                    end = run[length][2]
                    scan.take(start, end)
                    self._add_unknown([t for t, _, _ in run[:length + 1]], unknown)
                    count = count_before(scan, start, self.vocab) or count_after(scan, end, self.vocab)
                    loose += [count] if count else []
                    i += length + 1
                    continue
                scan.take(start, end)
                last = toks[i + length - 1][0]
                plural = last[-1] == "s" and (last != run[length - 1][0] or last in self.vocab.gpu_noise)
                count = count_before(scan, start, self.vocab, plural) or count_after(scan, end, self.vocab)
                mentions.append(Mention(gpu_id, start, end, memory, guessed, count))
                i += length
                continue
            if run:
                self._unknown(run, scan, laptop, mentions, unknown, loose)
            i += 1
        return mentions, unknown, loose

    def _variant_typo(self, tok: str) -> bool:
        """A word one typo away from a variant or laptop word ("supr", "laptp", "xtxx"), not a plural of one."""
        if len(tok) < 3 or not tok.isalpha() or tok in self._typo_exact:
            return False
        return any(_one_typo(tok, word) for word in self._typo_targets)

    def _add_unknown(self, tokens: list[str], unknown: list[str]) -> None:
        text = " ".join(t for t in tokens if t not in self.vocab.gpu_noise) or tokens[0]
        if text not in unknown:
            unknown.append(text)

    def _nx_start(self, tok: str) -> bool:
        nx = _NX.match(tok)
        return nx is not None and nx.group(2) in self.index.starts

    def _match(self, run: list[tuple[str, int, int]], laptop: bool,
               scan: Scan) -> tuple[int, tuple[str, int, int, float | None, bool]] | None:
        """The longest start of the run that names a card: (tokens used, (id, start, end, memory, guessed))."""
        tokens = [t for t, _, _ in run]
        keys = self.index.keys(tokens, self.vocab)
        for length in range(len(keys), 0, -1):
            core, extras = keys[length - 1]
            ids = self._lookup(core, extras, laptop)
            if not ids:
                continue
            start, end = run[0][1], run[length - 1][2]
            if core.isdigit() and self._money_context(scan, start, end):
                return None
            memory = next((float(t[:-2]) for t in tokens[:length] if t.endswith("gb") and t[:-2].isdigit()), None)
            return length, (ids[0], start, end, memory, len(ids) > 1)
        return None

    def _unknown(self, run: list[tuple[str, int, int]], scan: Scan, laptop: bool,
                 mentions: list[Mention], unknown: list[str], loose: list[Count]) -> None:
        """A GPU-like name ("rtx 9090", "3090 super") that no catalog name matches: a careful fuzzy
        match (same numbers and variant words) or, failing that, an unknown name to ask about. A
        misspelt variant word ("7900 xtxx") is never guessed: it is asked about."""
        names = [t for t, _, _ in run if t not in self.vocab.gpu_noise] or [run[0][0]]
        digit_at = next((k for k, t in enumerate(names) if any(c.isdigit() for c in t)), None)
        if digit_at is None or digit_at > 1 or (digit_at == 1 and names[0] not in self.vocab.gpu_like):
            return
        if digit_at == 0 and not (len(names) > 1 and names[1] in _VARIANT) and names[0][:1].isdigit():
            return
        stop = digit_at + 1
        while stop < len(names) and names[stop] in _VARIANT:
            stop += 1
        if stop < len(names) and self._variant_typo(names[stop]):
            at = next(k for k, (t, _, _) in enumerate(run) if t == names[stop])
            scan.take(run[0][1], run[at][2])
            self._add_unknown(names[:stop + 1], unknown)
            count = count_before(scan, run[0][1], self.vocab)
            loose += [count] if count else []
            return
        text = " ".join(names[:stop])
        gpu_id = self._resolve_fuzzy(text)
        if gpu_id:
            start, end = run[0][1], run[min(stop, len(run)) - 1][2]
            scan.take(start, end)
            mentions.append(Mention(gpu_id, start, end, None, True, count_before(scan, start, self.vocab)))
        elif text not in unknown:
            unknown.append(text)

    # --- everything else ---------------------------------------------------------------------------

    def find_model(self, text: str, scan: Scan) -> tuple[str | None, bool, bool]:
        """The first model name as typed ("Llama 3 8B", "mixtral 8x7b", "70B"); whether it is an LLM,
        and whether it has a size (which says how much memory it needs)."""
        for m in self.vocab.models.finditer(scan.low):
            if not scan.free(m.start(), m.end()):
                continue
            scan.take(m.start(), m.end())
            fam = m.group("fam")
            sized = fam is None or bool(m.group("size"))
            is_llm = sized or squash(fam).rstrip("s") in self.vocab.model_llm_families
            return text[m.start():m.end()].strip(), is_llm, sized
        return None, False, False

    def cues(self, words: Words) -> Cues:
        """Which kind cues the text has, and the first explain topic it names (strong cues first)."""
        kinds = Hits(self.vocab.kinds, words)
        strong = topic = None
        first = self.vocab.topic_any.find(words)
        if first:  # no topic phrase starts before the first of all of them
            strong = self.vocab.topic_strong.search(words.low, first.start())
            topic = strong or self.vocab.topic_weak.search(words.low, first.start())
        return Cues(kinds, topic.lastgroup if topic else None, strong is not None)

    def task(self, words: Words, model_llm: bool) -> str | None:
        """The domain, with a stage (pretrain, fine-tune, inference) making it an llm_* task when the
        question is about LLMs, NLP or nothing more specific. Priority settles several domains."""
        domains = Hits(self.vocab.domains, words)
        if domains["kaggle"]:
            return "kaggle"
        stage = next((s for s in _STAGES if self.vocab.stages[s].find(words)), None)
        if model_llm or domains["llm"]:
            if stage:
                return stage
            return "llm_pretrain" if self.vocab.llm_train.find(words) else "llm_inference"
        if stage and not any(domains[d] for d in _BLOCKING_DOMAINS):
            return stage
        return next((d for d in self.vocab.domain_priority if domains[d]), None)

    def condition(self, words: Words) -> tuple[str | None, bool]:
        """new, used or None; (None, True) when both are said."""
        low = words.low
        used = False
        if self.vocab.conditions["used"].find(words):
            negated = [m.span() for m in self.vocab.negated_used.finditer(low)]
            used = any(not any(s <= m.start() < e for s, e in negated)
                       for m in self.vocab.conditions["used"].finditer(low))
        new = self.vocab.conditions["new"].find(words) is not None
        if used and new:
            return None, True
        return ("used" if used else "new" if new else None), False

    def budget(self, scan: Scan, words: Words, lang: str,
               default_currency: str) -> tuple[Money | None, list[Msg], bool, bool]:
        """The most the user will spend (the top of a range), with notes on amounts ignored, whether
        the currency was guessed, and whether the amount is per card. A total beats a per-card price."""
        notes: list[Msg] = []
        found: list[tuple[Money, bool, bool]] = []
        limit = self._max_budget
        hints: list[str] | None = None
        for amount in find_amounts(scan, self.vocab):
            if not amount.cued:
                continue
            if hints is None:  # place words matter only once there is an amount
                hints = currency_hints(words, self.vocab)
            if amount.negative:
                notes.append(msg("parse.note.negative_budget", amount=_amount(amount.value)))
            elif amount.value <= 0:
                notes.append(msg("parse.note.zero_budget"))
            elif amount.value > limit:
                notes.append(msg("parse.note.implausible_budget", amount=_amount(amount.value)))
            else:
                code = resolve_currency(amount.currency, hints, lang, default_currency, self.vocab)
                guessed = amount.currency in (None, "$", "¥", "元") and not hints and lang == "en"
                found.append((Money(amount=amount.value, currency=code), guessed, amount.per_card))
        if not found:
            return None, notes, False, False
        totals = [f for f in found if not f[2]] or found
        money, guessed, per_card = max(totals, key=lambda f: f[0].amount)
        return money, notes, guessed, per_card

    def per_card(self, budget: Money, count: int | None, notes: list[Msg]) -> Money | None:
        """A budget per card times the number of cards, with a note saying so."""
        if count is None:
            notes.append(msg("parse.note.per_card_no_count", amount=_amount(budget.amount), currency=budget.currency))
            return budget
        total = budget.amount * count
        if total > self._max_budget:
            notes.append(msg("parse.note.implausible_budget", amount=_amount(total)))
            return None
        notes.append(msg("parse.note.per_card", amount=_amount(budget.amount), currency=budget.currency,
                         count=count, total=_amount(total)))
        return Money(amount=total, currency=budget.currency)

    def parse(self, text: str, default_currency: str = "USD") -> ParseResult:
        text, cut = clean(text)
        low = lower(text)
        scan = Scan(low)
        words = Words(low)
        vocab = self.vocab
        lang = language(low, vocab, default_currency)
        if vocab.version_words.could_match(words):
            for m in vocab.versions.finditer(low):
                scan.take(m.start(), m.end())
        model, model_llm, model_sized = self.find_model(text, scan)
        mentions, unknown, loose = self.find_gpus(scan, vocab.laptop.find(words) is not None)
        counts = [m.count for m in mentions if m.count] + loose + generic_counts(scan, vocab)
        power_limit = find_power_limit(scan, vocab)
        hours, hours_guessed = find_hours(scan, vocab)
        take_percents(scan, vocab)
        memory = find_memory(scan, vocab)
        budget, notes, budget_guessed, budget_per_card = self.budget(scan, words, lang, default_currency)
        num_gpus = _num_gpus(counts)
        if budget is not None and budget_per_card:
            budget = self.per_card(budget, num_gpus, notes)
        condition, condition_unsure = self.condition(words)
        cues = self.cues(words)
        follow_up = len(low) <= FOLLOW_UP_MAX and vocab.follow_up.find(words) is not None

        fields: dict[str, Any] = {
            "task": self.task(words, model_llm),
            "budget": budget,
            "hours_per_day": hours if hours is not None and 0 <= hours <= 24 else None,
            "num_gpus": num_gpus,
            "condition": condition,
            "cloud_interest": True if cues.kinds["cloud"] else None,
            "model": model,
            "workload": next((w for w, p in vocab.workloads.items() if p.find(words)), None),
            "organization": True if vocab.organization.find(words) else None,
            "power_limit_w": power_limit,
        }
        ids = list(dict.fromkeys(m.gpu_id for m in mentions))
        if ids:
            fields["gpus"] = tuple(ids)
            fields["gpu_counts"] = tuple(_count_for(gpu_id, mentions) for gpu_id in ids)
        kind = classify(cues, fields, ids, len(mentions) + len(unknown), memory, model_llm, explicit_only=follow_up)
        if kind:
            fields["kind"] = kind
        if kind != "can_run" and not model_sized:
            fields["model"] = None  # a model named in passing ("for stable diffusion") is the task's, not the subject
        fields["min_memory_gb"] = _min_memory(memory, mentions, kind)
        if kind in ("explain", "power") and cues.topic:
            fields["topic"] = cues.topic
        if cut:
            notes.insert(0, msg("parse.note.truncated", limit=LIMIT))
        query = Query(**{k: v for k, v in fields.items() if v is not None})
        uncertain = [name for name, flag in (
            ("budget", budget_guessed), ("gpus", any(m.guessed for m in mentions)),
            ("hours_per_day", hours_guessed), ("condition", condition_unsure)) if flag]
        return ParseResult(
            query=query,
            language=lang,
            missing=() if follow_up else _missing(query),
            uncertain=tuple(uncertain),
            unknown_gpus=tuple(unknown),
            notes=tuple(notes),
        )


def classify(cues: Cues, fields: dict[str, Any], ids: list[str], mentions: int, memory: list[float],
             model_llm: bool, *, explicit_only: bool = False) -> str | None:
    """The kind of question, in the order that settles overlaps: money-for-time questions are about
    the cloud, watts and cooling are power, a concept is explained unless cards or money are on the
    table, two cards are compared, a model or "run"/"fit" asks whether it runs, and what is left
    with a budget, a task or a card asks what to buy. A follow-up gets a kind only from its words."""
    k = cues.kinds
    if k["cloud"]:
        return "cloud_vs_buy"
    if k["power"] or fields["power_limit_w"]:
        return "power"
    if (cues.topic and fields["budget"] is None and len(ids) < 2 and not fields["model"]
            and (cues.topic_strong or k["explain"] or not k["recommend"])):
        return "explain"
    if len(ids) >= 2 or (mentions >= 2 and k["compare"]):
        return "compare"
    if model_llm or k["can_run"] or (k["can_run_weak"] and (memory or fields["model"])):
        return "can_run"
    if k["recommend"]:
        return "recommend"
    if explicit_only:
        return "explain" if k["explain"] else None
    if fields["budget"] or fields["task"] or fields["condition"] or memory or fields["num_gpus"]:
        return "recommend"
    if k["explain"]:
        return "explain"
    return "recommend" if ids else None


def _one_typo(word: str, target: str) -> bool:
    """One letter added, dropped, changed, or two neighbours swapped: "supr", "suepr", "laptp"."""
    if word == target or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [k for k in range(len(word)) if word[k] != target[k]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and word[diff[0]] == target[diff[1]] and word[diff[1]] == target[diff[0]])
    short, long_ = sorted((word, target), key=len)
    k = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[k:] == long_[k + 1:]


def _num_gpus(counts: list[Count]) -> int | None:
    """The largest count, when one is written in digits or is more than one ("one card" is no count)."""
    if not counts or not any(c.explicit or c.value > 1 for c in counts):
        return None
    top = max(c.value for c in counts)
    return top if 1 <= top <= 4096 else None


def _count_for(gpu_id: str, mentions: list[Mention]) -> int:
    stated = [m.count.value for m in mentions if m.gpu_id == gpu_id and m.count and m.count.value <= 4096]
    return max(stated) if stated else 1


def _min_memory(free: list[float], mentions: list[Mention], kind: str | None) -> float | None:
    """The smallest memory figure; one typed with a card only tells variants apart when comparing."""
    figures = list(free)
    if kind != "compare":
        figures += [m.memory for m in mentions if m.memory]
    figures = [f for f in figures if 0 < f <= 4096]
    return min(figures) if figures else None


def _missing(query: Query) -> tuple[str, ...]:
    """What the advisor's flowchart needs and the question did not say."""
    if query.kind == "recommend":
        return tuple(name for name, value in (("task", query.task), ("budget", query.budget)) if value is None)
    if query.kind == "can_run":
        out = []
        if query.model is None and query.task is None:
            out.append("model")
        if not query.gpus and query.min_memory_gb is None and query.num_gpus is None:
            out.append("gpu")
        return tuple(out)
    return ()


def _amount(value: Decimal) -> Msg:
    """An amount for a note: plain digits without trailing zeros when reasonable, scientific when absurd."""
    if value >= Decimal(10) ** 12:
        return msg("parse.amount.huge", value=value)
    return msg("parse.amount", value=value.normalize())


_PARSERS: dict[int, tuple[Catalog, Parser]] = {}


def _parser_for(catalog: Catalog) -> Parser:
    """One parser per catalog object (the installed catalog is itself loaded once)."""
    entry = _PARSERS.get(id(catalog))
    if entry is None or entry[0] is not catalog:
        vocab = load_vocab()
        entry = _PARSERS[id(catalog)] = (catalog, Parser(vocab, build_gpu_index(catalog, vocab)))
    return entry[1]


def parse(text: str, *, default_currency: str = "USD", catalog: Catalog | None = None) -> ParseResult:
    """Read a question into a ``ParseResult``; never raises on any text.

    ``default_currency`` (the guild's) settles amounts whose currency the text leaves open;
    ``catalog`` defaults to the installed one and exists for tests. Results for the installed
    catalog are remembered: the same questions come back, and a ParseResult is frozen.
    """
    if catalog is None:
        return _parse_installed(text, default_currency)
    return _parser_for(catalog).parse(text, default_currency)


@lru_cache(maxsize=ANSWERS_REMEMBERED)
def _parse_installed(text: str, default_currency: str) -> ParseResult:
    return _parser_for(load_catalog()).parse(text, default_currency)
