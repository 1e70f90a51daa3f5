"""The real bot under the local Discord double, against a minimal echo bot in the same run.

The default workload is real traffic (issue #24): questions from the real-question corpus
(data/corpus/questions.jsonl, texts only, all splits, none asked twice in a run), each from a new
user in one of 100 channels across 20 servers, as chat mentions and ``/ask``; ``/recommend``,
``/compare``, ``/canrun``, ``/info`` and ``/power`` with options drawn anew every time; and clicks
on the buttons of the bot's own earlier answers (their custom_ids; chart buttons left out — charts
have their own bench) by whoever asked — in the shares of ``SHARES``, English and Chinese.
``--repeated`` adds the earlier workload as a secondary line: 14 questions over and over from one
user in one channel, which the bot's memory of answers mostly serves.
``--forgetful`` adds a bot with remembering turned off; ``--rich-echo`` adds the echo bot replying
with a real GPU Advisor answer (embed and six buttons), which splits GPU Advisor's ratio into what
its reply costs discord.py and what its own work costs.

Each bot runs in its own process with its own double; the doubles and the load generator run
here, all on 127.0.0.1. All bots stay up for the whole run and are measured in turns: a segment is
one round's events sent to one bot while the others idle (every bot gets the same events: the
echo bots a mention, ``/ping`` or a click in place of each), first at a fixed rate, then as fast as
they can be sent; segments go round the bots in a fixed order, so the drift of a shared machine
over the run falls on all of them alike and each idles as long between its segments. Printed per
bot and phase: answers per second, p50/p99 from event sent to the first reply a user sees, CPU
time of the bot process per answer (all its threads, from /proc's nanosecond schedstat, counting
what it does until it is idle again), the most CPU the VM's host stole during a segment — and
GPU Advisor's ratios to the echo bot, the median over the pairs of segments of the same round,
with the interval that median could move in by chance.
Targets (issues #10, #24): p99 < 25 ms at 100 events/s; CPU per answer ≤ 1.5× the echo bot's.

``--variant NAME:KEY=VALUE,...`` adds GPU Advisor with those environment variables (what a switch
such as ``GPU_ADVISOR_INTERNALS_OFF=skip_own`` costs or buys), ``--tree NAME:DIR`` GPU Advisor from
another checkout (before/after in the same rounds); each is also printed as a ratio to gpu-advisor.

Each GPU Advisor starts against a new SQLite database already at the newest schema, as deployed
(deploy/compose.yaml runs ``gpu-advisor migrate`` before the shards), so alembic, which only a
migration loads (≈10 MB of RSS), is not in the measured process; before 2026-12-06 10:30 UTC each
started against an empty one and migrated it itself.

Run: .venv/bin/python bench/e2e_bench.py [--n 70] [--rate 100] [--rounds 8] [--repeated]
         [--forgetful] [--rich-echo] [--variant NAME:KEY=VALUE] [--tree NAME:DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import save  # noqa: E402
from bot.chat import BATCH_SECONDS  # noqa: E402
from tests.e2e.bot_process import bot_env  # noqa: E402
from tests.e2e.discord_double import DiscordDouble, FakeGuild, FakeUser  # noqa: E402

CORPUS = ROOT / "data" / "corpus" / "questions.jsonl"
GUILDS, CHANNELS_PER_GUILD = 20, 5
# Shares of the events in real traffic (a judgement, not a measurement of a live server): most people
# ask in chat or with /ask, a third use the structured commands, and some press a button under an answer.
SHARES = {
    "chat": 0.40,
    "ask": 0.15,
    "recommend": 0.12,
    "compare": 0.08,
    "canrun": 0.08,
    "info": 0.02,
    "power": 0.02,
    "click": 0.13,
}
CORPUS_KINDS = ("chat", "ask")
DEFAULT_N, DEFAULT_ROUNDS = 70, 8  # 8 rounds × 2 phases × 70 events ask ≈624 of the corpus's 1,138 questions
ZH_LOCALE_SHARE = 0.35  # slash commands from Chinese-language clients (the corpus is ≈40 % Chinese)
TASKS = ("kaggle", "learning", "llm_inference", "llm_finetune", "image_generation", "computer_vision", "nlp", "rl")
MODES = ("inference", "qlora", "lora", "full_finetune")


def corpus_questions() -> list[str]:
    """The corpus's question texts, each once (texts only: the labels are never read)."""
    texts = [json.loads(line)["text"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return list(dict.fromkeys(t.strip() for t in texts if t.strip()))


@dataclass(frozen=True)
class Event:
    """One thing a user does: ``kind`` is a key of ``SHARES``; ``user`` a number, new for every event but
    clicks (a click is by whoever asked the answer it is under); ``channel`` an index into the run's
    channels."""

    kind: str
    user: int
    channel: int
    text: str | None = None  # chat and /ask: a corpus question
    options: dict[str, Any] | None = None  # slash commands
    locale: str = "en-US"


def split_by_shares(n: int, shares: dict[str, float]) -> dict[str, int]:
    """n events split in the given shares (largest remainder), so every segment has the same mix."""
    exact = {k: n * s / sum(shares.values()) for k, s in shares.items()}
    counts = {k: int(v) for k, v in exact.items()}
    for k in sorted(exact, key=lambda k: exact[k] - counts[k], reverse=True)[: n - sum(counts.values())]:
        counts[k] += 1
    return counts


class Traffic:
    """Real traffic, planned ahead and the same for every bot: corpus questions in a shuffled order,
    none twice (``ValueError`` when the corpus runs out, unless ``templated`` lets templated
    questions with a budget of their own follow), a new user for every event but
    clicks, channels at random, options of slash commands drawn anew."""

    def __init__(self, seed: int = 0, *, templated: bool = False) -> None:
        from engine.catalog import load_catalog
        from engine.model_specs import load_model_catalog

        self.rng = random.Random(seed)
        self.questions = corpus_questions()
        self.rng.shuffle(self.questions)
        self.asked = 0
        self.templated = templated
        self.users = 0
        self.gpus = sorted(load_catalog().gpus)
        models = load_model_catalog()
        self.models = [models.get(i).name for i in models.ids()]
        self.budgets = 0

    def question(self) -> str:
        if self.asked < len(self.questions):
            self.asked += 1
            return self.questions[self.asked - 1]
        if not self.templated:
            raise ValueError(
                f"the corpus has {len(self.questions)} questions and none may repeat in a run: "
                "fewer events per segment (--n) or fewer rounds"
            )
        self.asked += 1
        return BUDGET_TEMPLATES[self.asked % len(BUDGET_TEMPLATES)].format(b=150 + self.asked)

    def new_user(self) -> int:
        self.users += 1
        return self.users

    def options(self, kind: str) -> dict[str, Any]:
        rng, gpu = self.rng, lambda: self.rng.choice(self.gpus)
        if kind == "recommend":
            self.budgets += 1  # a budget of its own every time: whole dollars from $150, cents counting up
            opts: dict[str, Any] = {"task": rng.choice(TASKS), "budget": rng.randrange(150, 6000) + self.budgets / 100}
            if rng.random() < 0.25:
                opts["memory"] = rng.choice((8, 12, 16, 24, 48))
            if rng.random() < 0.2:
                opts["condition"] = rng.choice(("new", "used"))
            if rng.random() < 0.1:
                opts["count"] = rng.choice((2, 4))
            return opts
        if kind == "compare":
            a, b = rng.sample(self.gpus, 2)
            return {"gpu_a": a, "gpu_b": b, **({"count_b": 2} if rng.random() < 0.15 else {})}
        if kind == "canrun":
            opts = {"model": rng.choice(self.models)}
            if rng.random() < 0.7:
                opts["gpu"] = gpu()
            if rng.random() < 0.3:
                opts["mode"] = rng.choice(MODES)
            return opts
        if kind == "info":
            return {"gpu": gpu()}
        if kind == "power":
            return {"gpu": gpu(), "count": rng.choice((1, 2, 4))}
        return {}

    def plan(self, n: int, channels: int) -> list[Event]:
        """n events in the shares of ``SHARES``, shuffled."""
        kinds = [k for k, c in split_by_shares(n, SHARES).items() for _ in range(c)]
        self.rng.shuffle(kinds)
        events = []
        for kind in kinds:
            channel = self.rng.randrange(channels)
            if kind == "click":
                events.append(Event(kind, 0, channel))  # user and target chosen when sent, from answers seen
            elif kind in CORPUS_KINDS:
                events.append(Event(kind, self.new_user(), channel, text=self.question()))
            else:
                locale = "zh-CN" if self.rng.random() < ZH_LOCALE_SHARE else "en-US"
                events.append(Event(kind, self.new_user(), channel, options=self.options(kind), locale=locale))
        return events


# The earlier workload (--repeated): 14 questions over and over from one user in one channel.
CHAT_TEMPLATES = [
    "which GPU for Kaggle under ${b}?",
    "{c}x 3090 or 4090 for llama finetuning?",
    "PSU for {c}x 3090?",
    "can a 3060 12GB run llama 3 {m}b?",
    "每天大概用 {h} 小時，租雲端 GPU 還是自己買比較划算？",
    "best used card for stable diffusion under {b} bucks",
    "预算 {b}0 块，想本地跑大模型，买什么显卡？",
]


def chat_question(i: int) -> str:
    """The i-th chat question: three in seven carry a budget of their own, the rest repeat now and then,
    as questions in a server do (GPU Advisor remembers answers; --forgetful shows the cost without)."""
    return CHAT_TEMPLATES[i % len(CHAT_TEMPLATES)].format(b=300 + 7 * i, c=2 + i % 3, m=(8, 70)[i % 2], h=1 + i % 12)


# Questions with a budget of their own (distinct answers) for runs longer than the corpus (Traffic(templated=True)).
BUDGET_TEMPLATES = [t for t in CHAT_TEMPLATES if "{b}" in t]
SLASH = [
    ("recommend", {"task": "kaggle", "budget": 500.0}),
    ("compare", {"gpu_a": "rtx-4090", "gpu_b": "rtx-3090"}),
    ("power", {"gpu": "rtx-3090", "count": 4}),
    ("info", {"gpu": "rtx-3090"}),
    ("canrun", {"model": "Llama 3 8B", "gpu": "rtx-3060-12gb"}),
    ("ask", {"question": "4090 vs 2x 3090?"}),
]
TICKS = os.sysconf("SC_CLK_TCK")
REPLY_WAIT_SECONDS = 20  # after the last event: an answer later than this counts as missing
DEFERRED = (5, 6)  # callback types that only acknowledge ("thinking…"); the user sees the answer later


def cpu_seconds(pid: int) -> float:
    """CPU time of every live thread of the process, to the nanosecond (/proc/<pid>/task/*/schedstat);
    /proc/<pid>/stat counts in 10-ms ticks, too coarse for a segment of a few dozen answers."""
    total = 0
    with contextlib.suppress(FileNotFoundError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def steal_seconds() -> float:
    """CPU time the hypervisor gave to other guests, all of this VM's CPUs together (/proc/stat).
    On a shared VM this is what stalls every process at once and shows up as latency spikes."""
    return int(Path("/proc/stat").read_text().split(maxsplit=9)[8]) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def start_bot(
    double: DiscordDouble, argv: list[str], extra_env: dict | None = None, cwd: Path | None = None
) -> subprocess.Popen:
    env = bot_env(double, SYNC_COMMANDS="true", LOG_LEVEL="WARNING", LOG_JSON="false", **(extra_env or {}))
    # The bot's stderr goes to a file, not a pipe: nobody reads it during the run, and a full pipe would block it.
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            argv, cwd=cwd or ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, text=True
        )
        try:
            await double.wait_ready(0, timeout=30)
        except Exception:
            proc.kill()
            log.seek(0)
            raise RuntimeError(f"{' '.join(argv)} did not connect:\n{log.read()[-3000:]}") from None
    for _ in range(300):  # the client settles (on_ready) a moment after the double sent READY
        if double.find_command("ping" if "echo" in " ".join(argv) else "recommend") is not None:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    return proc


async def settle(pid: int, quiet: float = 0.02, window: float = 0.5, limit: float = 30.0) -> None:
    """Wait until the process uses less than ``quiet`` CPU seconds per ``window``."""
    deadline = time.monotonic() + limit
    before = cpu_seconds(pid)
    while time.monotonic() < deadline:
        await asyncio.sleep(window)
        now = cpu_seconds(pid)
        if now - before < quiet:
            return
        before = now


@dataclass
class Running:
    """One bot process and its own double, kept up for the whole run."""

    double: DiscordDouble
    proc: subprocess.Popen
    echo: bool  # an echo bot: /ping for every command, a click on its reply for every click
    channels: list[tuple[int, int]]  # (guild id, channel id)
    asked: int = 0  # repeated workload: chat questions asked so far (each segment goes on from there)
    clickable: list[tuple[int, str, FakeUser]] = field(default_factory=list)  # (message, custom_id, asker)
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    clicks_skipped: int = 0
    pressed: str = ""  # the kind of button the last click pressed ("cmp", "vote", …): latency by button


def first_seen(handle: Any) -> float | None:
    """When the user first saw an answer to an interaction: its callback, or after a bare
    acknowledgement ("thinking…"), the follow-up or edit that carries the answer."""
    for sent in handle.responses:
        if sent.kind == "callback" and sent.callback_type in DEFERRED:
            continue
        return sent.at
    return None


def enabled_buttons(message: dict | None) -> set[str]:
    """The custom_ids a user can press on this message as it is now."""
    out, stack = set(), list((message or {}).get("components") or [])
    while stack:
        component = stack.pop()
        stack += component.get("components") or []
        if component.get("custom_id") and not component.get("disabled"):
            out.add(component["custom_id"])
    return out


async def echo_click(double: DiscordDouble, message_id: int, user: FakeUser) -> Any:
    """A click on the echo bot's reply: the same component interaction a button sends (the echo reply
    has no button; the double is asked directly, as Discord would deliver the click)."""
    msg = double.messages[message_id]
    channel_id = int(msg["channel_id"])
    payload = double._interaction_base(
        3, user=user, channel_id=channel_id, guild_id=int(msg["guild_id"]), permissions=None, locale="en-US"
    )
    payload["data"] = {"custom_id": "echo", "component_type": 2}
    payload["message"] = msg
    return await double._dispatch_interaction(payload, source_message_id=message_id)


async def send_event(run: Running, event: Event, askers: dict) -> tuple[str, Any]:
    """Send one event to this bot: ("chat", message id) or ("interaction", handle)."""
    double = run.double
    if event.kind == "click":
        while True:  # an answer may have been edited since (a vote takes its vote buttons away)
            if not run.clickable:
                run.clicks_skipped += 1  # nothing to press yet: the event is left out
                return "none", None
            message_id, custom_id, user = run.clickable.pop(run.rng.randrange(len(run.clickable)))
            if run.echo or custom_id in enabled_buttons(double.messages.get(message_id)):
                break
        run.pressed = custom_id.split(":")[1] if custom_id.startswith("ga:") else custom_id
        if run.echo:
            handle = await echo_click(double, message_id, user)
        else:
            handle = await double.press_button(message_id, custom_id, user=user)
        askers[("interaction", handle.id)] = user
        return "interaction", handle
    guild_id, channel_id = run.channels[event.channel]
    user = double.add_user(f"user{event.user}", guild_id=guild_id)
    if event.kind == "chat":
        mention = f"<@{double.bot_user.id}> "
        msg = await double.send_message(
            channel_id, mention + event.text, author=user, mentions=[double.bot_user.id], guild_id=guild_id
        )
        askers[("chat", str(msg["id"]))] = user
        return "chat", str(msg["id"])
    if run.echo:
        name, options = "ping", {"text": (event.text or "x")[:100]}
    elif event.kind == "ask":
        name, options = "ask", {"question": event.text}
    else:
        name, options = event.kind, event.options
    locale = event.locale
    if event.kind == "ask" and any("\u4e00" <= ch <= "\u9fff" for ch in event.text or ""):
        locale = "zh-CN"
    handle = await double.send_slash(name, options, user=user, guild_id=guild_id, channel_id=channel_id, locale=locale)
    askers[("interaction", handle.id)] = user
    return "interaction", handle


def repeated_events(run: Running, n: int) -> list[tuple[str, Any]]:
    """The --repeated workload as (kind, payload): n chat questions and n slash commands, interleaved."""
    out = []
    for i in range(n):
        out.append(("chat_text", chat_question(run.asked + i)))
        out.append(("slash", ("ping", {"text": "x"}) if run.echo else SLASH[i % len(SLASH)]))
    run.asked += n
    return out


async def run_phase(run: Running, events: list[Event] | None, n: int, rate: float | None) -> dict:
    """Send the events (or, with ``events=None``, n repeated questions and n slash commands) at
    ``rate`` per second or as fast as possible; latency from send to the first reply a user sees."""
    double = run.double
    sent_at: dict[str, float] = {}
    handles = []
    askers: dict = {}
    labels: dict = {}  # what each event was (chat, ask, recommend, click…), for latency by kind
    plan: list = events if events is not None else repeated_events(run, n)
    start = time.monotonic()
    for i, event in enumerate(plan):
        if rate:
            await asyncio.sleep(max(0.0, start + i / rate - time.monotonic()))
        if isinstance(event, Event):
            kind, what = await send_event(run, event, askers)
        elif event[0] == "chat_text":
            msg = await double.send_message(
                double.channel.id, f"<@{double.bot_user.id}> " + event[1], mentions=[double.bot_user.id]
            )
            kind, what = "chat", str(msg["id"])
            askers[("chat", what)] = double.default_user
        else:
            kind, what = "interaction", await double.send_slash(*event[1])
            askers[("interaction", what.id)] = double.default_user
        label = event.kind if isinstance(event, Event) else event[0].removesuffix("_text")
        if label == "click":
            label = f"click:{run.pressed}"  # which button: a vote writes to the database, a compare answers anew
        if kind == "chat":
            sent_at[what] = time.monotonic()
            labels[what] = label
        elif kind == "interaction":
            handles.append((what, time.monotonic()))
            labels[what.id] = label
    deadline = time.monotonic() + REPLY_WAIT_SECONDS
    while True:
        replies = {
            str(s.payload.get("message_reference", {}).get("message_id")): s
            for s in double.sent
            if s.kind == "create" and s.payload.get("message_reference")
        }
        done_chat = [(replies[m].at - t, labels[m]) for m, t in sent_at.items() if m in replies]
        done_slash = [(seen - t, labels[h.id]) for h, t in handles if (seen := first_seen(h)) is not None]
        if (len(done_chat) == len(sent_at) and len(done_slash) == len(handles)) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.01)
    latencies = [x for x, _ in done_chat + done_slash]
    by_kind: dict[str, list[float]] = {}
    for x, label in done_chat + done_slash:
        by_kind.setdefault(label, []).append(x)
    elapsed = max(time.monotonic() - start, 1e-9)
    harvest(run, replies, handles, askers)
    missing = [f"chat {m}" for m in sent_at if m not in replies]
    missing += [
        f"/{h.payload['data'].get('name', h.payload['data'].get('custom_id'))}"
        for h, _ in handles
        if first_seen(h) is None
    ]
    late = late_answers(run, [h for h, _ in handles if first_seen(h) is None], askers)
    if missing:
        print(
            f"unanswered after {REPLY_WAIT_SECONDS} s: {', '.join(missing[:10])}"
            + (f" ({late} of {len(missing)} answered late, in the channel)" if late else ""),
            file=sys.stderr,
            flush=True,
        )
    return {
        "answered": len(latencies),
        "late": late,
        "expected": len(sent_at) + len(handles),
        "per_second": len(latencies) / elapsed,
        "latencies": latencies,
        "latencies_by_kind": by_kind,
    }


def late_answers(run: Running, unanswered: list, askers: dict) -> int:
    """How many of the ``unanswered`` interactions were answered late: Discord (the double) expired
    the interaction before its reply, and the bot posted the answer to the channel instead, naming
    the asker (bot.interactions._post_late). Counted apart, not as answers: the latency is unknown."""
    if not unanswered:
        return 0
    posted = [
        str(s.payload.get("content") or "")
        for s in run.double.sent
        if s.kind == "create" and not s.payload.get("message_reference")
    ]
    late = 0
    for handle in unanswered:
        user = askers.get(("interaction", handle.id))
        mention = f"<@{user.id}>" if user is not None else None
        if mention and any(mention in text for text in posted):
            late += 1
    return late


def harvest(run: Running, replies: dict, handles: list, askers: dict, keep: int = 3000) -> None:
    """The answers' buttons become what later clicks press (by whoever asked; chart buttons left out)."""
    found = [(askers.get(("chat", m)), s) for m, s in replies.items()]
    found += [(askers.get(("interaction", h.id)), s) for h, _ in handles for s in h.responses]
    for user, sent in found:
        if user is None or sent.message_id is None or sent.message_id not in run.double.messages:
            continue
        if run.echo:
            run.clickable.append((sent.message_id, "echo", user))
        else:
            ids = [c for c in sent.custom_ids if not c.startswith("ga:chart:")]
            run.clickable += [(sent.message_id, c, user) for c in ids]
    del run.clickable[:-keep]


def warm_up_events(traffic: Traffic, n: int = 10) -> list[Event]:
    """/recommend from new users (no corpus question): answers whose buttons the first clicks press."""
    return [Event("recommend", traffic.new_user(), i, options=traffic.options("recommend")) for i in range(n)]


def bench_guilds() -> list[FakeGuild]:
    return [
        FakeGuild(name=f"Bench {g}", channels=[f"channel-{c}" for c in range(CHANNELS_PER_GUILD)])
        for g in range(GUILDS)
    ]


def migrated_data_dir(cwd: Path, env: dict | None = None) -> str:
    """A new data directory whose SQLite database ``gpu-advisor migrate`` (run from the checkout in
    ``cwd``: ``-c`` puts it first on the path) brought to the newest schema, as deploy/compose.yaml's
    migrate step does before the shards start: a shard then reads its revision and imports no alembic."""
    data_dir = tempfile.mkdtemp(prefix="gpu-advisor-bench-")
    subprocess.run(
        [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main(['migrate']))"],
        cwd=cwd,
        env={**os.environ, **(env or {}), "DATA_DIR": data_dir, "DATABASE_URL": ""},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return data_dir


async def start(
    stack: contextlib.AsyncExitStack,
    argv: list[str],
    echo: bool,
    env: dict | None,
    cwd: Path | None = None,
    migrated: bool = True,
) -> Running:
    """One bot with its own double and a database of its own, new every run: migrated beforehand, as
    deployed, unless ``migrated`` is False (then the bot migrates it, as at its first start ever); the
    echo bot has none."""
    double = await stack.enter_async_context(DiscordDouble(guilds=bench_guilds(), interaction_timeout=None))
    fresh = echo or not migrated
    data_dir = tempfile.mkdtemp(prefix="gpu-advisor-bench-") if fresh else migrated_data_dir(cwd or ROOT, env)
    stack.callback(shutil.rmtree, data_dir, True)
    proc = await start_bot(double, argv, {"DATA_DIR": data_dir, **(env or {})}, cwd)
    stack.callback(stop, proc)
    channels = [(g.id, c.id) for g in double.guilds.values() for c in g.channels if c.type == 0]
    return Running(double, proc, echo, channels)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=15)


async def segment(run: Running, events: list[Event] | None, n: int, rate: float | None) -> dict:
    """The events, then the CPU the bot used for them, including what it did after the last reply
    (the conversation store writes in batches a moment later)."""
    run.double.sent.clear()
    gc.collect()
    gc.disable()  # a collection here would stall the sender and hand the bot a burst of events
    try:
        cpu0, steal0, wall0 = cpu_seconds(run.proc.pid), steal_seconds(), time.monotonic()
        result = await run_phase(run, events, n, rate)
        result["steal_percent"] = 100 * (steal_seconds() - steal0) / (time.monotonic() - wall0) / os.cpu_count()
    finally:
        gc.enable()
    if not run.echo:  # only GPU Advisor writes conversations, in batches, a moment after the last reply
        await asyncio.sleep(BATCH_SECONDS + 0.2)
    await settle(run.proc.pid)
    result["cpu_ms_per_answer"] = 1000 * (cpu_seconds(run.proc.pid) - cpu0) / max(result["answered"], 1)
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * q) - 1)]


