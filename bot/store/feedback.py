"""👍/👎 on answers: one vote per user per answer (changing it updates it), and a report for maintainers.

Each vote keeps the question that produced the answer (the Query as JSON) and the answer's
headline, so ``gpu-advisor feedback-report`` can show which kinds of question go wrong and the
answers people disliked most, without the bot having to keep its messages.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import case, delete, func, select

from bot.store.db import Database, as_utc, utcnow
from bot.store.errors import InvalidValue, given
from bot.store.models import feedback
from engine.errors import UserError
from engine.query import Query, user_error

HEADLINE_MAX = 500
QUERY_MAX = 20_000


class Vote(BaseModel):
    model_config = ConfigDict(frozen=True)

    answer_id: int
    user_id: int
    vote: int
    guild_id: int | None
    channel_id: int | None
    kind: str
    task: str | None
    query_json: str
    headline: str
    created_at: dt.datetime
    updated_at: dt.datetime


class FeedbackRow(BaseModel):
    """Votes on answers to one kind of question (and task)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    task: str | None
    up: int
    down: int
    answers: int = Field(description="distinct answers voted on")

    @property
    def score(self) -> int:
        return self.up - self.down


class FeedbackAnswer(BaseModel):
    model_config = ConfigDict(frozen=True)

    answer_id: int
    guild_id: int | None
    kind: str
    task: str | None
    headline: str
    query_json: str
    up: int
    down: int
    last_vote_at: dt.datetime


class FeedbackReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    since: dt.datetime | None
    guild_id: int | None
    up: int
    down: int
    rows: tuple[FeedbackRow, ...]
    most_down_voted: tuple[FeedbackAnswer, ...]


class FeedbackRepository:
    def __init__(self, db: Database, clock: Callable[[], dt.datetime] = utcnow) -> None:
        self.db = db
        self.clock = clock

    async def vote(
        self,
        answer_id: int,
        user_id: int,
        vote: int,
        query: Query | str,
        headline: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Vote | None:
        """Record (or change) a user's vote: +1 or −1; 0 takes it back (returns None)."""
        if vote == 0:
            await self.clear(answer_id, user_id)
            return None
        if vote not in (1, -1) or isinstance(vote, bool):
            raise InvalidValue("store.error.vote", given=given(vote))
        parsed = query if isinstance(query, Query) else _query(query)
        query_json = parsed.model_dump_json(exclude_unset=True)
        now = as_utc(self.clock())
        values = {
            "answer_id": answer_id,
            "user_id": user_id,
            "vote": vote,
            "guild_id": guild_id,
            "channel_id": channel_id,
            "kind": parsed.kind,
            "task": parsed.task,
            "query_json": query_json,
            "headline": _text(headline)[:HEADLINE_MAX],
            "created_at": now,
            "updated_at": now,
        }
        changed = tuple(k for k in values if k not in ("answer_id", "user_id", "created_at"))
        upsert = self.db.upsert(feedback, ("answer_id", "user_id"), changed, returning=True)
        async with self.db.write() as conn:
            result = await conn.execute(upsert, values)
            return Vote(**result.one()._mapping)

    async def clear(self, answer_id: int, user_id: int) -> bool:
        async with self.db.write() as conn:
            result = await conn.execute(
                delete(feedback).where(feedback.c.answer_id == answer_id, feedback.c.user_id == user_id)
            )
        return result.rowcount > 0

    async def votes(self, answer_id: int) -> list[Vote]:
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(feedback).where(feedback.c.answer_id == answer_id).order_by(feedback.c.user_id)
            )
            return [Vote(**row._mapping) for row in rows]

    async def report(
        self, *, since: dt.datetime | None = None, guild_id: int | None = None, worst: int = 10
    ) -> FeedbackReport:
        """Up/down counts per (kind, task), most voted first, and the ``worst`` most down-voted answers."""
        up = func.sum(case((feedback.c.vote > 0, 1), else_=0))
        down = func.sum(case((feedback.c.vote < 0, 1), else_=0))
        filters = []
        if since is not None:
            filters.append(feedback.c.updated_at >= as_utc(since))
        if guild_id is not None:
            filters.append(feedback.c.guild_id == guild_id)
        by_kind = (
            select(
                feedback.c.kind,
                feedback.c.task,
                up.label("up"),
                down.label("down"),
                func.count(func.distinct(feedback.c.answer_id)).label("answers"),
            )
            .where(*filters)
            .group_by(feedback.c.kind, feedback.c.task)
        )
        per_answer = (
            select(
                feedback.c.answer_id,
                up.label("up"),
                down.label("down"),
                func.max(feedback.c.updated_at).label("last_vote_at"),
            )
            .where(*filters)
            .group_by(feedback.c.answer_id)
            .subquery()
        )
        worst_answers = (
            select(per_answer)
            .where(per_answer.c.down > 0)
            .order_by(per_answer.c.down.desc(), (per_answer.c.down - per_answer.c.up).desc(), per_answer.c.answer_id)
            .limit(max(0, worst))
        )
        async with self.db.read() as conn:
            rows = [
                FeedbackRow(kind=r.kind, task=r.task, up=int(r.up or 0), down=int(r.down or 0), answers=r.answers)
                for r in await conn.execute(by_kind)
            ]
            tallies = (await conn.execute(worst_answers)).all()
            details: dict[int, Any] = {}
            if tallies:
                ids = [t.answer_id for t in tallies]
                latest = (
                    select(feedback)
                    .where(feedback.c.answer_id.in_(ids))
                    .order_by(feedback.c.answer_id, feedback.c.updated_at.desc())
                )
                for row in await conn.execute(latest):
                    details.setdefault(row.answer_id, row)
        rows.sort(key=lambda r: (-(r.up + r.down), r.kind, r.task or ""))
        answers = tuple(
            FeedbackAnswer(
                answer_id=t.answer_id,
                guild_id=details[t.answer_id].guild_id,
                kind=details[t.answer_id].kind,
                task=details[t.answer_id].task,
                headline=details[t.answer_id].headline,
                query_json=details[t.answer_id].query_json,
                up=int(t.up),
                down=int(t.down),
                last_vote_at=as_utc(t.last_vote_at),
            )
            for t in tallies
        )
        return FeedbackReport(
            since=since,
            guild_id=guild_id,
            up=sum(r.up for r in rows),
            down=sum(r.down for r in rows),
            rows=tuple(rows),
            most_down_voted=answers,
        )


