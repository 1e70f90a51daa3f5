"""'Should I wait?': the guide's verdict with today's facts (engine/waiting.py).

Worked figures come from the data files, written out here, not recomputed by the code under test:
RTX 3090 used prices — GPU Poet's January 2026 report $599 (data/prices/2026-01.yaml) and its
October 2026 report's September best deal $1,207 (2026-09.yaml): (1207 − 599) / 599 = +101.5 %.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from engine.advisor import AdviceContext, advise
from engine.cost import price_history
from engine.query import Query
from engine.waiting import newest_generation, wait_messages


def test_the_newest_generation_on_sale_is_blackwell_up_to_the_5090() -> None:
    newest = newest_generation()
    assert (newest.architecture, newest.year, newest.example_gpu_id) == ("Blackwell", 2025, "rtx-5090")


def test_a_price_trend_compares_one_basis_over_a_year() -> None:
    history = price_history("rtx-3090", condition="used", within_days=365)
    assert (history[0].date, history[0].usd) == (dt.date(2026, 1, 31), Decimal(599))
    assert (history[-1].date, history[-1].usd) == (dt.date(2026, 9, 30), Decimal(1207))
    assert {q.basis for q in history} == {"used"}
    assert [q.date for q in history] == sorted(q.date for q in history)


def test_a_card_without_fp8_is_told_so_and_its_price_trend_shown() -> None:
    headline, notes = wait_messages(("rtx-3090",), condition="used")
    assert headline.key == "advice.wait.headline.no_fp8"
    keys = [n.key for n in notes]
    assert keys == ["advice.wait.newest", "advice.wait.card.older", "advice.wait.fp8.no", "advice.wait.trend"]
    trend = notes[-1]
    assert (trend["then_usd"], trend["now_usd"]) == (599, 1207)
    assert abs(trend["change"] - 1.015) < 0.001


def test_an_fp8_card_of_the_newest_generation_needs_no_wait() -> None:
    headline, notes = wait_messages(("rtx-5090",))
    assert headline.key == "advice.wait.headline.buy"
    assert "advice.wait.card.newest" in [n.key for n in notes]
    assert "advice.wait.fp8.yes" in [n.key for n in notes]


def test_without_a_card_the_guide_rule_leads() -> None:
    headline, notes = wait_messages(())
    assert headline.key == "advice.wait.headline.general"
    assert [n.key for n in notes] == ["advice.wait.newest"]


def test_the_explain_answer_carries_the_verdict_and_the_guide_text() -> None:
    answer = advise(Query(kind="explain", topic="next_generation", gpus=("rtx-4090",)), AdviceContext())
    assert answer.headline.key == "advice.wait.headline.buy"
    assert answer.explanation is not None and answer.explanation.topic == "next_generation"
    assert answer.rules[0].source.startswith("Guide 2023")