def pooled(segments: list[dict]) -> dict:
    """One phase's segments as one figure each: rates and CPU per answer as medians, latency
    percentiles over every answer."""
    latencies = sorted(x for s in segments for x in s["latencies"])
    by_kind: dict[str, list[float]] = {}
    for s in segments:
        for kind, xs in s["latencies_by_kind"].items():
            by_kind.setdefault(kind, []).extend(xs)
    return {
        "p50_p99_ms_by_kind": {
            k: [round(1000 * percentile(xs, 0.5), 1), round(1000 * percentile(xs, 0.99), 1)]
            for k, xs in by_kind.items()
        },
        "answered": sum(s["answered"] for s in segments),
        "expected": sum(s["expected"] for s in segments),
        "per_second": statistics.median(s["per_second"] for s in segments),
        "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
        "p99_ms": 1000 * latencies[max(0, int(len(latencies) * 0.99) - 1)] if latencies else None,
        "cpu_ms_per_answer": statistics.median(s["cpu_ms_per_answer"] for s in segments),
        "cpu_ms_per_answer_segments": [round(s["cpu_ms_per_answer"], 3) for s in segments],
        "steal_percent_segments": [round(s["steal_percent"], 1) for s in segments],
    }


def phases(rate: float, repeated: bool) -> list[tuple[str, float | None, bool]]:
    """(name, rate or None for as fast as possible, distinct traffic?)"""
    out = [("fixed_rate", rate, True), ("max_rate", None, True)]
    if repeated:
        out += [("repeated_fixed_rate", rate, False), ("repeated_max_rate", None, False)]
    return out


