"""The parser's vocabularies: ``data/locales/parse.yaml`` compiled to regexes, and a GPU-name index.

Words live in YAML so that a new phrasing ("second-hand", "拆機") is a data change, not a code
change. Everything here is compiled once per process; parsing itself only runs the compiled
patterns and dictionary look-ups.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, reduce
from itertools import accumulate
from operator import itemgetter, or_
from re import _constants as _sre_constants  # type: ignore[attr-defined]  # for anchors of raw entries
from re import _parser as _sre_parser  # type: ignore[attr-defined]
from typing import Any, Protocol

from engine.catalog import Catalog
from engine.datafiles import data_dir, read_yaml

_LATIN = re.compile(r"[a-z0-9]")
NEVER = re.compile(r"(?!x)x")


_WORD_START_CHECK = "(?<![a-z0-9].)"  # after a phrase's first character: that character starts a word


def _phrase(entry: str) -> str:
    """One vocabulary entry as a regex: raw after ``re:``, else a word-bounded, spacing-tolerant phrase.

    Spaces and hyphens inside a phrase match any run of them or none, because people write
    "fine-tune", "fine tune" and "finetune" alike; a plural ending is allowed for the same reason.
    """
    if entry.startswith("re:"):
        return entry[3:]
    text = entry.strip().lower()
    words = [w for w in re.split(r"[\s\-]+", text) if w]
    body = r"[\s\-]*".join(map(re.escape, words))
    if _LATIN.match(text[-1:]):
        body += "(?:s|es)?(?![a-z0-9])"
    if _LATIN.match(text[:1]):
        # The boundary is checked after the first character, so that the pattern still starts with
        # a literal and the regex engine can skip positions that cannot match (several times faster).
        first = re.escape(text[0])
        body = first + _WORD_START_CHECK + body[len(first) :]
    return body


def _by_first_character(phrases: list[str]) -> str:
    """Plain phrase regexes (see :func:`_phrase`) as one alternation grouped by first character:
    ``a(?:…|…)|b(?:…)|…``, with a shared word-start check written once per group.

    Only phrases starting with the same character can match at the same place, so grouping keeps
    which phrase wins wherever two could match (their order within a group is kept): the matches are
    those of the flat alternation. The regex engine then checks a character against a few dozen
    groups instead of every phrase in turn, and a group whose word-start check fails is left at once.
    Falls back to the flat alternation if a phrase does not start with one escaped character."""
    groups: dict[str, list[str]] = {}
    for rx in phrases:
        first = _first_character(rx)
        if first is None:
            return "|".join(f"(?:{rx})" for rx in phrases)
        groups.setdefault(first, []).append(rx[len(first) :])
    out = []
    for first, rests in groups.items():
        shared = _WORD_START_CHECK if all(r.startswith(_WORD_START_CHECK) for r in rests) else ""
        body = "|".join(r[len(shared) :] for r in rests)
        out.append(f"{first}{shared}(?:{body})")
    return "|".join(out)


def _first_character(rx: str) -> str | None:
    """The character a regex starts with, as written (escaped or not), when it starts with one."""
    first = rx[:2] if rx[:1] == "\\" else rx[:1]
    return first if first and re.fullmatch(first, first[-1]) is not None else None


class _ByScript:
    """A search of plain phrases (see :func:`_by_first_character`) as two regexes, the phrases that start
    with an ASCII character and the others, where the text is ASCII only the first. Wherever a phrase
    may start, the regex engine tries the groups in turn, and in an English text those of phrases in
    Chinese never match (≈12 µs for the topics' phrases on an average question in English, ≈5.5 for the
    ASCII half alone). A phrase of one kind never matches where one of the other does (they start with different
    characters), and the order of each kind's phrases is kept, so the earlier of the two matches is the
    one the whole alternation finds."""

    __slots__ = ("latin", "others")

    def __init__(self, latin: list[str], others: list[str]) -> None:
        self.latin = re.compile(_by_first_character(latin)).search
        self.others = re.compile(_by_first_character(others)).search

    def search(self, text: str) -> re.Match[str] | None:
        found = self.latin(text)
        if text.isascii():
            return found
        other = self.others(text)
        return other if other is not None and (found is None or other.start() < found.start()) else found


def _plain_search(phrases: list[str], pattern: re.Pattern[str]) -> Search:
    """``pattern.search`` for plain phrases (``pattern`` is their alternation), by :class:`_ByScript` where
    some start with an ASCII character and some do not."""
    firsts = [_first_character(rx) for rx in phrases]
    if None in firsts:
        return pattern.search
    latin = [rx for rx, first in zip(phrases, firsts, strict=True) if first and first[-1].isascii()]
    others = [rx for rx, first in zip(phrases, firsts, strict=True) if first and not first[-1].isascii()]
    return _ByScript(latin, others).search if latin and others else pattern.search


class Words:
    """What one text offers phrase lists to match: its characters, its words and the first two to four
    characters of each. A list none of whose anchors is here cannot match, and is not searched; most
    lists are absent from most questions, so most searches end here.

    ``opened`` says which lists may match, one bit per gate (see :func:`_new_gate`), so that a list
    asks one ``&`` instead of a set intersection of its own (a question asks some sixty lists). It is
    read in one pass over the text's characters and one over its words: a word's bits (its own, and
    those of its first two to four characters) are looked up once per process and remembered. Gates
    made after this text was read are all open (the bits from ``1 << count`` up), which only costs a
    search: a gate never decides a match, it only skips a search."""

    __slots__ = ("low", "opened")

    def __init__(self, low: str) -> None:
        self.low = low
        count, memo = _GATES[0], _WORD_BITS  # in this order (see _new_gate)
        opened = reduce(or_, map(_CHAR_GATES.__getitem__, _CHAR_GATES.keys() & set(low)), -(1 << count))
        words = _TOKEN.findall(low)
        bits = list(map(memo.get, words))
        if None in bits:
            bits = [memo[w] if w in memo else _word_bits(w, memo) for w in words]
        # strings written anywhere: what a raw entry starts with or holds, the first word of a phrase in Chinese
        # (see _leading_word)
        latin, others, needle_bits = _needles(count)
        for needles in (latin,) if low.isascii() else (latin, others):
            found = needles.search(low)
            while found is not None:  # the longest needle at each place one starts (see _needle_gates)
                opened |= needle_bits[found.group()]
                found = needles.search(low, found.start() + 1)
        # a common first word and the word after it, where a phrase begins with both (see _word_pair)
        pairs = _PAIR_BITS
        for first, after in _pair_finder(count).findall(low):
            pair_bits = pairs.get(f"{first} {after}")
            opened |= _pair_bits(first, after, pairs) if pair_bits is None else pair_bits
        self.opened = reduce(or_, bits, opened)

    @property
    def keys(self) -> set[str]:
        """The anchors the text has: its characters and the first two to four characters of each word."""
        words = _TOKEN.findall(self.low)
        return set(self.low).union(map(_FIRST_FOUR, words), map(_FIRST_THREE, words), map(_FIRST_TWO, words))


_FIRST_FOUR, _FIRST_THREE, _FIRST_TWO = itemgetter(slice(4)), itemgetter(slice(3)), itemgetter(slice(2))
# Every gated part of every PhraseSet has one bit. An anchor (see _anchor) maps to the bits of the parts
# it opens: one character where the text has it anywhere, two to four where a word starts with them;
# a whole word maps to the bits of the parts that may begin with it (see _first_words), the first word of
# a phrase in Chinese to those of the parts with a phrase that begins with it (see _leading_word), and a longer
# string written anywhere to those of the raw parts an entry of which starts with it or holds it.
_CHAR_GATES: dict[str, int] = {}
_PREFIX_GATES: dict[str, int] = {}
_TOKEN_GATES: dict[str, int] = {}
_NEEDLES: dict[str, int] = {}  # a string written anywhere (a pair, or a needle) → the bits it opens
# "how muc": a common first word and the first three letters of the next word (or all of a shorter one) → the
# bits of the parts with a phrase that begins with those two words (see _word_pair)
_PAIR_GATES: dict[str, int] = {}
# _pair_finder of _PAIR_GATES, and how many gates were given out when it was made; replaced whole
_PAIR_FINDER: tuple[int, re.Pattern[str]] = (0, NEVER)
_PAIR_BITS: dict[str, int] = {}  # "how muc" as found in a text → the bits it opens, remembered (see Words)
# _needle_gates of _NEEDLES, and how many gates were given out when it was made (see _needles); replaced whole
_NEEDLE_GATES: tuple[int, re.Pattern[str], re.Pattern[str], dict[str, int]] = (0, NEVER, NEVER, {})
_GATES = [0]  # how many bits are given out
_UNGATED = -1  # every bit: a part that is always searched
_WORD_BITS: dict[str, int] = {}  # a word → the bits it opens, remembered (see Words)
WORDS_REMEMBERED = 20_000  # words whose gate bits are remembered (a bound: people type anything)


def _word_bits(word: str, memo: dict[str, int]) -> int:
    """The gates one word of a text opens: as a whole word, and by its first two to four characters."""
    get = _PREFIX_GATES.get
    bits = _TOKEN_GATES.get(word, 0) | get(word[:2], 0) | get(word[:3], 0) | get(word[:4], 0)
    if len(memo) < WORDS_REMEMBERED:
        memo[word] = bits
    return bits


def _new_gate(
    anchors: Iterable[str],
    tokens: Iterable[str] = (),
    pairs: Iterable[str] = (),
    needles: Iterable[str] = (),
    word_pairs: Iterable[str] = (),
) -> int:
    """A new bit for a part of a PhraseSet, opened by any of its anchors, by any of ``tokens`` written
    as a whole word, by any of ``pairs`` or ``needles`` written anywhere, or by any of ``word_pairs``
    (see :func:`_word_pair`) written as two words (see :attr:`Words.opened`). The tables are filled
    and the remembered words dropped before the bit counts: a text read meanwhile finds the gate open,
    or the tables complete."""
    global _WORD_BITS, _PAIR_BITS
    bit = 1 << _GATES[0]
    for anchor in anchors:
        table = _CHAR_GATES if len(anchor) == 1 else _PREFIX_GATES
        table[anchor] = table.get(anchor, 0) | bit
    for table, keys in ((_TOKEN_GATES, tokens), (_NEEDLES, pairs), (_NEEDLES, needles), (_PAIR_GATES, word_pairs)):
        for key in keys:
            table[key] = table.get(key, 0) | bit
    _WORD_BITS, _PAIR_BITS = {}, {}
    _GATES[0] += 1
    return bit


def _needles(count: int) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    """:func:`_needle_gates` for the ``count`` gates given out so far, made again only after a new gate:
    once, when the first text is read after the vocabularies are compiled (not once per gate, which
    would compile a regex of hundreds of strings a hundred times)."""
    global _NEEDLE_GATES
    made, latin, others, opens = _NEEDLE_GATES
    if made != count:
        latin, others, opens = _needle_gates(dict(_NEEDLES))
        _NEEDLE_GATES = (count, latin, others, opens)
    return latin, others, opens


def _pair_finder(count: int) -> re.Pattern[str]:
    """For the ``count`` gates given out so far: a regex that finds each first word of a word pair (see
    :func:`_word_pair`) written as a whole word and followed by spaces or hyphens, with the first three
    characters of the next word (or all of a shorter one); made again only after a new gate (see
    :func:`_needles`). It consumes the first word alone, so that in "how to run" both "how to" and
    "to run" are found."""
    global _PAIR_FINDER
    made, finder = _PAIR_FINDER
    if made != count:
        firsts = sorted({key.split(" ")[0] for key in _PAIR_GATES}, key=len, reverse=True)
        words = _by_first_character([re.escape(w[0]) + _WORD_START_CHECK + re.escape(w[1:]) for w in firsts])
        finder = re.compile(rf"({words})(?=[\s\-]+([a-z0-9]{{1,3}}))") if firsts else NEVER
        _PAIR_FINDER = (count, finder)
    return finder


def _pair_bits(first: str, after: str, memo: dict[str, int]) -> int:
    """The gates a first word followed by a word that starts with ``after`` opens (see :func:`_word_pair`)."""
    get = _PAIR_GATES.get
    bits = get(f"{first} {after[:1]}", 0) | get(f"{first} {after[:2]}", 0) | get(f"{first} {after}", 0)
    if len(memo) < WORDS_REMEMBERED:
        memo[f"{first} {after}"] = bits
    return bits


def _needle_gates(needles: dict[str, int]) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    """Two regexes for all the needles, those starting with an ASCII character and the others, and the bits
    each match opens, so that a text is read for them in a pass or two of the regex engine instead of one
    substring test per needle. Each regex tries the longest needle first wherever one starts, and
    :class:`Words` searches again one character further on (not after the match: needles overlap, "deep"
    and "face" in "deepface"). Every needle found at one place is a start of the longest one there, so a
    match opens the bits of every needle it starts with. (Wherever a needle may start, the regex engine
    tries the groups in turn, some 300 of them for the needles in Chinese: one regex for both kinds took
    ≈20 µs for an average question in English, the ASCII one alone ≈2.)"""
    ordered = sorted(needles, key=len, reverse=True)
    latin, others = (
        re.compile(_by_first_character([re.escape(n) for n in ordered if n[0].isascii() == is_ascii]) or NEVER.pattern)
        for is_ascii in (True, False)
    )
    opens = {n: reduce(or_, (bits for m, bits in needles.items() if n.startswith(m)), 0) for n in needles}
    return latin, others, opens


def _first_words(entry: str) -> frozenset[str] | None:
    """The words (runs of ``[a-z0-9]``) a match of a plain phrase can begin with, when its words are
    only letters and digits: "fine tune" begins with "fine", "finetune", "finetunes" or "finetunees"
    ("fine-tuned" with "fine"). Its regex (see :func:`_phrase`) starts at a word start and ends at a
    word end, and each space between its words matches spaces and hyphens or nothing, so the word
    the match begins with ends at the first space or hyphen matched, or with the phrase. None for
    other phrases ("c++", "显存"), which are gated by their first characters alone (:func:`_anchor`).

    A stronger gate than the anchor: "fine-tuning" has the anchor of "fine tune" but none of its
    first words, so most phrase lists whose first letters a question has are still not searched."""
    text = entry.strip().lower()
    words = [w for w in re.split(r"[\s\-]+", text) if w]
    if not words or not _LATIN.match(text[:1]) or not _LATIN.match(text[-1:]):
        return None
    if not all(_ALNUM.fullmatch(w) for w in words):
        return None
    joined = list(accumulate(words))  # "fine", "finetune"
    return frozenset([*joined, joined[-1] + "s", joined[-1] + "es"])


_ALNUM = re.compile(r"[a-z0-9]+")

# Words that begin phrases in many lists and are in most questions: a phrase of two words or more that begins
# with one is gated by its first two words (see _word_pair), not by the first alone, which would open its
# list for most questions ("how" opened the power cues for 12 % of the corpus, which match 2 %)
_COMMON_FIRST = frozenset(
    [
        "a",
        "an",
        "and",
        "any",
        "are",
        "be",
        "best",
        "buy",
        "can",
        "card",
        "cards",
        "do",
        "does",
        "for",
        "get",
        "good",
        "gpu",
        "gpus",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "make",
        "memory",
        "model",
        "more",
        "much",
        "my",
        "need",
        "new",
        "no",
        "not",
        "of",
        "on",
        "or",
        "run",
        "running",
        "should",
        "so",
        "that",
        "the",
        "this",
        "to",
        "too",
        "use",
        "vram",
        "what",
        "when",
        "which",
        "will",
        "with",
        "would",
    ]
)


def _word_pair(entry: str) -> str | None:
    """ "how muc" for "how much VRAM": a phrase of two words or more whose first word is a common one
    (``_COMMON_FIRST``) and whose words are letters and digits (see :func:`_first_words`), as its first
    word and the first three characters of its second (or all of a shorter one). Its regex starts at a
    word start, and a gap between its words is spaces and hyphens or nothing: where the first word is a
    whole word of the text, the next word of the text starts with the second (else the match begins with
    the two glued, one of its other first words). None for other phrases."""
    if _first_words(entry) is None:
        return None
    words = [w for w in re.split(r"[\s\-]+", entry.strip().lower()) if w]
    if len(words) < 2 or words[0] not in _COMMON_FIRST:
        return None
    return f"{words[0]} {words[1][:3]}"


def _leading_pair(entry: str) -> str | None:
    """The first two characters of a plain phrase that starts with two characters neither Latin nor a
    space or hyphen ("显存" of "显存不够"): its regex starts with them as they are, so a text without
    them has no match. A stronger gate than the first character alone ("显" starts many phrases)."""
    text = entry.strip().lower()
    if len(text) < 2 or _LATIN.match(text[:1]) or re.search(r"[\s\-]", text[:2]):
        return None
    return text[:2]


def _leading_word(entry: str) -> str | None:
    """The first word, as written, of a plain phrase that starts with two characters neither Latin nor a
    space or hyphen ("显存不够" of "显存不够", "显存" of "显存 不够"): its regex starts with that word as it
    is (only the gaps between words vary), so a text without it has no match. A stronger gate than the
    first character ("显" starts many phrases), or than its first two ("显存" is in a fifth of the corpus
    questions, "显存不够" in few)."""
    pair = _leading_pair(entry)
    return None if pair is None else re.split(r"[\s\-]+", entry.strip().lower(), maxsplit=1)[0]


def _first_word_written(entry: str) -> str | None:
    """The first word of a plain phrase that starts with a letter or digit but runs into other
    characters ("a卡", "n卡", "i've got", "8比特", "c++"), as written. Such a phrase has no first words
    (see :func:`_first_words`), and its anchor would be one letter or digit, which nearly every question
    has (with "a卡" the topic list was searched for 93 % of the corpus questions, 54 % once gated by it);
    its regex keeps each word whole (only the gaps between words vary), so every match holds the first
    word, a far better gate.
    None for other phrases, and where that word is one character ("8 位")."""
    first = re.split(r"[\s\-]+", entry.strip().lower())[0]
    if len(first) < 2 or not _LATIN.match(first[:1]) or len(_anchor(entry)) > 1:
        return None
    return first


def _anchor(entry: str) -> str:
    """What a plain phrase's match starts with, as a key of :class:`Words`: the first two to four
    characters of its first word (a Latin phrase starts a word), else its first character."""
    text = entry.strip().lower()
    word = re.match(r"[a-z0-9]{1,4}", text)
    return word.group() if word else text[:1]


def _literal_starts(regex: str, limit: int = 8, most: int = 24) -> tuple[frozenset[str], bool] | None:
    """Strings one of which every match of a raw regex starts with, and whether the match starts
    a word (the regex starts with ``\\b`` and every string with a letter or digit); None when a
    match may start otherwise. Zero-width assertions are skipped; anything but literals, small
    character sets, groups, alternations and repeats ends the strings there."""
    try:
        items = list(_sre_parser.parse(regex))
    except Exception:  # a parser change in a future Python: no shortcut
        return None
    return _starts_of(items, limit, most)


def _starts_of(items: list[Any], limit: int, most: int) -> tuple[frozenset[str], bool] | None:
    """:func:`_literal_starts` of a parsed regex."""
    try:
        open_, closed = _walk(items, {""}, limit)
    except Exception:  # too many strings, or a parser change in a future Python: no shortcut
        return None
    starts = open_ | closed
    if not starts or "" in starts:
        return None
    # "what" already says whatever "whatx" would: keep only the shortest strings
    starts = {s for s in starts if not any(s != t and s.startswith(t) for t in starts)}
    if len(starts) > most:
        return None
    at_word = items[0] == (_sre_constants.AT, _sre_constants.AT_BOUNDARY)
    return frozenset(starts), at_word and all(_LATIN.match(s) for s in starts)


def _walk(items: list[Any], open_: set[str], limit: int) -> tuple[set[str], set[str]]:
    """(prefixes that may still grow, prefixes that end here) after ``items`` from ``open_``."""
    c = _sre_constants
    closed: set[str] = set()
    for op, av in items:
        if not open_:
            break
        if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            continue  # zero width
        if op is c.SUBPATTERN:
            open_, more = _walk(list(av[-1]), open_, limit)
            closed |= more
        elif op is c.BRANCH:
            grown: set[str] = set()
            for alt in av[1]:
                o, more = _walk(list(alt), open_, limit)
                grown |= o
                closed |= more
            open_ = grown
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT):
            low, high, body = av
            once, more = _walk(list(body), open_, limit)
            closed |= more
            if high != 1:  # it may repeat: what one pass gives is only a prefix
                closed |= once
                once = set()
            open_ = (open_ | once) if low == 0 else once
        else:
            chars = _chars(op, av)
            if chars is None:
                closed |= open_
                open_ = set()
                break
            open_ = {p + ch for p in open_ for ch in chars}
        full = {p for p in open_ if len(p) >= limit}
        closed |= full
        open_ -= full
        if len(open_) + len(closed) > 256:
            raise ValueError("too many strings")
    return open_, closed


def _required_strings(regex: str) -> frozenset[str] | None:
    r"""Strings one of which every match of a raw regex holds, read from its top level: a run of
    literal characters ("°" of ``[0-9]{2,3}\s?°``) or a group of literal alternatives ("run", "fit"
    of ``\bcan\b[^.?!]{0,40}\b(?:run|fit)\b``); of those, the one whose shortest string is longest.
    None when there is none. A gate for an entry whose literal starts are common (every digit, "is")."""
    if "(?i" in regex:
        return None
    try:
        items = list(_sre_parser.parse(regex))
    except Exception:  # a parser change in a future Python: no gate from it
        return None
    found: list[frozenset[str]] = []
    run = ""
    for op, av in items:
        if op is _sre_constants.LITERAL:
            run += chr(av)
            continue
        found.append(frozenset([run]))
        run = ""
        if op is _sre_constants.SUBPATTERN:
            found.append(_literal_alternatives(list(av[-1])))
        elif op is _sre_constants.BRANCH:  # a group without a name is no group once parsed
            found.append(_literal_alternatives([(op, av)]))
    found.append(frozenset([run]))
    best = max(found, key=lambda strings: (min(map(len, strings), default=0), -len(strings)))
    if not best or min(map(len, best)) == 0:
        return None
    return frozenset(s for s in best if not any(t != s and t in s for t in best))  # "fit" says "fits"


def _literal_alternatives(items: list[Any]) -> frozenset[str]:
    """Strings one of which every match of a group of alternatives holds: each alternative's literal start
    ("run|fit"; "shut" of "shuts?\\s+down", which a match of it holds too), else none (an empty set) where
    an alternative starts otherwise."""
    c = _sre_constants
    alternatives = items[0][1][1] if len(items) == 1 and items[0][0] is c.BRANCH else [items]
    out = set()
    for alternative in alternatives:
        start = ""
        for op, av in alternative:
            if op is not c.LITERAL:
                break
            start += chr(av)
        if not start:
            return frozenset()
        out.add(start)
    return frozenset(out)


def _chars(op: Any, av: Any) -> set[str] | None:
    """The characters a literal or a small positive character set matches, else None."""
    c = _sre_constants
    if op is c.LITERAL:
        return {chr(av)}
    if op is not c.IN:
        return None
    out: set[str] = set()
    for kind, value in av:
        if kind is c.LITERAL:
            out.add(chr(value))
        elif kind is c.RANGE and value[1] - value[0] < 16:
            out.update(map(chr, range(value[0], value[1] + 1)))
        else:
            return None
    return out


Search = Callable[[str], "re.Match[str] | None"]


class _StartsAt:
    """A raw alternation searched only where a match can start: at the literal strings that every
    match starts with (see :func:`_literal_starts`), at a word start for an entry starting with
    ``\\b``. A regex starting with ``\\b`` or a lookbehind gives the regex engine no first
    character to skip ahead by, so a plain search tries every position; an alternation of the
    strings does skip ahead, and the pattern is then only tried where one is found. The earliest
    position where the pattern matches is the one a plain search finds (its lookbehinds and ``\\b``
    still see the characters before), so this finds the same match."""

    __slots__ = ("pattern", "starts")

    def __init__(self, pattern: re.Pattern[str], strings: Iterable[tuple[str, bool]]) -> None:
        self.pattern = pattern
        # A word start is "\b" before a word character: nothing of a word just before it.
        self.starts = re.compile(
            _by_first_character(
                sorted(
                    {re.escape(s[0]) + (r"(?<!\w.)" if at_word else "") + re.escape(s[1:]) for s, at_word in strings}
                )
            )
        )

    def search(self, text: str) -> re.Match[str] | None:
        starts, match = self.starts.search, self.pattern.match
        candidate = starts(text)
        while candidate is not None:
            at = candidate.start()
            found = match(text, at)
            if found is not None:
                return found
            candidate = starts(text, at + 1)
        return None


class Searcher(Protocol):
    """What a search of one whole text needs: a compiled regex, or one searched by :func:`quick`."""

    def search(self, text: str, /) -> re.Match[str] | None: ...


def quick(pattern: re.Pattern[str], most: int = 64) -> Searcher:
    """``pattern``, or where every match starts with one of at most ``most`` literal strings, a
    :class:`_StartsAt` that finds the same match by looking for those strings first. For a regex led by
    ``\\b`` or a lookbehind in every alternative ("\\bwhy\\b|为什么…"), which the regex engine tries at
    every position of the text (the speed cue of engine.parse: ≈22 µs an average question, ≈4 searched
    by its starts). Only for a regex without flags (a case-insensitive one matches strings its literals
    do not spell)."""
    if pattern.flags != re.UNICODE:
        return pattern
    try:
        items = list(_sre_parser.parse(pattern.pattern))
    except Exception:  # a parser change in a future Python: search as before
        return pattern
    # Each alternative's strings, and whether it starts a word: "is" of "\\bis\\s+normal" is then looked for
    # only where a word starts ("this" is no candidate)
    branches = (
        [list(b) for b in items[0][1][1]] if len(items) == 1 and items[0][0] is _sre_constants.BRANCH else [items]
    )
    # strings of up to 8 characters, or of 3 where an alternative's are more than 24 ("只(?:用了?|…)(?:第一张|…)")
    found = [_starts_of(branch, 8, 24) or _starts_of(branch, 3, most) for branch in branches]
    if any(f is None for f in found):
        return pattern
    starts = {(s, at_word) for strings, at_word in filter(None, found) for s in strings}
    # a string found wherever another is ("what" where "whatx" is, and as freely) is enough
    starts = {
        (s, at_word)
        for s, at_word in starts
        if not any(
            (t, t_at_word) != (s, at_word) and s.startswith(t) and (at_word or not t_at_word) for t, t_at_word in starts
        )
    }
    return _StartsAt(pattern, starts) if len(starts) <= most else pattern


def _starts_with_check(regex: str) -> bool:
    """Whether a regex starts with a zero-width check (``\\b``, a lookbehind): the regex engine
    then has no first character to skip ahead by and tries the regex at every position."""
    try:
        items = list(_sre_parser.parse(regex))
        while items and items[0][0] is _sre_constants.SUBPATTERN:
            items = list(items[0][1][-1])
    except Exception:  # a parser change in a future Python: search as before
        return False
    return bool(items) and items[0][0] in (_sre_constants.AT, _sre_constants.ASSERT, _sre_constants.ASSERT_NOT)


class PhraseSet:
    """A vocabulary list compiled as two alternations, longest first ("lambda labs" before "lab"):
    the plain phrases, which start with a literal and so let the regex engine skip ahead, and the
    raw ``re:`` entries, which would take that shortcut away from the phrases if mixed in.

    :meth:`find` searches like :meth:`search`, but skips a part whose anchors the text lacks (see
    :class:`Words`): the words a plain phrase may begin with (:func:`_first_words`), or its first two
    Chinese characters or more (:func:`_leading_word`), or else its first characters; the literal strings
    each raw entry starts with, or what it must hold where those are common (:func:`_required_strings`)."""

    def __init__(self, entries: Iterable[str], *, by_first_words: bool = True) -> None:
        """``by_first_words=False`` gates the plain phrases by their first characters alone, for a list
        whose :meth:`could_match` also gates a looser pattern (a model family may run into digits
        there: "chatglm2", "qwen2.5"), which the first words of the phrases do not cover."""
        items = sorted({str(e) for e in entries}, key=len, reverse=True)
        plain = [f"(?:{_phrase(e)})" for e in items if not e.startswith("re:")]
        raw = [f"(?:{_phrase(e)})" for e in items if e.startswith("re:")]
        self.pattern = "|".join(plain + raw) or NEVER.pattern
        phrases = [_phrase(e) for e in items if not e.startswith("re:")]
        grouped = _by_first_character(phrases) if plain else ""
        self._parts = tuple(re.compile(part) for part in (grouped, "|".join(raw)) if part) or (NEVER,)
        # Per part: (pattern, its search, its gate bit). The gate bit is open in Words.opened when one of
        # the part's anchors is in the text (see the class docstring).
        gates: list[tuple[re.Pattern[str], Search, int]] = []
        if plain:
            anchors: set[str] = set()
            first_words: set[str] = set()
            pairs: set[str] = set()
            written: set[str] = set()  # first words as written, where they run into other characters
            word_pairs: set[str] = set()  # a common first word and the start of the next (see _word_pair)
            for e in items:
                if e.startswith("re:"):
                    continue
                words = _first_words(e) if by_first_words else None
                pair = _leading_word(e) if by_first_words else None
                needle = _first_word_written(e) if by_first_words else None
                word_pair = _word_pair(e) if words is not None else None
                if word_pair is not None and words is not None:
                    # the first word alone is no gate: the two words are, or the first glued to the next
                    word_pairs.add(word_pair)
                    first_words.update(w for w in words if w != word_pair.split(" ")[0])
                elif words is not None:
                    first_words.update(words)
                elif pair is not None:
                    pairs.add(pair)
                elif needle is not None:
                    written.add(needle)
                else:
                    anchors.add(_anchor(e))
            search = _plain_search(phrases, self._parts[0])
            gates.append((self._parts[0], search, _new_gate(anchors, first_words, pairs, written, word_pairs)))
        if raw:
            starts: set[tuple[str, bool]] = set()
            keys: set[str] = set()
            needles: set[str] = set()
            gated = True
            for e in items:
                if not e.startswith("re:"):
                    continue
                found = _literal_starts(e[3:])
                if found is None:
                    gated = False
                    continue
                starts.update((s, found[1]) for s in found[0])
                at_word = found[1]  # then its anchors are word starts (keys of Words), else substrings
                first = list(map(_anchor, found[0])) if at_word else list(found[0])
                weakest = min(map(len, first))
                required = _required_strings(e[3:]) if weakest <= 2 else None
                if required is not None and (
                    min(map(len, required)) > weakest or all(len(r) == 1 and not _LATIN.match(r) for r in required)
                ):
                    # It may start with any digit or with "is", which most questions have; what it must
                    # hold is rarer ("°", "run" or "fit")
                    first, at_word = sorted(required), False
                keys.update(a for a in first if at_word or len(a) == 1)
                needles.update(a for a in first if not at_word and len(a) > 1)
            pattern = self._parts[-1]
            # One entry led by a check is enough to make the regex engine try every position
            checked = any(_starts_with_check(e[3:]) for e in items if e.startswith("re:"))
            search = _StartsAt(pattern, starts).search if gated and checked else pattern.search
            bit = _new_gate(keys, needles=needles) if gated else _UNGATED
            gates.append((pattern, search, bit))
        self._gates = tuple(gates)
        if len(self._parts) == 1:  # the common case, without a Python-level wrapper
            self.search = self._parts[0].search  # type: ignore[method-assign, assignment]
            self.match = self._parts[0].match  # type: ignore[method-assign, assignment]
            if len(gates) == 1:
                self._bit, self._search = gates[0][2], gates[0][1]
                self.find = self._find_by_anchors  # type: ignore[method-assign]

    def search(self, text: str) -> re.Match[str] | None:
        """The earliest match of any entry."""
        found = [m for m in (p.search(text) for p in self._parts) if m]
        return min(found, key=lambda m: m.start()) if found else None

    def _find_by_anchors(self, words: Words) -> re.Match[str] | None:
        return self._search(words.low) if self._bit & words.opened else None

    def find(self, words: Words) -> re.Match[str] | None:
        """:meth:`search` on ``words.low``, without searching parts that cannot match there."""
        found = None
        opened, low = words.opened, words.low
        for _, search, bit in self._gates:
            if not bit & opened:
                continue
            m = search(low)
            if m is not None and (found is None or m.start() < found.start()):
                found = m
        return found

    def could_match(self, words: Words) -> bool:
        """False when no entry can match ``words`` (the check :meth:`find` makes before searching)."""
        return any(bit & words.opened for _, _, bit in self._gates)

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return next((m for m in (p.match(text, pos) for p in self._parts) if m), None)

    def finditer(self, text: str) -> list[re.Match[str]]:
        return sorted((m for p in self._parts for m in p.finditer(text)), key=lambda m: m.start())

    def finditer_in(self, words: Words) -> list[re.Match[str]]:
        """:meth:`finditer` on ``words.low``, skipping parts that cannot match there."""
        out: list[re.Match[str]] = []
        for pattern, _, bit in self._gates:
            if not bit & words.opened:
                continue
            out += pattern.finditer(words.low)
        return sorted(out, key=lambda m: m.start()) if len(self._gates) > 1 else out


def compile_keyed(mapping: Mapping[str, Iterable[str]]) -> dict[str, PhraseSet]:
    return {key: PhraseSet(entries) for key, entries in mapping.items()}


def squash(text: str) -> str:
    """A lookup key for a matched phrase: lower case without spaces or hyphens."""
    return re.sub(r"[\s\-]+", "", text.lower())


@dataclass(frozen=True, eq=False)  # hashed by identity: it is built once
class Vocab:
    """Everything the parser matches against, compiled."""

    raw: dict[str, Any]
    hant: frozenset[str]
    hans: frozenset[str]
    kana: PhraseSet
    follow_up: PhraseSet
    kinds: dict[str, PhraseSet]
    fit_intent: PhraseSet
    compare_strong: PhraseSet
    domain_words: PhraseSet
    topic_any: PhraseSet  # every topic phrase: most questions name none, and one search says so
    topic_strong: re.Pattern[str]  # one named group per topic
    topic_weak: re.Pattern[str]
    domains: dict[str, PhraseSet]
    domain_priority: tuple[str, ...]
    stages: dict[str, PhraseSet]
    llm_train: PhraseSet
    not_llm: PhraseSet
    from_scratch: PhraseSet
    conditions: dict[str, PhraseSet]
    negated_used: PhraseSet
    organization: PhraseSet
    workloads: dict[str, PhraseSet]
    modes: dict[str, PhraseSet]
    mode_any: PhraseSet  # every mode phrase: where none can match, no mode is searched
    precisions: dict[str, PhraseSet]  # engine.memory precision name → how people write it
    support_words: PhraseSet  # a question about what software runs on a card
    not_projects: frozenset[str]  # Latin words no project name is (see engine.parse.project_name)
    vendor_opt_in: PhraseSet  # "AMD", "A卡也行" after an answer: a follow-up changing only the vendor
    vendors: dict[str, PhraseSet]  # "on AMD GPUs", "A卡", "Intel Arc": the vendor asked for (see Parser.vendor)
    which_gpu_suits: PhraseSet  # "which GPU is best for X?", "什么显卡适合…": a recommendation, no card named
    pooling: PhraseSet  # "can I combine the VRAM of two cards?": the guide on several GPUs
    slower_than_one: PhraseSet  # "two cards train slower than one": the guide on multi-GPU scaling
    spec_words: PhraseSet  # "specs", "规格": one card named with one asks for its spec card
    software_words: PhraseSet  # a framework or kernel library named ("good for PyTorch?", "flash attention on a T4")
    oom_words: PhraseSet  # "out of memory": a framework named in an error report is no support question
    worth_words: PhraseSet  # "is a used 3090 still worth it?"
    upgrade_words: PhraseSet  # "what should I upgrade to?", "想升级，买什么好"
    realtime_words: PhraseSet  # "20 FPS", "real time", "实时": a model run (inference), not trained
    add_another: PhraseSet  # "getting another one", "再加一张": one more of the card named, a setup of two
    objectives: dict[str, PhraseSet]  # "cheapest", "fastest": what "best" means in a recommendation
    value_words: PhraseSet  # "best value", "性价比": a ranking per dollar
    together_words: PhraseSet  # "work together", "一起用": cards used at once
    owner_words: PhraseSet  # "my 3060", "I have a 3060", "我的2060": the card named next is the user's own
    not_had_words: PhraseSet  # "I can't afford an A100", "买不起A100": the card named next is ruled out
    trouble_words: PhraseSet  # "is this normal?", "why so slow?", "报错": troubleshooting, not a fit question
    conditional_words: PhraseSet  # "if", "如果": what follows is supposed, not reported
    unpriced_providers: dict[str, PhraseSet]  # name shown → its phrases: rental providers without prices on file
    providers: dict[str, PhraseSet]  # engine.query.Provider slug → its phrases: providers whose offers are on file
    provider_any: PhraseSet
    requirement_words: PhraseSet  # "what GPU do I need for …?"
    cpu_only: PhraseSet  # the user has no GPU
    precision_any: PhraseSet
    laptop: PhraseSet
    laptop_in_general: PhraseSet
    apple: PhraseSet
    power_limit_cues: PhraseSet
    psu_cues: PhraseSet
    not_vram: PhraseSet
    vram_words: PhraseSet
    versions: re.Pattern[str]
    version_words: PhraseSet  # a version starts with one: where none can match, no version is searched
    ascend_chips: re.Pattern[str]  # Ascend chip numbers the catalog has no entry for ("910C", "310P")
    ascend_words: PhraseSet  # "昇腾", "Ascend", "华为": where none can match, no chip number is searched
    models: re.Pattern[str]
    model_families: PhraseSet  # every family name: where none can match and no size is written, no model is
    model_llm_families: frozenset[str]
    gpu_noise: frozenset[str]
    gpu_lines: frozenset[str]
    gpu_like: frozenset[str]
    gpu_form: frozenset[str]
    gpu_laptop: frozenset[str]
    memory_units: frozenset[str]
    count_words: dict[str, int]
    numbers: dict[str, dict[str, int]]
    money: dict[str, Any] = field(repr=False)


def _model_pattern(families: list[str], name_words: list[str]) -> re.Pattern[str]:
    """A model name: family, then versions and name words, then an optional size ("Llama 3.1 70B").

    Each repeated piece must end where its digits or letters end, so the pattern cannot split one
    run of digits in several ways: matching stays linear even on hostile input.
    """

    def family(name: str) -> str:  # digits may follow at once ("qwen2.5"), letters may not ("phi" ≠ "philips")
        body = r"[\s\-]*".join(map(re.escape, name.lower().split()))
        return re.escape(name[0].lower()) + "(?<![a-z0-9].)" + body[len(re.escape(name[0].lower())) :] + "(?![a-z])"

    fam = _by_first_character(sorted(map(family, families), key=len, reverse=True))
    words = "|".join(sorted(map(re.escape, name_words), key=len, reverse=True))
    piece = (
        rf"(?:[\s\-_]*|\.(?=[0-9]))(?:v?[0-9]+(?:\.[0-9]+)?(?![0-9.]|\s?b\b)|(?:{words})(?![a-z0-9]))"
        r"|-[a-z]{1,8}(?![a-z])"
    )  # "polyglot-ko-12.8b"; a version after a dot: "FLUX.2", "Kimi K2.5", "MiniMax M2.5"
    size = r"[0-9]+x[0-9]+\s?b|[0-9]+(?:\.[0-9]+)?\s?b"
    return re.compile(
        rf"(?P<fam>{fam})(?:{piece}){{0,4}}(?:[\s\-_]*(?:\(\s*(?P<psize>{size})\s*\)|(?P<size>{size})))?(?![a-z0-9])"
        rf"|(?P<bare>[0-9](?<![a-z0-9.][0-9])(?:[0-9]*x[0-9]+\s?b|[0-9]*(?:\.[0-9]+)?\s?b))(?![a-z0-9])"
    )


@cache
def load_vocab() -> Vocab:
    """``parse.yaml``, compiled; loaded once per process."""
    raw = read_yaml(data_dir() / "locales" / "parse.yaml")
    lang, tasks, names, models = raw["language"], raw["tasks"], raw["gpu_names"], raw["models"]

    def topics(strength: str) -> re.Pattern[str]:
        """One search finds the first topic named: each topic's phrases are a named group."""
        groups = [
            f"(?P<{name}>{PhraseSet(cues[strength]).pattern})"
            for name, cues in raw["topics"].items()
            if cues.get(strength)
        ]
        return re.compile("|".join(groups))

    families = [*models["llm_families"], *models["other_families"]]
    return Vocab(
        raw=raw,
        hant=frozenset(lang["hant"]),
        hans=frozenset(lang["hans"]),
        kana=PhraseSet([lang["kana"]]),
        follow_up=PhraseSet(raw["follow_up"]),
        kinds=compile_keyed(raw["kinds"]),
        fit_intent=PhraseSet(raw["fit_intent"]),
        compare_strong=PhraseSet(raw["compare_strong"]),
        domain_words=PhraseSet(raw["domain_words"]),
        topic_any=PhraseSet(e for cues in raw["topics"].values() for es in cues.values() for e in es),
        topic_strong=topics("strong"),
        topic_weak=topics("weak"),
        domains=compile_keyed(tasks["domains"]),
        domain_priority=tuple(tasks["priority"]),
        stages=compile_keyed(tasks["stages"]),
        llm_train=PhraseSet(tasks["llm_train"]),
        not_llm=PhraseSet(tasks["not_llm"]),
        from_scratch=PhraseSet(tasks["from_scratch"]),
        conditions=compile_keyed({k: v for k, v in raw["condition"].items() if k in ("used", "new")}),
        negated_used=PhraseSet([raw["condition"]["negated_used"]]),
        organization=PhraseSet(raw["organization"]),
        workloads=compile_keyed(raw["workloads"]),
        modes=compile_keyed(raw["modes"]),
        mode_any=PhraseSet(e for entries in raw["modes"].values() for e in entries),
        precisions=compile_keyed(raw["precisions"]),
        support_words=PhraseSet(raw["support_words"]),
        not_projects=frozenset(raw["not_projects"]),
        vendor_opt_in=PhraseSet(raw["vendor_opt_in"]),
        vendors=compile_keyed(raw["vendors"]),
        which_gpu_suits=PhraseSet(raw["which_gpu_suits"]),
        pooling=PhraseSet(raw["pooling"]),
        slower_than_one=PhraseSet(raw["slower_than_one"]),
        spec_words=PhraseSet(raw["spec_words"]),
        software_words=PhraseSet(raw["software_words"]),
        oom_words=PhraseSet(raw["oom_words"]),
        worth_words=PhraseSet(raw["worth_words"]),
        upgrade_words=PhraseSet(raw["upgrade_words"]),
        realtime_words=PhraseSet(raw["realtime_words"]),
        add_another=PhraseSet(raw["add_another"]),
        objectives={name: PhraseSet(phrases) for name, phrases in raw["objectives"].items()},
        value_words=PhraseSet(raw["value_words"]),
        together_words=PhraseSet(raw["together_words"]),
        owner_words=PhraseSet(raw["owner_words"]),
        not_had_words=PhraseSet(raw["not_had_words"]),
        trouble_words=PhraseSet(raw["trouble_words"]),
        conditional_words=PhraseSet(raw["conditional_words"]),
        unpriced_providers={name: PhraseSet([phrase]) for phrase, name in raw["unpriced_providers"].items()},
        providers={slug: PhraseSet(phrases) for slug, phrases in raw["providers"].items()},
        provider_any=PhraseSet(p for phrases in raw["providers"].values() for p in phrases),
        requirement_words=PhraseSet(raw["requirement_words"]),
        cpu_only=PhraseSet(raw["cpu_only"]),
        precision_any=PhraseSet(e for entries in raw["precisions"].values() for e in entries),
        laptop=PhraseSet(raw["laptop"]),
        laptop_in_general=PhraseSet(raw["laptop_in_general"]),
        apple=PhraseSet(raw["apple"]),
        power_limit_cues=PhraseSet(raw["power_limit_cues"]),
        psu_cues=PhraseSet(raw["psu_cues"]),
        not_vram=PhraseSet(raw["not_vram"]),
        vram_words=PhraseSet(raw["vram_words"]),
        versions=re.compile(
            "(?:" + PhraseSet(raw["version_words"]).pattern + r")[\s\-]*v?[0-9]+(?:\.[0-9]+){0,3}"
            r"(?![0-9.])(?!\s*(?:g|gb|gib)(?![a-z]))"  # "PCIe 40G" is a card's memory, not a version
        ),
        version_words=PhraseSet(raw["version_words"]),
        # Ascend chip numbers in a question that names Ascend or Huawei ("昇腾…比如910C系列"): no model size.
        # Right after the name, a chip the catalog has ("昇腾910", "Ascend 310P") is left to find_gpus.
        ascend_chips=re.compile(r"(?<![0-9a-z])(?:910[ac]?|310p)(?![0-9a-z])"),
        ascend_words=PhraseSet(raw["ascend_words"]),
        models=_model_pattern(families, models["name_words"]),
        model_families=PhraseSet(families, by_first_words=False),  # it gates `models` (see find_model)
        model_llm_families=frozenset(squash(f) for f in models["llm_families"]),
        gpu_noise=frozenset(names["noise"]),
        gpu_lines=frozenset(names["lines"]),
        gpu_like=frozenset(names["gpu_like"]),
        gpu_form=frozenset(names["form"]),
        gpu_laptop=frozenset(names["laptop_tokens"]),
        memory_units=frozenset(names["memory_units"]),
        count_words={squash(k): int(v) for k, v in raw["gpu_count"]["words_en"].items()},
        numbers={k: {str(n): int(v) for n, v in m.items()} for k, m in raw["numbers"].items()},
        money=raw["money"],
    )