def _text(value: str) -> str:
    """Any string as storable text: no NUL (PostgreSQL refuses it), no lone surrogates."""
    return str(value).replace("\x00", "").encode("utf-8", "replace").decode("utf-8")


def _query(text: str) -> Query:
    if not isinstance(text, str) or len(text) > QUERY_MAX:
        raise InvalidValue("store.error.query.type")
    try:
        return Query.model_validate_json(text)
    except ValidationError as error:  # say which field and what is accepted, as Query itself does
        problem = user_error(error)
        if problem.key == "error.invalid" and not problem.values.get("field"):  # not JSON, or not an object
            raise InvalidValue("store.error.query.type") from None
        raise InvalidValue("store.error.query.invalid", problem=problem.message) from None
    except UserError as error:
        raise InvalidValue("store.error.query.invalid", problem=error.message) from None


def format_feedback_report(report: FeedbackReport, *, headline_width: int = 70) -> str:
    """The report as plain text, for ``gpu-advisor feedback-report``."""
    scope = f" in server {report.guild_id}" if report.guild_id is not None else ""
    since = f" since {report.since:%Y-%m-%d %H:%M} UTC" if report.since is not None else ""
    total = report.up + report.down
    lines = [f"Feedback{scope}{since}: {total} votes, {report.up} 👍 / {report.down} 👎"]
    if not report.rows:
        lines.append("No votes yet.")
        return "\n".join(lines)
    table = [("kind", "task", "answers", "up", "down", "down %")]
    for r in report.rows:
        share = f"{100 * r.down / (r.up + r.down):.0f}%" if r.up + r.down else "-"
        table.append((r.kind, r.task or "-", str(r.answers), str(r.up), str(r.down), share))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines.append("")
    for n, row in enumerate(table):
        lines.append(
            "  ".join(
                cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    if report.most_down_voted:
        lines += ["", "Most down-voted answers:"]
        for a in report.most_down_voted:
            headline = a.headline if len(a.headline) <= headline_width else a.headline[: headline_width - 1] + "…"
            lines.append(f"  {a.down} 👎 {a.up} 👍  [{a.kind}/{a.task or '-'}] answer {a.answer_id}: {headline}")
            lines.append(f"      query: {json.dumps(json.loads(a.query_json), ensure_ascii=False, sort_keys=True)}")
    return "\n".join(lines)
