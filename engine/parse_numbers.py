"""Numbers in questions: money, GPU counts, hours a day, memory sizes and wattages, in every form.

Each finder reads the lower-cased question through a :class:`Scan`, which remembers the characters
already explained by an earlier finder. The parser runs the specific finders first (model names,
GPU names, counts, watts, hours, memory) so that what is left for money is only what can be money:
"3090", "24GB", "300W", "8 hours" and "2x" are never budgets.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation, Overflow
from functools import cache
from typing import NamedTuple

from engine.parse_vocab import PhraseSet, Vocab, Words, squash

_NUM = r"[0-9]+(?:\.[0-9]+)?"
_CN_DIGITS = "零〇一二两兩三四五六七八九十百千万萬亿億"
_CN_COUNT = "一二两兩三四五六七八九十双雙"
_MAYBE_MEMORY = re.compile(r"[0-9]\s*(?:[多余餘]\s*)?[gm]")
_MAYBE_WATTS = re.compile(r"[0-9]\s*k?\s*[w瓦]")  # every wattage has one: a number, maybe "k", then "w"/"瓦"
# Every card count without a catalog name has one of these (a measure word or sign, or "2x" before
# something). Gates like these are searched twice, each part led by a literal or one character class,
# which lets the regex engine skip ahead: one alternation mixing the two is tried at every position.
_MAYBE_CARDS = (re.compile(r"[张張片장대块塊×*]"), re.compile(r"[0-9]\s?x\s?[0-9a-z]"))
# Every hours form has one of these; most questions have none, and one search says so.
_MAYBE_HOURS = (
    re.compile(r"hour|hr|%|小[时時]|钟头|鐘頭|24|clock|nonstop|non stop|全天|不停"),
    re.compile(r"[0-9]\s*h"),
)


@dataclass
class Scan:
    """The question in lower case, with a mask of the characters a finder has already taken."""

    low: str
    mask: bytearray = field(init=False)

    def __post_init__(self) -> None:
        self.mask = bytearray(len(self.low))

    def free(self, start: int, end: int) -> bool:
        return self.mask.find(1, start, end) == -1

    def take(self, start: int, end: int) -> None:
        self.mask[start:end] = b"\x01" * (end - start)

    def left(self, start: int, width: int) -> str:
        return self.low[max(0, start - width) : start]


def cn_number(text: str, vocab: Vocab) -> int | None:
    """A Chinese numeral as an int: "兩萬" 20000, "一万五" 15000, "三千五" 3500, "十二" 12."""
    if len(text) > 20:  # nobody writes a longer numeral; this keeps hostile input cheap
        return None
    digits, units, big = vocab.numbers["cn_digits"], vocab.numbers["cn_units"], vocab.numbers["cn_big"]
    total = section = number = 0
    last_unit, zero_seen, prev_digit, seen = 1, False, False, False
    for ch in text:
        if ch in digits:
            number = number * 10 + digits[ch] if prev_digit else digits[ch]
            zero_seen = zero_seen or digits[ch] == 0
            prev_digit, seen = True, True
            continue
        if ch in units:
            section += (number or 1) * units[ch]
            last_unit = units[ch]
        elif ch in big:
            total += (section + number or 1) * big[ch]
            section, last_unit = 0, big[ch]
        else:
            return None
        number, zero_seen, prev_digit, seen = 0, False, False, True
    positional = len(text) >= 2 and text[-2] in digits  # "二〇二四" is read digit by digit
    if number and last_unit >= 10 and not zero_seen and not positional:
        number *= last_unit // 10  # "一万五": the digit after a unit counts in the next unit down
    return total + section + number if seen else None


# --- money -----------------------------------------------------------------------------------------


class Amount(NamedTuple):  # a tuple: several are built per question, and faster than a frozen dataclass
    """A number that may be a budget."""

    value: Decimal
    start: int
    end: int
    currency: str | None  # an ISO code, an ambiguous symbol ("$", "¥", "元"), or None
    negative: bool
    cued: bool  # a budget word next to it
    per_card: bool = False  # "1.5k each", "每張 5000"


@dataclass(frozen=True)
class MoneyPatterns:
    number: re.Pattern[str]
    prefix: re.Pattern[str]
    suffix: re.Pattern[str]
    rate: PhraseSet
    cue_before: PhraseSet
    weak_cue_before: PhraseSet  # a budget only in a question about buying or money (purchase_words)
    purchase_words: PhraseSet
    cue_after: re.Pattern[str]
    next_word: re.Pattern[str]
    range_join: re.Pattern[str]
    negative: re.Pattern[str]
    hints: PhraseSet
    prefix_ends: frozenset[str]  # the last character of every prefix: no other can end one
    per_card_after: re.Pattern[str]
    per_card_before: PhraseSet


def _alternation(keys: list[str]) -> str:
    """Currency words longest first; Latin words must end at a word boundary."""
    out = []
    for key in sorted(keys, key=len, reverse=True):
        body = r"\s*".join(re.escape(p) for p in key.split())
        if key[-1].isascii() and key[-1].isalnum():
            body += "(?![a-z])"
        if key[0].isascii() and key[0].isalpha():
            body = "(?<![a-z])" + body
        out.append(body)
    return "|".join(out)


@cache
def money_patterns(vocab: Vocab) -> MoneyPatterns:
    money = vocab.money
    mults = "|".join(sorted(map(re.escape, vocab.numbers["multipliers"]), key=len, reverse=True))
    prefix = _alternation(list(money["prefix"]))
    return MoneyPatterns(
        number=re.compile(
            rf"(?P<wan>{_NUM})\s*[万萬]\s*(?P<qian>[0-9])\s*千?(?![0-9])"
            rf"|(?P<num>[0-9]{{1,3}}(?:,[0-9]{{3}})+(?![0-9])(?:\.[0-9]+)?|{_NUM})"
            rf"(?:\s*\^\s*(?P<exp>[0-9]{{1,4}}))?(?:\s*(?P<mult>{mults})(?![a-z]))?"
            rf"|(?P<cn>[{_CN_DIGITS}]+)"
        ),
        prefix=re.compile(rf"(?P<cur>{prefix})\s*~?\s*(?P<neg>[-−]\s*)?$"),
        suffix=re.compile(rf"\s*(?P<cur>{_alternation(list(money['suffix']))})"),
        rate=PhraseSet([money["rate"]]),
        cue_before=PhraseSet(money["cue_before"]),
        weak_cue_before=PhraseSet(money["weak_cue_before"]),
        purchase_words=PhraseSet(money["purchase_words"]),
        cue_after=re.compile(r"\s*(?:" + PhraseSet(money["cue_after"]).pattern + ")"),
        next_word=re.compile(r"\s*([a-z]+|[^\sa-z0-9])"),
        range_join=re.compile(rf"^\s*(?:-|–|—|~|〜|to|and|through|至|到)\s*(?:{prefix})?\s*$"),
        negative=re.compile(r"(?:^|[^0-9a-z.,])[-−]\s*$"),
        hints=PhraseSet(money["hints"]),
        prefix_ends=frozenset(key.strip()[-1] for key in money["prefix"]),
        per_card_after=re.compile(r"\s*(?:" + PhraseSet(money["per_card_after"]).pattern + ")"),
        per_card_before=PhraseSet(money["per_card_before"]),
    )


def _value(m: re.Match[str], vocab: Vocab) -> Decimal | None:
    """The amount a number match says, or None when it is not a number after all."""
    if m.group("wan"):  # "3萬5千", "1万5": ten-thousands, then thousands
        return Decimal(m.group("wan")) * 10000 + int(m.group("qian")) * 1000
    if m.group("cn"):
        n = cn_number(m.group("cn"), vocab)
        return None if n is None else Decimal(n)
    try:
        value = Decimal(m.group("num").replace(",", ""))
    except InvalidOperation:
        return None
    if m.group("exp"):
        exp = int(m.group("exp"))
        try:
            value = value ** min(exp, 40)
        except (InvalidOperation, Overflow):  # "0^0", or beyond what a Decimal holds: no amount
            return None
    mult = m.group("mult")
    return value * vocab.numbers["multipliers"][mult] if mult else value


def _bare_ok(scan: Scan, m: re.Match[str], value: Decimal, pats: MoneyPatterns, vocab: Vocab) -> bool:
    """A number with no currency is a budget only next to a budget word and followed by nothing
    that makes it something else ("for 2 years", "100 epochs", "in 2024")."""
    money = vocab.money
    per_card = pats.per_card_after.match(scan.low, m.end())  # "1.5k each": a price, so a budget
    nxt = None if per_card else pats.next_word.match(scan.low, m.end())
    if nxt:
        word = nxt.group(1)
        if word.isascii() and word.isalpha() and word not in money["allowed_after"]:
            return False
        if word in money["not_money_cjk"]:
            return False
    year_like = 1900 <= value <= 2099 and value == int(value)
    if not (m.group("mult") or m.group("wan")) and (value < money["min_bare"] or year_like):
        return False
    if _GEFORCE_SHAPED.fullmatch(m.group(0).strip()) and scan.left(m.start(), 4).endswith("the "):
        return False  # "waiting for the 6090": a card's number (one not out yet), not $6,090
    if per_card or pats.cue_after.match(scan.low, m.end()):
        return True
    left = _clause_before(scan, m.start())
    if pats.cue_before.search(left) or pats.per_card_before.search(left):
        return True
    return bool(pats.weak_cue_before.search(left) and pats.purchase_words.search(scan.low))


_GEFORCE_SHAPED = re.compile(r"[1-9]0[5-9]0")  # 1050 … 9090: a GeForce model number's shape


def _clause_before(scan: Scan, start: int) -> str:
    """The words just before a number, back to the previous number or punctuation mark."""
    return _CLAUSE_BREAK.split(scan.left(start, 28))[-1]


_CLAUSE_BREAK = re.compile(r"[0-9.,;!?。，；！？]")


def _last_before_tail(left: str) -> str:
    """The last character before the spaces, "~" and minus signs that may follow a currency prefix."""
    text = left.rstrip()
    while text[-1:] in ("~", "-", "−"):
        text = text[:-1].rstrip()
    return text[-1:]


def find_amounts(scan: Scan, vocab: Vocab) -> list[Amount]:
    """Every number not yet explained that may be an amount of money, in order."""
    pats = money_patterns(vocab)
    prefixes, suffixes = vocab.money["prefix"], vocab.money["suffix"]
    out: list[Amount] = []
    for m in _matches_from(pats.number, _NUMBER_START, scan.low):
        if not scan.free(m.start(), m.end()):
            continue
        value = _value(m, vocab)
        if value is None:
            continue
        left = scan.left(m.start(), 12)
        # A prefix ends where only spaces, "~" and a minus sign stand before the number.
        pre = pats.prefix.search(left) if _last_before_tail(left) in pats.prefix_ends else None
        suf = pats.suffix.match(scan.low, m.end())
        if suf and suf.group("cur") in _SYMBOLS and _DIGIT_NEXT.match(scan.low, suf.end()):
            suf = None  # "800 $1000": the symbol is the next amount's prefix
        if not m.group("cn") and _glued(scan.low, m, pre, suf):
            continue  # part of a name: "Arc A770", "L20", "4090D", "RTX5060"
        if (suf and pats.rate.match(scan.low, suf.end())) or pats.rate.match(scan.low, m.end()):
            continue  # a price per hour or per kWh, not a budget
        currency = None
        if suf:
            currency = suffixes.get(_suffix_key(suf.group("cur"), suffixes))
        if pre and (currency is None or currency in ("$", "¥", "元")):
            currency = prefixes.get(_suffix_key(pre.group("cur"), prefixes), currency)
        before = left[: pre.start()] if pre else left
        negative = bool(pre and pre.group("neg")) or (
            before.rstrip()[-1:] in ("-", "−") and pats.negative.search(before) is not None
        )
        said_money = m.group("mult") in vocab.money["money_multipliers"]  # "2 grand"
        cued = currency is not None or said_money or _bare_ok(scan, m, value, pats, vocab)
        if m.group("cn") and currency is None and not cued:
            continue
        per_card = cued and bool(
            pats.per_card_after.match(scan.low, suf.end() if suf else m.end())
            or pats.per_card_before.search(_clause_before(scan, m.start()))
        )
        out.append(Amount(value, m.start(), m.end(), currency, negative, cued, per_card))
    return _join_ranges(out, scan, pats)


# A dollar price per GPU-hour ("$2.50/h", "2.5 usd per hour", "每小时 2 美元"): what the user pays to rent.
_HOURLY = re.compile(
    r"(?:\$|us\$|usd\s*)\s*(?P<a>[0-9]{1,4}(?:\.[0-9]{1,4})?)\s*"
    r"(?:/|per|an?|each|every)\s*(?:gpu[- ]?)?(?:h|hr|hour)s?\b"
    r"|(?P<b>[0-9]{1,4}(?:\.[0-9]{1,4})?)\s*(?:usd|dollars?|美元|美金)\s*(?:/|per|an?|each|every|每)\s*(?:gpu[- ]?)?"
    r"(?:h|hr|hour|小时|小時)s?(?![a-z])"
    r"|每(?:个|個)?(?:小时|小時)\s*(?P<c>[0-9]{1,4}(?:\.[0-9]{1,4})?)\s*(?:美元|美金|usd|dollars?)"
)


# What the user spends renting a month: "$300 a month on RunPod", "500 dollars per month on cloud GPUs", "€200/month on
# vast.ai", "每个月在autodl上花2000块", "每月云上花费3000元"
# The clouds a spend is said to be on (engine.parse's _CLOUD_SPEND reads the same names)
CLOUDS = r"(?:aws|gcp|google\s+cloud|azure|cloud|colab|runpod|vast(?:\.ai)?|lambda|paperspace|autodl|modal|coreweave)"
_MONTHLY_SPEND = re.compile(
    r"(?P<pre>\$|€|£|us\$)?\s*(?P<a>[0-9][0-9,]*(?:\.[0-9]+)?)\s*(?P<k>k\b)?\s*(?P<suf>usd|dollars?|bucks|euros?|eur|gbp)?"
    r"\s*(?:a|per|each|every|/)\s*(?:month|mo)\b[^.?!\n]{0,24}?\b(?:on|in|at|for)\s+(?:the\s+)?" + CLOUDS + r"\b"
    r"|(?:每个?月|每個?月|一个月|一個月|每月)\s*(?:都)?\s*(?:在|花在)?\s*(?:" + CLOUDS + r"|云|雲|阿里云|腾讯云)"
    r"[^，。？?!！]{0,8}?(?:上)?\s*(?:要)?(?:花|花了|花费|花費|付)\s*(?:大概|大约|大約|约|約)?\s*"
    r"(?P<b>[0-9][0-9,]*(?:\.[0-9]+)?)\s*(?P<cn>万|萬|千|k)?\s*(?P<cnsuf>元|块钱|塊錢|块|塊|美元|美金|人民币|人民幣)?"
)
_MONTHLY_NEEDLES = ("month", "月")


def take_monthly_spend(scan: Scan) -> tuple[Decimal, str | None] | None:
    """What the user spends renting a month, its characters taken (never a budget): (amount, the currency word or
    symbol said, or None)."""
    low = scan.low
    if not any(needle in low for needle in _MONTHLY_NEEDLES):
        return None
    m = _MONTHLY_SPEND.search(low)
    if m is None or not scan.free(m.start(), m.end()):
        return None
    scan.take(m.start(), m.end())
    digits = (m.group("a") or m.group("b")).replace(",", "")
    value = Decimal(digits) * (1000 if m.group("k") or m.group("cn") in ("千", "k") else 1)
    value *= 10000 if m.group("cn") in ("万", "萬") else 1
    symbol = m.group("pre") or m.group("suf") or m.group("cnsuf")
    return (value, symbol) if value > 0 else None


# The time a training run must fit in: "in a week", "within 3 days", "in 24 hours", "一周内", "三天内训完"
_DEADLINE_HOURS = {"hour": 1, "day": 24, "week": 168, "month": 730}
_DEADLINE_HOURS_CN = {
    "小时": 1,
    "小時": 1,
    "天": 24,
    "周": 168,
    "週": 168,
    "星期": 168,
    "个月": 730,
    "個月": 730,
    "月": 730,
}
_DEADLINE = re.compile(
    r"\b(?:in|within|under)\s+(?:less\s+than\s+)?(?P<n>a|an|one|two|three|four|five|six|seven|ten|[0-9]+(?:\.[0-9]+)?)"
    r"\s+(?P<unit>hour|day|week|month)s?\b"
    r"|(?P<cn>[0-9]+|[一两兩二三四五六七十半])\s*(?:个|個)?\s*(?P<cnunit>小时|小時|天|周|週|星期|个月|個月|月)"
    r"\s*(?:之内|之內|以内|以內|内|內)"
)


def find_deadline(low: str, vocab: Vocab) -> float | None:
    """The hours a run must fit in ("in a week" → 168, "三天内" → 72), or None: its number in digits, as a count word
    (``vocab.count_words``), "a"/"an", a Chinese numeral (``cn_number``) or 半 (a half)."""
    m = _DEADLINE.search(low)
    if m is None:
        return None
    if m.group("n"):
        said = m.group("n")
        n = 1.0 if said in ("a", "an") else vocab.count_words.get(said) or float(said)
        return n * _DEADLINE_HOURS[m.group("unit")]
    said = m.group("cn")
    n = 0.5 if said == "半" else float(said) if said.isdigit() else cn_number(said, vocab) or 0
    return n * _DEADLINE_HOURS_CN[m.group("cnunit")] or None


# Every price per hour has one of these (its currency): most questions have none, and no search is made.
_HOURLY_NEEDLES = ("$", "usd", "dollar", "美元", "美金")
_POWER_BILL = re.compile(r"kwh|electric|电费|電費|度电|度電")


def take_hourly(scan: Scan) -> Decimal | None:
    """The first dollar price per hour the text states (its characters taken: never a budget), or None."""
    low = scan.low
    maybe = ("h" in low or "时" in low or "時" in low) and any(needle in low for needle in _HOURLY_NEEDLES)
    m = _HOURLY.search(low) if maybe else None
    if m is None or not scan.free(m.start(), m.end()) or _POWER_BILL.search(scan.low):
        return None  # none, or an electricity bill worked out per hour ("$0.30/kWh is ~$0.10/hr")
    scan.take(m.start(), m.end())
    value = Decimal(m.group("a") or m.group("b") or m.group("c"))
    return value if value > 0 else None


# An electricity price ("$0.30/kWh", "0.25 per kWh", "每度电0.6元", "电价0.6元/度"): dollars, or yuan (converted)
_KWH_PRICE = re.compile(
    r"(?:\$|us\$|usd\s*)?(?P<a>[0-9]?\.[0-9]{1,4}|[0-9](?:\.[0-9]{1,4})?)\s*"
    r"(?P<cur>usd|dollars?|元|块|塊)?\s*(?:/|per|an?|each|every|每|一)\s*(?:kwh|kw h|度)(?![a-z])"
    r"|(?:每|一)度电?\s*(?P<b>[0-9]?\.[0-9]{1,4}|[0-9](?:\.[0-9]{1,4})?)\s*(?:元|块|塊)"
)


def take_kwh_price(scan: Scan) -> tuple[Decimal, str] | None:
    """The electricity price the text states, as (amount, currency: "USD" or "CNY"), its characters taken (never a
    budget); None without one. A bare number per kWh is in dollars."""
    low = scan.low
    if "kwh" not in low and "度" not in low:
        return None
    m = _KWH_PRICE.search(low)
    if m is None or not scan.free(m.start(), m.end()):
        return None
    scan.take(m.start(), m.end())
    value = Decimal(m.group("a") or m.group("b"))
    yuan = m.group("b") is not None or (m.group("cur") or "") in ("元", "块", "塊")
    return (value, "CNY" if yuan else "USD") if value > 0 else None


# A context length: "32k context", "128K tokens of context", "context length 8192", "上下文 32k",
# "max_model_len=16384". The gate: every one has a context word.
_CONTEXT_WORD = re.compile(r"context|ctx|上下文|max[_\s-]?(?:model[_\s-]?)?len")
_CONTEXT_NUMBER = r"(?P<n{i}>[0-9]{{1,3}}(?:,[0-9]{{3}})+|[0-9]+(?:\.[0-9]+)?)\s*(?P<k{i}>k)?"
_CONTEXT = re.compile(
    r"(?<![0-9a-z.,])" + _CONTEXT_NUMBER.format(i=1) + r"\s*(?:-?\s*tokens?\s*(?:of\s*)?)?\s*(?:-?\s*)"
    r"(?:context|ctx|上下文)(?![a-z])"
    r"|(?:context(?:[\s_-]*(?:length|len|window|size))?|ctx|上下文(?:长度|長度)?|max[_\s-]?(?:model[_\s-]?)?len(?:gth)?)"
    r"\s*(?:of|=|:|：|为|是|to)?\s*" + _CONTEXT_NUMBER.format(i=2) + r"(?![0-9a-z])"
)
_POWERS_OF_TWO_K = frozenset({1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})


def take_context(scan: Scan) -> int | None:
    """The context length in tokens the text states (taken: never money or memory), or None. "32k" is
    32,768 tokens, as model cards count a power of two; "100k" is 100,000."""
    if not _CONTEXT_WORD.search(scan.low):
        return None
    for m in _CONTEXT.finditer(scan.low):
        if not scan.free(m.start(), m.end()):
            continue
        number = (m.group("n1") or m.group("n2")).replace(",", "")
        k = m.group("k1") or m.group("k2")
        value = float(number)
        tokens = value * (1024 if value in _POWERS_OF_TWO_K else 1000) if k else value
        scan.take(m.start(), m.end())
        return round(tokens)
    return None


# PyTorch's out-of-memory message, pasted as it is: "Tried to allocate 20.00 MiB (GPU 0; 5.94 GiB total capacity; 4.50
# GiB already allocated; …)" and, since PyTorch 2.1, "GPU 0 has a total capacity of 23.65 GiB of which 1.2 GiB is free".
# The total capacity is the card's memory as CUDA counts it (a 6 GB card: 5.94 GiB); the other figures are usage.
_OOM_CAPACITY = re.compile(
    r"(?P<n>[0-9]+(?:\.[0-9]+)?)\s*gib\s+total\s+capacity|total\s+capacity\s+of\s+(?P<n2>[0-9]+(?:\.[0-9]+)?)\s*gib"
)
_OOM_FIGURE = re.compile(r"[0-9]+(?:\.[0-9]+)?\s*(?:gib|mib|kib|bytes)(?![a-z])")
_OOM_TRACE_CHARS = 400  # the message's figures lie within this much of its capacity


def take_oom_capacity(scan: Scan) -> float | None:
    """The card's memory in GB from a pasted PyTorch out-of-memory message (its total capacity, rounded up to a
    whole GB, as cards are sized: 5.94 GiB is a 6 GB card), with every figure of the message taken (the usage
    figures are no memory need, and "20.00 MiB" no model name); None without one."""
    if "total capac" not in scan.low:
        return None
    found = _OOM_CAPACITY.search(scan.low)
    if found is None:
        return None
    start = max(0, found.start() - _OOM_TRACE_CHARS)
    for figure in _OOM_FIGURE.finditer(scan.low, start, found.end() + _OOM_TRACE_CHARS):
        scan.take(figure.start(), figure.end())
    return float(math.ceil(float(found.group("n") or found.group("n2"))))


_NUMBER_START = re.compile(f"[0-9{_CN_DIGITS}]")  # every amount starts with one


def _matches_from(pattern: re.Pattern[str], starts: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a pattern whose every match is non-empty and starts with a
    character ``starts`` finds. A pattern that begins with alternatives of groups gives the regex
    engine no first character to skip ahead by, so ``finditer`` tries it at every position; here it
    is tried only where ``starts`` (which skips ahead) finds one. The leftmost match from each
    position on is the one ``finditer`` gives, so the matches are the same."""
    at = starts.search(text)
    while at is not None:
        m = pattern.match(text, at.start())
        if m is None:
            at = starts.search(text, at.start() + 1)
            continue
        yield m
        at = starts.search(text, m.end())


