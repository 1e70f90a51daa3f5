"""The cycle model reproduces the guide's worked example term by term."""

from __future__ import annotations

import pytest

from bot.words import english, render
from engine.cycles import tensor_core_speedup, tile_cycles, worked_example
from engine.datafiles import data_dir, read_yaml


def terms(result):
    return [(t.count, t.cycles_each) for t in result.terms]


def test_2023_without_tensor_cores_is_504():
    result = worked_example("2023", tensor_cores=False)
    assert result.total == 504
    assert terms(result) == [(1, 200), (8, 34), (8, 4)]  # 200 + 8×34 + 8×4


def test_2023_with_tensor_cores_is_235():
    result = worked_example("2023", tensor_cores=True)
    assert result.total == 235
    assert terms(result) == [(1, 200), (1, 34), (1, 1)]


def test_2023_with_tma_is_200():
    result = worked_example("2023", tensor_cores=True, tma=True)
    assert result.total == 200
    assert terms(result) == [(1, 165), (1, 34), (1, 1)]  # 200 − 34 − 1 = 165 exposed
    assert any("only Hopper and Blackwell" in english(n) for n in result.notes)


def test_2020_edition_is_392_and_221():
    assert terms(worked_example("2020", False)) == [(1, 200), (8, 20), (8, 4)]
    assert worked_example("2020", False).total == 392
    assert worked_example("2020", True).total == 221


def test_2020_has_no_tma_example():
    with pytest.raises(ValueError, match="no TMA example"):
        worked_example("2020", True, tma=True)


def test_tensor_core_speedup():
    assert tensor_core_speedup("2023") == pytest.approx(504 / 235)


def test_general_model_scales_with_size_and_parallelism():
    table = worked_example("2023", True).latencies
    bigger = tile_cycles(table, size=64, tensor_cores=False)
    assert bigger.total > 504
    assert tile_cycles(table, size=32, sms=16, tensor_cores=False).total < 504
    assert bigger.share("ffma") + bigger.share("shared") + bigger.share("load") == pytest.approx(1.0)
    assert [english(t.label) for t in bigger.terms] == ["L2 → shared load", "shared memory access", "FFMA"]


def test_general_model_rejects_nonsense():
    with pytest.raises(ValueError):
        tile_cycles(worked_example("2023", True).latencies, sms=0)


def model_keys() -> set[str]:
    """The keys of the models' own message catalog."""
    return set(read_yaml(data_dir() / "locales" / "messages" / "models.yaml"))


def _english_run(text: str) -> bool:
    """Three ordinary English words in a row (names in capitals and figures do not count)."""
    run = 0
    for token in text.split():
        run = run + 1 if token.isalpha() and token.isascii() and not token.isupper() else 0
        if run >= 3:
            return True
    return False


def test_cycle_terms_and_notes_read_in_every_language():
    table_2020 = worked_example("2020", True).latencies
    results = [worked_example("2023", tc, tma) for tc, tma in ((False, False), (True, False), (True, True))]
    results += [tile_cycles(table_2020, tensor_cores=tc, tma=True) for tc in (True, False)]
    said = {m for r in results for m in (*r.notes, *(t.label for t in r.terms))}
    nested = {k for m in said for k in m.all_keys()}  # all_keys() adds the keys of nested messages
    assert nested == {k for k in model_keys() if k.startswith("cycles.")}
    for message in said:
        for lang in ("zh-Hant", "zh-Hans"):
            text = render(message, lang)
            assert "cycles." not in text and not _english_run(text), (message.key, lang, text)
