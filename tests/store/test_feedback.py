"""Feedback: one vote per user per answer (changes update it), a report per kind/task, and its text."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from bot.store import InvalidValue, format_feedback_report
from engine.money import Money
from engine.query import Query

KAGGLE = Query(kind="recommend", task="kaggle", budget=Money(amount=Decimal(500), currency="USD"))
COMPARE = Query(kind="compare", gpus=("rtx-4090", "rtx-3090"))


async def test_a_changed_vote_updates_the_row(store, clock):
    first = await store.feedback.vote(1001, 7, 1, KAGGLE, "RTX 3060 12GB for Kaggle", guild_id=5, channel_id=6)
    assert (first.vote, first.kind, first.task, first.guild_id) == (1, "recommend", "kaggle", 5)
    clock.advance(minutes=3)
    changed = await store.feedback.vote(1001, 7, -1, KAGGLE, "RTX 3060 12GB for Kaggle", guild_id=5)
    assert changed.vote == -1 and changed.created_at == first.created_at and changed.updated_at == clock.now
    votes = await store.feedback.votes(1001)
    assert [(v.user_id, v.vote) for v in votes] == [(7, -1)]
    assert Query.model_validate_json(votes[0].query_json) == KAGGLE
    assert await store.feedback.vote(1001, 7, 0, KAGGLE, "x") is None  # taking the vote back
    assert await store.feedback.votes(1001) == []
    assert not await store.feedback.clear(1001, 7)


async def test_votes_accept_query_json_and_refuse_nonsense(store):
    vote = await store.feedback.vote(1, 2, 1, COMPARE.model_dump_json(), "4090 is 1.6× faster")
    assert vote.kind == "compare" and vote.task is None
    with pytest.raises(InvalidValue, match="not a valid query"):
        await store.feedback.vote(1, 2, 1, '{"kind": "DROP TABLE"}', "x")
    with pytest.raises(InvalidValue, match=r"\+1 or -1"):
        await store.feedback.vote(1, 2, 5, KAGGLE, "x")
    long = await store.feedback.vote(3, 2, -1, KAGGLE, "h\x00" * 2000)
    assert len(long.headline) == 500 and "\x00" not in long.headline


async def test_report_counts_per_kind_and_lists_the_most_down_voted(store, clock):
    # Answer 10 (Kaggle): 3 down, 1 up. Answer 11 (Kaggle): 2 up. Answer 20 (compare): 1 down, 1 up.
    for user, vote in ((1, -1), (2, -1), (3, -1), (4, 1)):
        await store.feedback.vote(10, user, vote, KAGGLE, "Kaggle answer ten", guild_id=1)
    for user in (1, 2):
        await store.feedback.vote(11, user, 1, KAGGLE, "Kaggle answer eleven", guild_id=1)
    await store.feedback.vote(20, 1, -1, COMPARE, "Compare answer", guild_id=2)
    await store.feedback.vote(20, 2, 1, COMPARE, "Compare answer", guild_id=2)
    report = await store.feedback.report()
    assert (report.up, report.down) == (4, 4)
    rows = {(r.kind, r.task): (r.up, r.down, r.answers) for r in report.rows}
    assert rows == {("recommend", "kaggle"): (3, 3, 2), ("compare", None): (1, 1, 1)}
    assert [(a.answer_id, a.down, a.up) for a in report.most_down_voted] == [(10, 3, 1), (20, 1, 1)]
    worst = report.most_down_voted[0]
    assert worst.headline == "Kaggle answer ten" and Query.model_validate_json(worst.query_json) == KAGGLE
    assert [a.answer_id for a in (await store.feedback.report(worst=1)).most_down_voted] == [10]
    assert (await store.feedback.report(guild_id=2)).down == 1
    clock.advance(days=1)
    await store.feedback.vote(11, 3, -1, KAGGLE, "Kaggle answer eleven", guild_id=1)
    recent = await store.feedback.report(since=clock.now - dt.timedelta(hours=1))
    assert (recent.up, recent.down) == (0, 1) and recent.most_down_voted[0].answer_id == 11

    text = format_feedback_report(report)
    assert text.splitlines()[0] == "Feedback: 8 votes, 4 👍 / 4 👎"
    assert "recommend  kaggle" in text and "Most down-voted answers:" in text
    assert "answer 10: Kaggle answer ten" in text and '"task": "kaggle"' in text


async def test_empty_report(store):
    report = await store.feedback.report()
    assert report.rows == () and report.most_down_voted == ()
    assert format_feedback_report(report).endswith("No votes yet.")