_SYMBOLS = frozenset("$€£¥₩₹")
_DIGIT_NEXT = re.compile(r"\s*[0-9]")


def _glued(low: str, m: re.Match[str], pre: re.Match[str] | None, suf: re.Match[str] | None) -> bool:
    """A number written inside a word ("a770", "l20", "4090d") is a model name, not an amount; a
    currency code glued to it ("usd1500", "1500rmb") or a multiplier ("1.5k") is fine."""
    start, end = m.start(), m.end()
    if start and "a" <= low[start - 1] <= "z" and pre is None:
        return True
    return end < len(low) and "a" <= low[end] <= "z" and suf is None and not m.group("mult")


def _suffix_key(matched: str, table: dict[str, str]) -> str:
    """The table key a matched currency word came from ("NT  Dollars" → "nt dollars")."""
    if matched in table:
        return matched
    target = squash(matched)
    return next((k for k in table if squash(k) == target), matched)


def _join_ranges(amounts: list[Amount], scan: Scan, pats: MoneyPatterns) -> list[Amount]:
    """ "$800-1000", "1,000 to 1,500 euros": both ends share currency and budget-ness."""
    out = list(amounts)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if not pats.range_join.match(scan.low[a.end : b.start]):
            continue
        currency = a.currency or b.currency
        cued = a.cued or b.cued
        per_card = a.per_card or b.per_card
        out[i] = Amount(a.value, a.start, a.end, currency, a.negative, cued, per_card)
        out[i + 1] = Amount(b.value, b.start, b.end, currency, False, cued, per_card)
    return out