async def measure(
    bots: dict[str, tuple[Any, ...]],  # (argv, echo?, environment[, working directory])
    n: int,
    rate: float,
    rounds: int,
    repeated_n: int | None = None,
    traffic: Traffic | None = None,
) -> dict[str, dict]:
    """All bots run side by side, each idle while another is measured; segments go round the bots
    in the same order every round, so the machine's drift over the run falls on every bot alike
    and every bot idles for the same time between its segments. That time matters: a discord.py
    bot idle for longer than aiohttp's 15-s keep-alive opens its REST connections anew in the next
    burst, which cost the echo bot 20 % and GPU Advisor 30 % more CPU per answer in that segment
    (issue #10's runs); an order reversed every other round gave each bot different idle times.
    Every bot gets the same events in a round (``traffic``: distinct questions, new users)."""
    traffic = traffic or Traffic()
    async with contextlib.AsyncExitStack() as stack:
        runs = {name: await start(stack, *spec) for name, spec in bots.items()}
        # A warm-up each, in turn (repeated questions and /recommend: the corpus is kept for the
        # measurement): one-time work after READY (data, caches, fonts) is not per-answer cost, and
        # its answers give the first clicks something to press. (Answers other than recommendations
        # mostly carry a chart button only, and chart buttons are left out.)
        seed = warm_up_events(traffic)
        for run in runs.values():
            await segment(run, None, 5, None)
            await segment(run, seed, len(seed), None)
        out: dict[str, dict] = {name: {"rss_mb_after_ready": rss_mb(run.proc.pid)} for name, run in runs.items()}
        for name, run in runs.items():  # what the bot spends doing nothing, counted into every segment
            cpu0 = cpu_seconds(run.proc.pid)
            await asyncio.sleep(2)
            out[name]["idle_cpu_ms_per_s"] = 1000 * (cpu_seconds(run.proc.pid) - cpu0) / 2
        for phase, phase_rate, distinct in phases(rate, repeated_n is not None):
            segments: dict[str, list[dict]] = {name: [] for name in runs}
            for _ in range(rounds):
                events = traffic.plan(n, len(next(iter(runs.values())).channels)) if distinct else None
                for name, run in runs.items():
                    segments[name].append(await segment(run, events, n if distinct else repeated_n, phase_rate))
            for name in runs:
                out[name][phase] = pooled(segments[name])
        for name, run in runs.items():
            out[name]["rss_mb_after_answers"] = rss_mb(run.proc.pid)
            out[name]["clicks_skipped"] = run.clicks_skipped
        return out