# --- GPU names -------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9]+")
# Huawei's Chinese names as the catalog folds them (engine.catalog._LOCAL_WORDS): "昇腾910" is "ascend 910".
# Most questions hold none, which a character test settles before the slower pattern runs.
_TOKEN_CJK = re.compile(r"[a-z0-9]+|昇[腾騰]|华为|華為|摩[尔爾][线線]程|寒武[纪紀]")
_CJK_NAMES = {
    "昇腾": "ascend",
    "昇騰": "ascend",
    "华为": "huawei",
    "華為": "huawei",
    "摩尔线程": "moore threads",
    "摩爾線程": "moore threads",
    "寒武纪": "cambricon",
    "寒武紀": "cambricon",
}
_CJK_GATE = tuple({name[0] for name in _CJK_NAMES})  # a name's first character: most questions hold none
_MEMORY_TOKEN = re.compile(r"^([0-9]{1,4})(?:gb|g|gig|gigs|gigabytes?)$")
Key = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class GpuIndex:
    """Catalog names split as (core, extras): core keeps model and variant words, extras the memory,
    form factor and laptop tokens, which people write in any order or leave out.

    ``exact`` holds the catalog's own names; ``derived`` adds the shortened forms people type ("3090"
    for "RTX 3090", "a100" for every A100), mapping to every card they could mean, in catalog order.
    """

    exact: dict[Key, str]
    derived: dict[Key, tuple[str, ...]]
    starts: frozenset[str]
    catalog: Catalog = field(repr=False, compare=False)
    # Every start of every core: a run of tokens whose core so far is not one cannot match by
    # going on, so matching stops there ("4070 ti or 3090" is not tried past "or").
    core_prefixes: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def keys(self, tokens: list[str], vocab: Vocab) -> list[Key]:
        """The key of each start of a run of tokens (``split_key`` of ``tokens[:n]`` for n = 1, 2, …),
        up to the first whose core begins no catalog core."""
        out: list[Key] = []
        core = ""
        extras: set[str] = set()
        prefixes = self.core_prefixes
        for tok in tokens:
            kind, value = name_part(tok, vocab)
            if kind == "core":
                core += value
                if core not in prefixes:
                    break
            elif kind == "extra":
                extras.add(value)
            out.append((core, tuple(sorted(extras))))
        return out

    def lookup(self, key: Key) -> tuple[str, ...]:
        hit = self.exact.get(key)
        return (hit,) if hit else self.derived.get(key, ())