def resolve_currency(symbol: str | None, hints: list[str], script: str, default: str, vocab: Vocab) -> str:
    """An ISO code for what the text said: "$" and "¥" by place words, then script, then the
    guild's default currency; a bare amount the same way."""
    money = vocab.money
    if symbol is not None and symbol not in money["ambiguous"]:
        return symbol
    if symbol is None:
        if hints:
            return hints[0]
        return str(money["script_default"].get(script, default))
    choices = money["ambiguous"][symbol]
    for code in hints:
        if code in choices:
            return code
    if symbol != "$" and script in money["script_default"]:
        scripted = money["script_default"][script]
        return scripted if symbol == "元" or scripted == "CNY" else "CNY"
    return default if default in choices else choices[0]


def currency_hints(words: Words, vocab: Vocab) -> list[str]:
    """Currencies that place words in the question point to ("in Japan", "Canadian here")."""
    table = vocab.money["hints"]
    return [table[_suffix_key(m.group(), table)] for m in money_patterns(vocab).hints.finditer_in(words)]


# --- counts ----------------------------------------------------------------------------------------


class Count(NamedTuple):  # a tuple: several are built per question, and faster than a frozen dataclass
    value: int
    explicit: bool  # written in digits ("2x", "4 GPUs"), not as a word ("one card")