def ratio(value: float | None, baseline: float | None) -> float:
    """value / baseline, NaN when the baseline is zero or missing (a run too short for the CPU clock's
    10 ms ticks to register)."""
    return value / baseline if value is not None and baseline else math.nan


def _finite(values: list[float]) -> list[float]:
    """The pairs with a ratio (see ``ratio``: NaN where the run was too short to measure)."""
    return [v for v in values if not math.isnan(v)]


def median(values: list[float]) -> float:
    finite = _finite(values)
    return statistics.median(finite) if finite else math.nan


def median_interval(values: list[float], level: float = 0.9, draws: int = 2000) -> tuple[float, float]:
    """How far the median of these pairs could move by chance: the central ``level`` of medians over
    ``draws`` resamples of the pairs (bootstrap, fixed seed). On a shared machine one run's median
    can land anywhere in this interval, so a target is met in a run when the interval stays below it."""
    finite = _finite(values)
    if not finite:
        return math.nan, math.nan
    rng = random.Random(0)
    medians = sorted(statistics.median(rng.choices(finite, k=len(finite))) for _ in range(draws))
    cut = int(draws * (1 - level) / 2)
    return medians[cut], medians[draws - 1 - cut]


def show(name: str, result: dict, phase_names: list[str]) -> None:
    print(
        f"{name:12s} RSS {result['rss_mb_after_ready']:.0f} MB after READY, "
        f"{result['rss_mb_after_answers']:.0f} MB after answering; idle {result['idle_cpu_ms_per_s']:.1f} ms CPU/s"
    )
    for phase in phase_names:
        r = result[phase]
        spread = ", ".join(f"{x:.2f}" for x in r["cpu_ms_per_answer_segments"])
        print(
            f"{name:12s} {phase:19s} {r['answered']:5d}/{r['expected']:<5d} {r['per_second']:7.1f}/s  "
            f"p50 {r['p50_ms']:6.1f} ms  p99 {r['p99_ms']:6.1f} ms  CPU {r['cpu_ms_per_answer']:5.2f} ms/answer "
            f"(segments {spread}; host steal up to {max(r['steal_percent_segments']):.0f} %)"
        )
        kinds = sorted(r["p50_p99_ms_by_kind"].items(), key=lambda kv: -kv[1][1])
        print(f"{'':12s} {'':19s} p50/p99 ms by kind: " + ", ".join(f"{k} {a:.0f}/{b:.0f}" for k, (a, b) in kinds))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=DEFAULT_N, help="events per segment (distinct traffic)")
    parser.add_argument("--rate", type=float, default=100.0, help="events per second in the fixed-rate phases")
    parser.add_argument(
        "--rounds", type=int, default=DEFAULT_ROUNDS, help="segments per bot and phase: rounds of every bot in turn"
    )
    parser.add_argument(
        "--repeated",
        action="store_true",
        help="also measure the earlier workload: 14 questions over and over from one user (secondary line)",
    )
    parser.add_argument(
        "--repeated-n", type=int, default=250, help="chat questions and slash commands per repeated segment"
    )
    parser.add_argument(
        "--forgetful",
        action="store_true",
        help="also run GPU Advisor remembering no answers, so every question is worked out",
    )
    parser.add_argument(
        "--rich-echo",
        action="store_true",
        help="also run the echo bot replying with a real GPU Advisor answer (embed and buttons)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME:KEY=VALUE[,KEY=VALUE]",
        help="also run GPU Advisor with these environment variables (e.g. a switch of bot.discord_internals)",
    )
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="NAME:DIR",
        help="also run GPU Advisor from another checkout (before/after in the same run: the same rounds)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the traffic's order, users and options")
    parser.add_argument("--timeout", type=float, default=1800, help="give up after this many seconds")
    args = parser.parse_args()
    python = sys.executable
    bots = {
        "echo bot": ([python, str(ROOT / "bench" / "echo_bot.py")], True, None),
        "gpu-advisor": ([python, "-m", "bot"], False, None),
    }
    if args.forgetful:
        bots["forgetful"] = ([python, "-m", "bot"], False, {"GPU_ADVISOR_ANSWERS_REMEMBERED": "0"})
    if args.rich_echo:
        bots["rich echo"] = ([python, str(ROOT / "bench" / "echo_bot.py"), "--rich"], True, None)
    for spec in args.variant:
        name, _, assignments = spec.partition(":")
        env = dict(pair.split("=", 1) for pair in assignments.split(",") if pair)
        bots[name] = ([python, "-m", "bot"], False, env)
    for spec in args.tree:
        name, _, directory = spec.partition(":")
        bots[name] = ([python, "-m", "bot"], False, None, Path(directory).resolve())
    traffic = Traffic(args.seed)
    load_before = os.getloadavg()
    started = time.time()
    coro = measure(bots, args.n, args.rate, args.rounds, args.repeated_n if args.repeated else None, traffic)
    results = asyncio.run(asyncio.wait_for(coro, timeout=args.timeout))
    phase_names = [p for p, _, _ in phases(args.rate, args.repeated)]
    workload = {
        "corpus_questions": traffic.asked,
        "distinct_questions": len(set(traffic.questions[: traffic.asked])),
        "users": traffic.users,
        "guilds": GUILDS,
        "channels": GUILDS * CHANNELS_PER_GUILD,
        "shares": SHARES,
        "events_per_segment": args.n,
    }
    print(
        f"distinct traffic: {args.rounds} rounds × 2 phases × {args.n} events per bot; {traffic.asked} corpus "
        f"questions ({workload['distinct_questions']} distinct), {traffic.users} users, {workload['channels']} "
        f"channels in {GUILDS} servers; load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after "
        f"on {os.cpu_count()} CPUs; {time.time() - started:.0f} s"
    )
    for name in bots:
        show(name, results[name], phase_names)
    print(f"-- ratios to the echo bot: median over {args.rounds} pairs of segments, one per round")
    summary: dict[str, dict[str, float]] = {}
    echo = results["echo bot"]
    for name in list(bots)[1:]:
        for phase in phase_names:
            cpu = [
                ratio(a, b)
                for a, b in zip(
                    results[name][phase]["cpu_ms_per_answer_segments"],
                    echo[phase]["cpu_ms_per_answer_segments"],
                    strict=True,
                )
            ]
            p99 = ratio(results[name][phase]["p99_ms"], echo[phase]["p99_ms"])
            mid, (low, high) = median(cpu), median_interval(cpu)
            summary[f"{name} {phase}"] = {"cpu_ratio": mid, "cpu_ratio_interval": [low, high], "p99_ratio": p99}
            print(
                f"ratio {name:11s} {phase:19s} CPU/answer {mid:.2f}× (90 % interval {low:.2f}–{high:.2f}; "
                f"pairs {', '.join(f'{x:.2f}' for x in cpu)})  p99 {p99:.2f}×"
            )
    others = [name for name in bots if name not in ("echo bot", "gpu-advisor", "rich echo")]
    if others:
        print(
            f"-- ratios to gpu-advisor (--variant, --tree): median over {args.rounds} pairs of segments, one per round"
        )
    for name in others:
        for phase in phase_names:
            cpu = [
                ratio(a, b)
                for a, b in zip(
                    results[name][phase]["cpu_ms_per_answer_segments"],
                    results["gpu-advisor"][phase]["cpu_ms_per_answer_segments"],
                    strict=True,
                )
            ]
            mid, (low, high) = median(cpu), median_interval(cpu)
            summary[f"{name} {phase} to gpu-advisor"] = {"cpu_ratio": mid, "cpu_ratio_interval": [low, high]}
            print(
                f"ratio {name:11s} {phase:19s} CPU/answer {mid:.2f}× gpu-advisor's (90 % interval "
                f"{low:.2f}–{high:.2f}; pairs {', '.join(f'{x:.2f}' for x in cpu)})"
            )
    for result in results.values():
        for phase in phase_names:
            result[phase].pop("latencies", None)
    save(
        "e2e",
        {
            "n": args.n,
            "rate": args.rate,
            "rounds": args.rounds,
            "repeated_n": args.repeated_n if args.repeated else None,
            "workload": workload,
            "load_average": [round(x, 2) for x in (*load_before, *os.getloadavg())],
            "results": results,
            "summary": summary,
        },
    )


if __name__ == "__main__":
    main()
