"""The e2e benchmark's default workload is real traffic: distinct corpus questions from distinct users."""

from __future__ import annotations

import re

import pytest

from bench.e2e_bench import (
    CORPUS_KINDS,
    DEFAULT_N,
    DEFAULT_ROUNDS,
    SHARES,
    Traffic,
    corpus_questions,
    split_by_shares,
)

CJK = re.compile(r"[\u4e00-\u9fff]")


def default_run() -> tuple[Traffic, list]:
    """The events of a default run: every round of both phases (each bot gets the same ones)."""
    traffic = Traffic()
    return traffic, [e for _ in range(2 * DEFAULT_ROUNDS) for e in traffic.plan(DEFAULT_N, 100)]


def test_default_workload_asks_distinct_corpus_questions_from_distinct_users():
    traffic, events = default_run()
    asked = [e.text for e in events if e.kind in CORPUS_KINDS]
    corpus = set(corpus_questions())
    assert len(asked) == traffic.asked > 500
    assert len(set(asked)) == len(asked)  # no question twice in a run
    assert set(asked) <= corpus  # every one from the corpus, as written
    users = [e.user for e in events if e.kind != "click"]
    assert len(set(users)) == len(users) == traffic.users  # a new user for every question and command
    assert len({e.channel for e in events}) > 50  # spread over many channels
    assert any(CJK.search(q) for q in asked) and any(not CJK.search(q) for q in asked)  # English and Chinese
    assert {e.locale for e in events if e.options} == {"en-US", "zh-CN"}


def test_every_segment_has_the_mix_of_real_traffic():
    traffic = Traffic()
    for _ in range(3):
        events = traffic.plan(DEFAULT_N, 100)
        counts = {kind: sum(e.kind == kind for e in events) for kind in SHARES}
        assert counts == split_by_shares(DEFAULT_N, SHARES)
        assert all(counts[k] for k in ("chat", "ask", "recommend", "compare", "canrun", "click"))
    budgets = [e.options["budget"] for e in Traffic().plan(400, 100) if e.kind == "recommend"]
    assert len(set(budgets)) == len(budgets)  # /recommend's options are new every time too


def test_the_corpus_is_never_asked_twice():
    traffic = Traffic()
    with pytest.raises(ValueError, match="none may repeat"):
        for _ in range(100):
            traffic.plan(DEFAULT_N, 100)
    longer = Traffic(templated=True)  # startup_bench --users: templated questions with budgets of their own follow
    corpus = len(corpus_questions())
    asked: list[str] = []
    while len(asked) <= corpus + DEFAULT_N:  # past the corpus, whatever its size
        asked += [e.text for e in longer.plan(DEFAULT_N, 100) if e.text]
    assert len(set(asked)) == len(asked)