@dataclass(frozen=True)
class CountPatterns:
    before: re.Pattern[str]
    after: re.Pattern[str]
    generic: re.Pattern[str]
    generic_tail: re.Pattern[str]  # what every generic count ends with: without one, no search
    generic_starts: re.Pattern[str]  # where a generic count can start (see generic_counts)
    cards: re.Pattern[str]  # "三张", "两块", "32G*2", "8 x 32GB", "4*A800": counts without a catalog name
    before_ends: frozenset[str]  # what a count just before a name can end with: digits, "x", a measure word
    word_ends: frozenset[str]  # the last letters of count words ("two", "dual"), which a space follows
    not_count: PhraseSet  # money words that make a large number before a name not a count

    def search_before(self, left: str) -> re.Match[str] | None:
        """``before.search(left)``, skipped when the text before the name cannot end in a count."""
        kept = left.rstrip()
        last = kept[-1:]
        if last in self.before_ends or (last in self.word_ends and len(kept) < len(left)):
            return self.before.search(left)
        return None


@cache
def count_patterns(vocab: Vocab) -> CountPatterns:
    raw = vocab.raw["gpu_count"]
    words = "|".join(sorted((r"\s+".join(map(re.escape, w.split())) for w in raw["words_en"]), key=len, reverse=True))
    measure = "|".join(map(re.escape, raw["measure"]))
    generic_cjk = "|".join(sorted(map(re.escape, raw["generic_cjk"]), key=len, reverse=True))
    gpu_words = "|".join(sorted((r"\s+".join(map(re.escape, w.split())) for w in raw["words"]), key=len, reverse=True))
    sheets = "|".join(map(re.escape, raw["card_measure"]))
    blocks = "|".join(map(re.escape, raw["block_measure"]))
    # After "digit," only what cannot be a thousands group: "$1,200 3090" is no count of 200, "V3，8张H20" is eight
    ungrouped = r"(?:(?<![0-9],)|(?=[0-9]{1,2}(?![0-9])))"
    return CountPatterns(
        before=re.compile(
            rf"(?:(?<![0-9.$€£¥]){ungrouped}(?P<x>[0-9]{{1,4}})\s*[x×*]\s*"
            rf"|(?<![0-9.$€£¥]){ungrouped}(?P<d>[0-9]{{1,3}})\s*(?P<dm>{measure})?\s*(?:卡)?\s*"
            rf"|(?P<cn>[{_CN_COUNT}]{{1,3}})\s*(?:{measure}|卡|路)\s*"
            rf"|(?P<dual>[双雙])\s*"  # "双3090": two of them
            rf"|(?<![a-z])(?P<w>{words})\s+)$"
        ),
        after=re.compile(r"s?\s*[x×*]\s*(?P<x>[0-9]{1,4})(?![0-9a-z])"),
        generic=re.compile(
            rf"(?<![0-9a-z.,$€£¥])(?P<n>[0-9]{{1,4}}|{words})\s*[\-\s]?\s*(?:x\s*)?"
            rf"(?:{gpu_words}|of\s+(?:them|those|these))(?![a-z])"
            rf"|(?P<cn>[0-9]{{1,4}}|[{_CN_COUNT}]{{1,3}})\s*(?:{measure})?\s*(?:{generic_cjk})"
        ),
        generic_tail=re.compile(rf"{gpu_words}|of\s+(?:them|those|these)|{generic_cjk}"),
        # A digit or a Chinese count anywhere, or the first letter of a count word starting a word
        # (the pattern's own lookbehind, checked after the letter so that the regex engine skips ahead)
        generic_starts=re.compile(
            rf"[0-9{_CN_COUNT}]|[{''.join(sorted({w.split()[0][0] for w in raw['words_en']}))}]"
            r"(?<![0-9a-z.,$€£¥].)"
        ),
        cards=re.compile(
            rf"(?<![0-9.$€£¥a-z]){ungrouped}(?P<n>[0-9]{{1,4}}|[{_CN_COUNT}]{{1,3}})\s*(?:{sheets})"
            rf"|(?<![0-9.$€£¥a-z]){ungrouped}(?P<b>[0-9]{{1,2}}|[{_CN_COUNT}]{{1,3}})\s*(?:{blocks})(?![钱錢元])"
            rf"|(?<![0-9.a-z])[0-9]{{1,4}}(?:\.[0-9])?\s*(?:gb|g|gib)\s*(?P<t>[x×*]\s*(?P<m>[0-9]{{1,2}}))(?![0-9])"
            rf"|(?<![0-9.$€£¥a-z]){ungrouped}(?P<x>[0-9]{{1,2}})\s*[x×*]\s*"
            rf"(?=[0-9]{{1,4}}(?:\.[0-9])?\s*(?:gb|g|gib)(?![a-z])|[a-z]{{1,3}}[0-9]|[0-9]{{4}}(?![0-9]))"
        ),
        before_ends=frozenset("0123456789x×*卡路双雙" + _CN_COUNT + "".join(m[-1] for m in raw["measure"])),
        word_ends=frozenset(w.strip()[-1] for w in raw["words_en"]),
        not_count=PhraseSet(raw["not_count_before"]),
    )