@cache
def _memory_gate(vocab: Vocab) -> re.Pattern[str]:
    """A digit, maybe a space, then the first letter of a memory unit: without one, no token needs joining."""
    firsts = "".join(sorted({u[0] for u in vocab.memory_units} | {"g"}))
    return re.compile(rf"[0-9]\s*[{re.escape(firsts)}]")


_GLUED_LINE = re.compile(r"(?:rtx|gtx|rx|gt|nvidia|geforce|gpu)(?=[0-9]{3,4}[a-z]*$)")
# A memory size glued after a model name ("4060ti16g", "3080ti12gb"): the name, then the size
_GLUED_MEMORY = re.compile(r"([0-9]{3,4}[a-z]+?)([0-9]{1,3})(?:gb|g)$")
_GLUED_TIER_MEMORY = re.compile(r"(max|pro|ultra)([0-9]{1,3})(?:gb|g)")
# "(?<![a-z0-9])(?:rtx|gtx|rx|gt|gpu|geforce|nvidia)[0-9]" ("RTX3090", "NVIDIA3060", "GPU3090"), with the
# word-start check after the first letter so that the regex engine skips to an "r", a "g" or an "n" (a leading
# lookbehind is tried at every position)
_GLUED_GATE = re.compile(
    r"r(?<![a-z0-9].)(?:tx|x)[0-9]|g(?<![a-z0-9].)(?:tx|t|pu|eforce)[0-9]|n(?<![a-z0-9].)vidia[0-9]"
)


