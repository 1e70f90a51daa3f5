"""Start-up (issue #24): a database already at the newest revision opens without importing alembic,
and the newest revision read from the file names is alembic's one head; starting the bot imports
neither the engine's advisor, parser and answers nor the composer (the warm-up after READY does).
No timing is asserted."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from bot.store.migrate import head, newest_on_disk

ROOT = Path(__file__).resolve().parents[2]


def test_the_newest_revision_file_is_the_head():
    assert newest_on_disk() == head()


def test_a_migrated_database_opens_without_alembic(tmp_path: Path):
    from bot.store.store import open_store

    async def migrate() -> None:
        store = await open_store(data_dir=tmp_path)  # a new file: alembic creates the schema
        await store.close()

    asyncio.run(migrate())
    script = (
        "import asyncio, sys\n"
        "from bot.store.store import open_store\n"
        "async def main():\n"
        f"    store = await open_store(data_dir={str(tmp_path)!r})\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
        "print(any(name == 'alembic' or name.startswith('alembic.') for name in sys.modules))\n"
    )
    assert _printed(script) == "False"


def test_an_older_database_is_still_migrated(tmp_path: Path):
    from bot.store.db import Database, create_engine, database_url
    from bot.store.migrate import current, downgrade, upgrade

    async def run() -> tuple[str | None, str | None]:
        db = Database(create_engine(database_url(None, tmp_path)))
        try:
            await upgrade(db)
            await downgrade(db, "0001")
            return await current(db), await upgrade(db)
        finally:
            await db.close()

    before, after = asyncio.run(run())
    assert before == "0001" and after == head()


# ---- the engine and the composer load after READY (the warm-up) or with the first answer (issue #24) ----

HEAVY = ("engine.canrun", "engine.advisor", "engine.answer", "engine.parse", "engine.cost", "bot.compose")


def test_starting_the_bot_does_not_import_the_engine():
    """What ``python -m bot`` imports before READY — bot.__main__, bot.app and every cog — leaves the
    engine's advisor, parser, answers and the composer for later."""
    script = (
        "import importlib, sys\n"
        "import bot.__main__, bot.app\n"
        "for cog in bot.app.COGS:\n"
        "    importlib.import_module(cog)\n"
        f"print(sorted(name for name in {HEAVY!r} if name in sys.modules))\n"
    )
    assert _printed(script) == "[]"


def test_the_warm_up_loads_the_engine_and_the_composer():
    script = (
        "import sys\n"
        "from bot.app import warm_up_engine\n"
        "warm_up_engine()\n"
        f"print(sorted(name for name in {HEAVY!r} if name not in sys.modules))\n"
    )
    assert _printed(script) == "[]"


_ASKED = (
    "best GPU for training under $1500?",
    "can a 3090 run llama 3 70b?",
    "4090 vs 3090 for stable diffusion",
    "how many tokens/s does a 4060 Ti 16GB get on qwen 14b q4?",
    "我想微调7B模型，预算一万块买什么卡",
)


def test_a_warm_shard_answers_without_numpy_or_matplotlib():
    """numpy (≈20 MB of shared objects and OpenBLAS) and matplotlib load only in the charts' worker
    process and offline scripts, never in a shard (issue #24): not with the warm-up, nor with answers
    that parse with the classifier, rank by price (a community price, electricity), calibrate a
    speed or a decode rate, and build their embed and chart spec."""
    script = (
        "import datetime as dt, importlib, sys\n"
        "from decimal import Decimal\n"
        "import bot.__main__, bot.app\n"
        "for cog in bot.app.COGS:\n"
        "    importlib.import_module(cog)\n"
        "bot.app.warm_up_engine()\n"
        "from bot.charts.specs import answer_spec\n"
        "from bot.compose import compose\n"
        "from engine.advisor import AdviceContext, advise\n"
        "from engine.cost import PriceQuote\n"
        "from engine.parse import parse\n"
        "quote = PriceQuote(gpu_id='rtx-3090', usd=Decimal(700), basis='override', date=dt.date(2026, 11, 1), "
        "source='server')\n"
        "contexts = (AdviceContext(), AdviceContext(price_overrides={'rtx-3090': quote}, "
        "electricity_usd_per_kwh=Decimal('0.3')))\n"
        f"for text in {_ASKED!r}:\n"
        "    for context in contexts:\n"
        "        answer = advise(parse(text).query, context)\n"
        "        compose(answer)\n"
        "        answer_spec(answer)\n"
        "print(sorted(name for name in ('numpy', 'matplotlib') if name in sys.modules))\n"
    )
    assert _printed(script) == "[]"


def _printed(script: str) -> str:
    """What ``script`` prints, run in a fresh interpreter (nothing imported yet) from the project root."""
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