def _count_value(text: str, vocab: Vocab) -> int | None:
    text = text.strip()
    if text.isdigit():
        return int(text)
    word = squash(re.sub(r"\s+", " ", text))
    if word in vocab.count_words:
        return vocab.count_words[word]
    return cn_number(text, vocab)


def count_before(scan: Scan, start: int, vocab: Vocab, plural: bool = False) -> Count | None:
    """A count written just before a GPU name: "2x 3090", "two 4090s", "四張 RTX 4090", "8 卡 A100".

    A bare number above 64 ("200 H100s") is a count only when it is plainly one: the name is in
    the plural or a measure word follows the number ("100 張 H100"), and no currency or budget
    word comes before it."""
    pats = count_patterns(vocab)
    m = pats.search_before(scan.left(start, 24))
    if not m:
        return None
    offset = max(0, start - 24)
    if not scan.free(offset + m.start(), offset + m.end()):
        return None
    group = next(g for g in ("x", "d", "cn", "w", "dual") if m.group(g))
    value = 2 if group == "dual" else _count_value(m.group(group), vocab)
    if value is None or value < 1:
        return None
    if (
        group == "d"
        and value > 64
        and not _plain_count(scan, offset + m.start(), value, plural or bool(m.group("dm")), pats, vocab)
    ):
        return None
    scan.take(offset + m.start(), offset + m.end())
    return Count(value, group in ("x", "d"))