_GLUED_TITAN = re.compile(r"titan(xp|x|v|rtx)")
# a card's name with "gpu" glued after it ("v100gpu", "rtx3090gpus", "4090gpu")
_GLUED_GPU_WORD = re.compile(r"([a-z]*[0-9]+[a-z]*?)(gpus?)")


def _split_gpu_word(token: tuple[str, int, int]) -> list[tuple[str, int, int]]:
    tok, start, end = token
    glued = _GLUED_GPU_WORD.fullmatch(tok) if tok.endswith(("gpu", "gpus")) else None
    if glued is None:
        return [token]
    cut = start + glued.end(1)
    return [(glued.group(1), start, cut), (glued.group(2), cut, end)]


def _split_titan(token: tuple[str, int, int]) -> list[tuple[str, int, int]]:
    """ "titanxp" → "titan", "xp" (a Titan written as one word)."""
    tok, start, end = token
    glued = _GLUED_TITAN.fullmatch(tok)
    if glued is None:
        return [token]
    return [("titan", start, start + 5), (glued.group(1), start + 5, end)]


def _split_line(tokens: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """ "rtx8000" → "rtx", "8000", "nvidia3060" → "nvidia", "3060": a product line or maker glued to the model number
    is two name tokens."""
    out: list[tuple[str, int, int]] = []
    for tok, start, end in tokens:
        line = _GLUED_LINE.match(tok) if tok[:1] in "rgn" else None
        if line:
            out += [(line.group(), start, start + line.end()), (tok[line.end() :], start + line.end(), end)]
        else:
            out.append((tok, start, end))
    return out


def gpu_tokens(text: str, vocab: Vocab) -> list[tuple[str, int, int]]:
    """Lower-case alphanumeric tokens with offsets; "12 GB" and "12g" become one token "12gb", and a
    product line glued to a number ("rtx3090") two tokens."""
    if any(first in text for first in _CJK_GATE):
        tokens = [(_CJK_NAMES.get(m.group(), m.group()), m.start(), m.end()) for m in _TOKEN_CJK.finditer(text)]
    else:
        tokens = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    if "gpu" in text:  # "V100GPU", "RTX3090GPU": the card, then the word for it
        tokens = [part for tok in tokens for part in _split_gpu_word(tok)]
    if _GLUED_GATE.search(text):
        tokens = _split_line(tokens)
    if "titan" in text:  # "TitanXp", "TitanV", "TitanRTX": the line and the model, as "Titan Xp" reads
        tokens = [part for tok in tokens for part in _split_titan(tok)]
    if not _memory_gate(vocab).search(text):  # most questions: no memory size to join
        return tokens
    out: list[tuple[str, int, int]] = []
    for tok, start, end in tokens:
        if out and tok in vocab.memory_units and out[-1][0].isdigit() and not text[out[-1][2] : start].strip():
            out[-1] = (out[-1][0] + "gb", out[-1][1], end)
            continue
        mem = _MEMORY_TOKEN.match(tok) if tok[0] <= "9" else None  # a size starts with a digit
        glued = _GLUED_MEMORY.match(tok) if mem is None and tok[0] <= "9" else None
        # "M3 Max128GB", "pro36gb": an Apple tier with its memory glued on
        glued = glued or (_GLUED_TIER_MEMORY.fullmatch(tok) if mem is None and tok[:1] in "mpu" else None)
        if glued:
            cut = start + glued.end(1)
            out += [(glued.group(1), start, cut), (f"{glued.group(2)}gb", cut, end)]
            continue
        out.append((f"{mem.group(1)}gb" if mem else tok, start, end))
    return out


def name_part(tok: str, vocab: Vocab) -> tuple[str, str]:
    """What one token is in a GPU name: ("noise", …) for brand words, ("extra", the normalised
    memory, form factor or "laptop"), or ("core", the token)."""
    if tok in vocab.gpu_noise:
        return "noise", tok
    if tok in vocab.gpu_form or (tok[:1].isdigit() and _MEMORY_TOKEN.match(tok)):
        return "extra", "pcie" if tok == "pci" else tok.rstrip("45") if tok.startswith("sxm") else tok
    if tok in vocab.gpu_laptop:
        return "extra", "laptop"
    return "core", tok


def split_key(tokens: Iterable[str], vocab: Vocab) -> Key:
    """(core, sorted extras) for a run of name tokens; brand words dropped, "mobile" read as laptop."""
    core: list[str] = []
    extras: set[str] = set()
    for tok in tokens:
        kind, value = name_part(tok, vocab)
        if kind == "core":
            core.append(value)
        elif kind == "extra":
            extras.add(value)
    return "".join(core), tuple(sorted(extras))


def _alias_forms(core: list[str], extras: set[str], memory: str, vocab: Vocab) -> set[Key]:
    """The shortened forms of one catalog name that people type: without the product line, without
    memory or form factor, or with the card's memory added. Laptop is never dropped."""
    cores = {"".join(core)}
    if len(core) > 1 and core[0] in vocab.gpu_lines:
        cores.add("".join(core[1:]))
    cores |= {c[: -len("super")] + "s" for c in cores if c.endswith("tisuper")}  # "4070tis": Ti Super
    mems = {e for e in extras if e.endswith("gb")}
    forms = extras & vocab.gpu_form
    bases = [extras, extras - mems, extras - forms, extras - mems - forms]
    sets = {frozenset(b) for b in bases} | {frozenset(b | {memory}) for b in bases if not (b & mems)}
    return {(c, tuple(sorted(s))) for c in cores if c for s in sets}


def _nameable(core: str) -> bool:
    """Whether a name core can stand for a card: not empty, not one letter, and not a number of one
    or two digits ("7" of "Radeon 7", "64" of "Vega 64": "24/7" and "64 cores" name no card)."""
    return len(core) > 1 and not (core.isdigit() and len(core) < 3)


def _worded(core: str, words: int) -> bool:
    """A name without a digit needs two words ("Titan V", "Jetson Nano"): one word alone ("nano",
    "digits", "thor") is far more often just a word."""
    return words >= 2 or any(c.isdigit() for c in core)


def _round_number(core: str) -> bool:
    return core.isdigit() and core.endswith("000")


def build_gpu_index(catalog: Catalog, vocab: Vocab) -> GpuIndex:
    """Index every catalog name and its shortened forms; only cores with a digit or a known
    digitless name (Titan V) can start a match."""
    exact: dict[Key, str] = {}
    derived: dict[Key, list[str]] = {}
    starts: set[str] = set(vocab.gpu_noise | vocab.gpu_lines | vocab.gpu_like)
    for gpu in catalog.gpus.values():
        memory = f"{round(gpu.memory_gb)}gb"
        for alias in (gpu.id, gpu.name, gpu.short_name, *gpu.aliases):
            toks = [t for t, _, _ in gpu_tokens(alias.lower(), vocab)]
            core, extras = split_key(toks, vocab)
            core_toks = [t for t in toks if t not in vocab.gpu_noise and split_key([t], vocab)[0]]
            named = sum(1 for t in toks if t in vocab.gpu_like or split_key([t], vocab)[0])  # "Radeon VII": 2
            if not _nameable(core) or not _worded(core, named):
                continue
            exact.setdefault((core, extras), gpu.id)
            # A name starts with its first word, or with the word after a product line ("3090" for
            # "RTX 3090"); "x" of "Titan X" or "7" of "Radeon 7" start nothing on their own.
            starts.update(t for t in core_toks[: 2 if core_toks[0] in vocab.gpu_lines else 1] if _nameable(t))
            for key in _alias_forms(core_toks, set(extras), memory, vocab):
                if key[0].endswith("tis") and key[0][:-3].isdigit():
                    starts.add(key[0])  # "4070tis" is typed as one word (and "two 4070tis" is two 4070 Ti)
                words = named if key[0] == core else named - 1
                if not (_nameable(key[0]) and _worded(key[0], words)) or _round_number(key[0]):
                    continue  # a round "5000" alone is money; "RTX 5000" says it is a card
                ids = derived.setdefault(key, [])
                if gpu.id not in ids:
                    ids.append(gpu.id)
    prefixes = frozenset(core[:n] for core, _ in (*exact, *derived) for n in range(1, len(core) + 1))
    return GpuIndex(exact, {k: tuple(v) for k, v in derived.items()}, frozenset(starts), catalog, prefixes)
