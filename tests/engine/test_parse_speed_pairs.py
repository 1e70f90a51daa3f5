"""The stronger phrase-list gates (engine.parse_vocab, #24): a phrase that begins with a common word is gated
by its first two words, a phrase in Chinese by its whole first word, and a raw entry's required strings by
each alternative's literal start. A gate may skip a search but never hide a match: these tests compare the
gated search with the plain regex on spellings that test each rule."""

from __future__ import annotations

import re
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.parse_vocab import PhraseSet, Words, _leading_word, _required_strings, _word_pair


def _plain(phrases: PhraseSet, text: str) -> tuple[int, int] | None:
    found = re.search(phrases.pattern, text)
    return found.span() if found else None


def _found(phrases: PhraseSet, text: str) -> tuple[int, int] | None:
    found = phrases.find(Words(text))
    return found.span() if found else None


def test_a_phrase_that_begins_with_a_common_word_is_gated_by_its_first_two_words() -> None:
    assert _word_pair("how much vram") == "how muc"
    assert _word_pair("how-to") == "how to"
    assert _word_pair("is it normal") == "is it"
    assert _word_pair("fine tune") is None  # "fine" is no common word: gated by its first words
    assert _word_pair("how") is None  # one word: gated by it
    assert _word_pair("how's it") is None  # not letters and digits only
    assert _word_pair("显存不够") is None


def test_a_phrase_in_chinese_is_gated_by_its_whole_first_word() -> None:
    assert _leading_word("显存不够") == "显存不够"
    assert _leading_word("显存 不够") == "显存"
    assert _leading_word("算力-卡") == "算力"
    assert _leading_word("显") is None
    assert _leading_word("gpu") is None


def test_a_required_group_gives_each_alternatives_literal_start() -> None:
    regex = r"\b(?:pc|it)\s+(?:\w+\s+)?(?:reboots|shuts\s+down|powers\s+off)\b"
    assert _required_strings(regex) == {"reboots", "shuts", "powers"}
    assert _required_strings(r"\b(?:could|is)\b[^.?!]{0,40}\b(?:run|fit|fits)\b") == {"run", "fit"}
    assert _required_strings(r"(?:\w+x|ab)") is None  # an alternative with no literal start: no gate from it


# Built once: each PhraseSet registers its gates for the whole process, so one per example would grow them
_SMALL = ["how much vram", "how much", "how to", "is it normal", "显存不够", "显存 溢出", "vram"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["how", "much", "muc", "m", "vram", "to", "run", "is", "it", " ", "-", ",", "s", "显存", "不够"]
        ),
        max_size=10,
    ).map("".join)
)
def test_pair_gates_never_hide_a_match_of_a_small_list(text: str) -> None:
    phrases = _small_list()
    assert _found(phrases, text) == _plain(phrases, text)


@cache
def _small_list() -> PhraseSet:
    return PhraseSet(_SMALL)