def _plain_count(scan: Scan, start: int, value: int, counted: bool, pats: CountPatterns, vocab: Vocab) -> bool:
    """A large bare number before a name is a count when the name is counted (a plural, a measure
    word) and nothing before it says money: no currency symbol or word, no budget word."""
    if not counted or value > 4096 or _after_currency(scan, start, vocab):
        return False
    return not pats.not_count.search(_CLAUSE_BREAK.split(scan.left(start, 16))[-1])


def _after_currency(scan: Scan, start: int, vocab: Vocab) -> bool:
    """Whether a currency prefix stands just before ``start`` ("$500", "$-500", "€ ~800"): money, no count."""
    left = scan.left(start, 16)
    money = money_patterns(vocab)
    return _last_before_tail(left) in money.prefix_ends and money.prefix.search(left) is not None


def count_after(scan: Scan, end: int, vocab: Vocab) -> Count | None:
    """A count written just after a GPU name: "3090 x2", "A100*8"."""
    m = count_patterns(vocab).after.match(scan.low, end)
    if not m or int(m.group("x")) < 1:
        return None
    scan.take(m.start(), m.end())
    return Count(int(m.group("x")), True)


# Words before a number that make it the length of a list asked for ("top 3 GPUs", "best 5 cards")
_RANKED = re.compile(r"\b(?:top|best)\s*$")
_A_RIG = re.compile(r"\s*(?:-?\s*(?:gpu|card)s?\s+)?(?:setup|rig|build|system|server|machine|box)")  # "best 2 GPU rig"


# a clock speed times a count ("2.8GHz × 6", "3.6 ghz x 8"): the CPU's cores
_CPU_TIMES = re.compile(r"[0-9.]\s*ghz\s*[x×*]\s*$")


def generic_counts(scan: Scan, vocab: Vocab) -> list[Count]:
    """Counts of unnamed GPUs: "4 GPU rig", "for 2 GPUs", "four cards", "two of them", "八卡"."""
    out = []
    pats = count_patterns(vocab)
    # The generic pattern starts with a lookbehind, so the regex engine would try it at every position;
    # about half the questions hold none of the words it must end with, which one search (that skips
    # ahead) says, and the rest try it only where a count can start.
    generic: Iterable[re.Match[str]] = (
        _matches_from(pats.generic, pats.generic_starts, scan.low) if pats.generic_tail.search(scan.low) else ()
    )
    for m in generic:
        if not scan.free(m.start(), m.end()):
            continue
        text = m.group("n") or m.group("cn")
        value = _count_value(text, vocab)
        at = m.start("n") if m.group("n") else m.start("cn")
        if value is None or value < 1 or (text[:1].isdigit() and _after_currency(scan, at, vocab)):
            continue  # "$-500 gpu": an amount, not 500 GPUs
        if _RANKED.search(scan.low[max(0, at - 8) : at]) and not _A_RIG.match(scan.low, m.end()):
            continue  # "top 3 GPUs for SD", "best 5 cards": how many to list, not a rig of that many
        if _CPU_TIMES.search(scan.low[max(0, at - 12) : at]):
            continue  # "i5 2.8GHz × 6 显卡：RTX 3060": six cores of the CPU, then the card
        scan.take(m.start(), m.end())
        out.append(Count(value, text.strip().isdigit()))
    if _MAYBE_CARDS[0].search(scan.low) or _MAYBE_CARDS[1].search(scan.low):
        for m in pats.cards.finditer(scan.low):
            group = next(g for g in ("n", "b", "m", "x") if m.group(g))
            span = m.span("t") if group == "m" else m.span()
            if not scan.free(*span):
                continue
            value = _count_value(m.group(group), vocab)
            if value is None or not 1 <= value <= 4096:
                continue
            scan.take(*span)
            out.append(Count(value, m.group(group).isdigit()))
    return out


# --- hours, memory, watts --------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitPatterns:
    hours_en: re.Pattern[str]
    hours_en_rev: re.Pattern[str]
    hours_zh: re.Pattern[str]
    share: re.Pattern[str]
    all_day: PhraseSet
    week: PhraseSet
    percent: re.Pattern[str]
    memory: re.Pattern[str]
    watts: re.Pattern[str]


@cache
def unit_patterns(vocab: Vocab) -> UnitPatterns:
    raw = vocab.raw["hours"]
    words = "|".join(w for w in vocab.count_words if w.isalpha())
    num = rf"(?:{_NUM}|{words})"
    hour = r"(?:h|hr|hrs|hour|hours)"
    per = r"(?:/\s*|a\s+|an\s+|per\s+|each\s+|every\s+)"
    span = r"(?:day|d|night|week|wk)"
    share = PhraseSet(raw["share_cues"]).pattern
    cn = rf"(?:{_NUM}|[{_CN_DIGITS}半]+)"
    return UnitPatterns(
        hours_en=re.compile(
            rf"(?<![0-9a-z.])(?P<n>{num})\s*{hour}(?![a-z])(?:\s+(?:of\s+)?[a-z]+){{0,3}}?\s*{per}(?P<span>{span})\b"
            rf"|(?<![0-9a-z.])(?P<n2>{num})\s*{hour}\s+(?P<span2>daily|weekly)\b"
        ),
        hours_en_rev=re.compile(
            rf"\b(?:every\s+day|each\s+day|daily|a\s+day|per\s+day)\s+(?:for\s+)?(?:about\s+|around\s+|roughly\s+|~\s*)?"
            rf"(?P<n>{_NUM})\s*{hour}(?![a-z])"
        ),
        hours_zh=re.compile(
            rf"(?P<span>每天|每日|一天|天天|每晚|每周|每週|一周|一週)[^0-9{_CN_DIGITS}半,.!?;。，！？；]{{0,6}}?"
            rf"(?P<n>{cn})\s*(?:个|個)?\s*(?:小时|小時|鐘頭|钟头|hours?|hrs?|h)(?![a-z])"
            rf"|(?<![0-9.{_CN_DIGITS}])(?P<n2>{cn})\s*(?:个|個)?\s*(?:小时|小時)\s*(?:/\s*|每)(?P<span2>天|日|周|週)"
        ),
        share=re.compile(rf"(?<![0-9.])(?P<n>{_NUM})\s*%\s*(?:{share})"),
        all_day=PhraseSet(raw["all_day"]),
        week=PhraseSet(raw["week_words"]),
        percent=re.compile(rf"(?<![0-9.]){_NUM}(?:\s*(?:-|–|to)\s*{_NUM})?\s*%"),  # "30 %", "20-30%"
        memory=re.compile(
            rf"(?<![0-9a-z.])(?P<n>{_NUM})\s*(?:[多余餘]\s*)?(?:gb|gib|g|gig|gigs|gigabytes?)(?![a-z])\s*\+?"
            r"|(?<![0-9a-z.,])(?P<mb>[0-9]{3,5})\s*(?:mb|mib|megabytes?)(?![a-z])"  # "2048 MB" on old cards
        ),
        watts=re.compile(rf"(?<![0-9a-z.])(?P<n>{_NUM})\s*(?P<k>k)?\s*(?:w|watts?|瓦)(?![a-z])"),
    )


def _hours_value(text: str, vocab: Vocab) -> float | None:
    text = text.strip()
    if re.fullmatch(_NUM, text):
        return float(text)
    if text in vocab.count_words:
        return float(vocab.count_words[text])
    if text == "半":
        return 0.5
    n = cn_number(text, vocab)
    return float(n) if n is not None else None


def find_hours(scan: Scan, vocab: Vocab) -> tuple[float | None, bool]:
    """Hours a day, from "3 hours a day", "12h/day", "每天 4 小時", "10 % of the time" (× 24),
    "20 hours a week" (÷ 7, a guess) or "24/7". Returns (hours, guessed)."""
    pats = unit_patterns(vocab)
    if not (_MAYBE_HOURS[0].search(scan.low) or _MAYBE_HOURS[1].search(scan.low)):
        return None, False
    for pattern in (pats.hours_en, pats.hours_en_rev, pats.hours_zh):
        for m in pattern.finditer(scan.low):
            if not scan.free(m.start(), m.end()):
                continue
            value = _hours_value(m.group("n") or m.group("n2") or "", vocab)
            span = m.groupdict().get("span") or m.groupdict().get("span2") or "day"
            if value is None:
                continue
            scan.take(m.start(), m.end())
            weekly = bool(pats.week.search(span)) or span == "weekly"
            return (value / 7 if weekly else value), weekly
    for m in pats.share.finditer(scan.low):
        if scan.free(m.start(), m.end()):
            scan.take(m.start(), m.end())
            return 24 * float(m.group("n")) / 100, False
    for m in pats.all_day.finditer(scan.low):
        if scan.free(m.start(), m.end()):
            scan.take(m.start(), m.end())
            return 24.0, False
    return None, False


def take_percents(scan: Scan, vocab: Vocab) -> None:
    """Other percentages ("30 % faster") are never money."""
    if "%" not in scan.low:
        return
    for m in unit_patterns(vocab).percent.finditer(scan.low):
        scan.take(m.start(), m.end())


_NUMBER_WORD = re.compile(r"(?<![a-z])[0-9]")  # a number on its own, not the digit of "ddr4" or "d5"
# Where a memory size or a wattage can start: a digit after no letter, digit or point (their patterns'
# own lookbehind, checked after the digit so that the regex engine skips ahead to digits).
_NUMBER_AT_WORD = re.compile(r"[0-9](?<![0-9a-z.].)")


_CARD_HAS = re.compile(r"(?:card|gpu)\s+(?:has|with)\s*$|(?:显卡|顯卡)(?:有|是)\s*$")


# Words that make the memory figure right after them a need someone states ("requires a GPU with at least 24GB",
# "the README says it needs 12GB", "最低要求24G显存", "需要40G显存"), not the size of the user's card
_NEED_BEFORE = re.compile(
    r"(?:\brequire[sd]?|\brequirements?|\bneeds?|\bneeded|\bminimum|\bat\s+least|要求|需要|至少|最低|最少|起码|门槛|門檻)"
    r"(?:\s*(?:of|is|are|be|a|an|the|gpus?|cards?|graphics\s+cards?|with|vram|memory|gpu\s+memory|at\s+least|about|around"
    r"|~|显存|顯存|的|为|為|是|要|也要|显卡|顯卡|大约|大約|约|約)(?![a-z]))*\s*$"
)


# …or the words right after it ("the docs say 10GB is enough", "10G以上显存就可以")
_NEED_AFTER = re.compile(
    r"\s*(?:of\s+)?(?:vram|memory|gpu\s+memory|以上|显存|顯存|的显存|的顯存)?\s*(?:is|are|should\s+be|would\s+be)?\s*"
    r"(?:enough|sufficient|就够|就夠|就可以|足够|足夠|即可|就行)"
)


def find_memory(scan: Scan, vocab: Vocab, unified: bool = False) -> tuple[list[float], list[float]]:
    """GPU-memory figures ("24GB", "16gb+ vram", "显存 8G"), leaving out RAM and disks; on a Mac
    (``unified``) the RAM is what the GPU uses, so RAM figures count too. Also the figures that need words lead
    ("it requires 24GB", "README里写了要19g"): needs someone states, beside what the user has."""
    out: list[float] = []
    needs: list[float] = []
    if not _MAYBE_MEMORY.search(scan.low):  # every memory size is a number, maybe a space, then "g"
        return out, needs
    for m in _matches_from(unit_patterns(vocab).memory, _NUMBER_AT_WORD, scan.low):
        if not scan.free(m.start(), m.end()):
            continue
        scan.take(m.start(), m.end())
        if not unified:
            right = _NUMBER_WORD.split(scan.low[m.end() : m.end() + 16])[0]
            left = _NUMBER_WORD.split(scan.left(m.start(), 10))[-1]
            on_card = _CARD_HAS.search(left)  # "my card has 12GB of RAM": a card's memory, whatever it is called
            if (
                not vocab.vram_words.search(right)
                and not on_card
                and (vocab.not_vram.search(right) or vocab.not_vram.search(left))
            ):
                continue
        if m.group("n"):
            out.append(float(m.group("n")))
        elif _card_sized(int(m.group("mb"))):  # card sizes: 512, 1024, 2048 MB…; "500 MB" is a file
            out.append(_gb_of_mb(int(m.group("mb"))))
        else:
            continue
        if _NEED_BEFORE.search(scan.low, max(0, m.start() - 40), m.start()) or _NEED_AFTER.match(scan.low, m.end()):
            needs.append(out[-1])
    return out, needs


def _card_sized(mb: int) -> bool:
    """Whether a figure in MB is a card's memory: a multiple of 256 MB (2048, 11264, 24576), or within 20 MB of
    whole gigabytes as nvidia-smi prints a card's total ("24564MiB" on an RTX 4090, "16376MiB" on an RTX 4080, the
    driver's own reservation taken off); "500 MB" or "8000 MB" is a file or a model."""
    return mb % 256 == 0 or (mb >= 1024 and -20 <= mb - round(mb / 1024) * 1024 <= 0)


def _gb_of_mb(mb: int) -> float:
    """A card's memory in MB as GB (1024 MB a GB, as cards are sized: 2048 MB → 2 GB; nvidia-smi's 24564 MiB → 24)."""
    return round(mb / 1024) if mb % 256 else round(mb / 1024, 1)


def find_wattages(scan: Scan, vocab: Vocab) -> tuple[int | None, int | None]:
    """Takes every wattage (so "1600W PSU" is never a budget); returns (the one a limit word is near,
    the one a PSU word is near: "my 750W PSU", "电源是750W", "850W能带两张3090吗")."""
    limit = psu = None
    if not _MAYBE_WATTS.search(scan.low):  # most questions; the pattern, led by a lookbehind, tries every place
        return limit, psu
    named = False  # the PSU read is the one a PSU word names at once ("a 1600W PSU"), not one merely near it
    for m in _matches_from(unit_patterns(vocab).watts, _NUMBER_AT_WORD, scan.low):
        if not scan.free(m.start(), m.end()):
            continue
        scan.take(m.start(), m.end())
        watts = round(float(m.group("n")) * (1000 if m.group("k") else 1))
        near = scan.left(m.start(), 32) + " " + scan.low[m.end() : m.end() + 16]
        if vocab.power_limit_cues.search(near) or _RUN_AT.search(scan.left(m.start(), 8)):
            if limit is None and 1 <= watts <= 2000:
                limit = watts
        elif not named and PSU_WATTS[0] <= watts <= PSU_WATTS[1] and vocab.psu_cues.search(near):
            # "… = 1430W, so a 1600W PSU seems enough": the sum is near the PSU word, the 1600 W is named by it
            at_once = _PSU_NAMED.match(scan.low, m.end()) is not None
            if psu is None or at_once:
                psu, named = watts, at_once
    return limit, psu


# A PSU word right after a wattage: "1600W PSU", "750 W power supply", "850w电源"
_PSU_NAMED = re.compile(r"\s*(?:\(?[a-z0-9+ ]{0,12}\)?\s*)?(?:psu|power\s+supply|电源|電源)")


# "a 4090 at 300W", "跑在300W": the watts a card runs at, a limit — not a PSU however "enough" follows
_RUN_AT = re.compile(r"(?:(?<![a-z])at|@|跑在|设在|設在|限在)\s*$")

# A PSU people own: from the smallest desktop units to the largest single server supplies (the Query's
# bound is wider; a figure outside these is not read as a PSU).
PSU_WATTS = (200, 3000)
