"""Every word in the user's language: the message catalogs are complete, and Chinese answers carry
no English sentence and no raw key, over a broad, varied question set (every answer kind, follow-ups,
errors, unknown names, can-run, compare, power, break-even).

"English sentence", precisely: three or more consecutive ordinary English words — a word being
letters only, at least two of them, not all capitals, and not part of a GPU, model, vendor or
architecture name, a unit, or a code-like token (``Q4_K_M``, ``/power``). Source titles (rule
sources, spec sources, the guide's credit) are citations and may stay as written.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import fields, is_dataclass
from functools import cache
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.chat import respond, understand
from bot.compose import compose
from bot.locales import LANGS
from bot.words import catalog, render
from engine.advisor import AdviceContext, advise
from engine.answer import Answer
from engine.catalog import load_catalog
from engine.message import Msg, msg
from engine.model_specs import load_model_catalog
from engine.query import Query

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "questions" / "dev.jsonl"

TASKS_EN = (
    "kaggle",
    "learning deep learning",
    "running LLMs locally",
    "fine-tuning llama",
    "stable diffusion",
    "computer vision",
    "NLP research",
    "reinforcement learning",
)
TASKS_ZH = ("跑 Kaggle", "入门深度学习", "本地跑大模型", "微调 LLaMA", "AI 画图", "做目标检测", "搞科研")
BUDGETS_EN = ("$300", "$600", "€1,200", "2000 dollars", "£800", "$5k")
BUDGETS_ZH = ("3000 元", "5000 块", "1 万", "2万元", "预算 8000")
GPUS = ("4090", "3090", "3060 12GB", "2080 Ti", "A100", "7900 XTX", "4060 Ti 16GB", "P40", "H100", "3080")
MODELS = ("Llama 3 8B", "Qwen2.5 14B", "70B", "Mixtral 8x7B", "a 7B model", "Qwen 72B", "SDXL", "gemma 2 27b")
FOLLOW_UPS = ("what about used?", "and with €800?", "那二手的呢？", "预算改成 3000 呢", "what about 2 of them?")
ODD = (
    "",
    "???",
    "rtx 9090 vs 4090",
    "PSU for 9x potato",
    "can a zzzz run llama",
    "budget -500 for kaggle",
    "hello",
    "@everyone which gpu",
    "compare 4090",
    "把 1080 和 rtx 7777 比一下",
    "a" * 500,
    "tell me a joke",
    "how much power does a 5090 need",
    "is 8GB enough for llama 3 8b?",
)


def _file_questions(path: Path) -> list[str]:
    return [json.loads(line)["text"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@cache
def questions() -> tuple[str, ...]:
    """At least 300 distinct questions: the parser's sets plus a grid over every kind of answer."""
    out = _file_questions(ROOT / "tests" / "engine" / "parse_questions.jsonl")
    if SHARED.exists():
        out += _file_questions(SHARED)
    out += [f"which GPU for {t} under {b}?" for t, b in itertools.product(TASKS_EN, BUDGETS_EN)]
    out += [f"{b}，{t}买什么显卡？" for t, b in itertools.product(TASKS_ZH, BUDGETS_ZH)]
    out += [f"{a} vs {b}" for a, b in itertools.combinations(GPUS[:6], 2)]
    out += [f"2x {a} 还是 1x {b}" for a, b in itertools.combinations(GPUS[:5], 2)]
    out += [f"can a {g} run {m}?" for g, m in itertools.product(GPUS[:5], MODELS)]
    out += [f"我的 {g} 能跑 {m} 吗" for g, m in itertools.product(GPUS[2:6], MODELS[:5])]
    out += [f"PSU for {n}x {g}?" for n, g in itertools.product((1, 2, 4), GPUS[:4])]
    out += [f"rent or buy a {g}, {h} hours a day" for g, h in itertools.product(GPUS[:4], (1, 3, 8))]
    out += [f"{g} 每天 {h} 小时，租还是买" for g, h in itertools.product(GPUS[:3], (2, 10))]
    out += [
        "what are tensor cores?",
        "explain memory bandwidth",
        "什么是 TMA",
        "is the 4090 melting?",
        "should I wait for the next generation?",
        "AMD or NVIDIA for pytorch?",
        # second session's answers: each in Chinese too
        "要不要等下一代再买 3090？",
        "我的 5090 不支持 PyTorch 吗？",
        "Is the RX 7900 XTX supported by ROCm?",
        "没显卡，纯 CPU 能跑 Qwen2.5 7B 吗？",
        "沒有顯卡可以跑嗎？",
        "我的 3060 12G 能训练 SDXL LoRA 吗？",
        "M3 Max 128GB 能跑 120B 的 8 位量化吗？",
        "全量微调 14B 模型需要多少显存？",
        "Qwen2.5 14B 需要多少显存？",
        "我的 3060 能跑 AI 绘图吗？",
        "我的 M2 Max 32GB 能跑什么模型？",
        "我的 3060 能跑 FooNet 吗？",
        "预算 8000 元，想跑本地大模型，买什么显卡？",
        "笔记本选 3050 还是 3070，哪个好？",
        "4090 温度太高降频了怎么办？",
        *FOLLOW_UPS,
        *ODD,
    ]
    return tuple(dict.fromkeys(out))


def _answers() -> list[tuple[str, Answer]]:
    """Each question answered as a conversation would: follow-ups refine the question before them."""
    context, previous, out = AdviceContext(), None, []
    for text in questions():
        result = understand(text, previous, "USD")
        previous = result.query
        out.append((text, respond(result, context)))
    return out


@cache
def answers() -> tuple[tuple[str, Answer], ...]:
    extra = [
        ("/info 3090", advise(Query(kind="info", gpus=("rtx-3090",)))),
        ("/cycles 2020", advise(Query(kind="cycles", edition="2020", tensor_cores=False))),
    ]
    return (*_answers(), *extra)


def messages(value: object) -> list[Msg]:
    """Every message inside an answer, however deep."""
    if isinstance(value, Msg):
        return [value]
    if isinstance(value, BaseModel):
        return [m for name in type(value).model_fields for m in messages(getattr(value, name))]
    if is_dataclass(value):  # a slotted record (a memory term, a speed factor)
        return [m for field in fields(value) for m in messages(getattr(value, field.name))]
    if isinstance(value, tuple | list):
        return [m for item in value for m in messages(item)]
    if isinstance(value, dict):
        return [m for item in value.values() for m in messages(item)]
    return []


def test_the_question_set_is_broad():
    assert len(questions()) >= 300
    kinds = {answer.kind for _, answer in answers()}
    assert kinds >= {"recommend", "compare", "can_run", "cloud_vs_buy", "power", "explain", "other"}, kinds


def test_every_message_key_the_engine_emits_exists_in_every_language():
    known = catalog()
    emitted = {key for _, answer in answers() for m in messages(answer) for key in m.all_keys()}
    assert emitted, "no messages collected"
    assert not sorted(emitted - set(known))
    for key in emitted:
        assert set(known[key]) == set(LANGS), key


def test_every_catalog_entry_has_the_same_fields_in_every_language():
    fields = re.compile(r"\{(\w+)")
    for key, templates in catalog().items():
        names = {lang: sorted(set(fields.findall(text))) for lang, text in templates.items()}
        assert names["zh-Hant"] == names["en"] == names["zh-Hans"], key


@cache
def _names() -> frozenset[str]:
    """Words that may stay Latin: tokens of GPU, architecture, model and cloud instance names, units."""
    gpus = load_catalog()
    models = load_model_catalog()
    words = " ".join(
        [
            *(g.name for g in gpus.gpus.values()),
            *(g.short_name for g in gpus.gpus.values()),
            *(a.name for a in gpus.architectures.values()),
            *(models.get(i).name for i in models.ids()),
            *(models.get(i).id for i in models.ids()),
            *(f"{c.provider} {c.name}" for c in gpus.clouds.values()),
        ]
    )
    units = "tokens token tok bits bit per GPU GPUs GiB GB TB MB kWh TFLOPS SMs SM warps warp Tensor Cores Core"
    return frozenset(w.lower() for w in re.findall(r"[A-Za-z]+", words + " " + units))


WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


def english_run(text: str) -> str | None:
    """The first run of three or more ordinary English words in ``text``, or None."""
    run: list[str] = []
    for token in re.split(r"[\s,;:()（）“”\"]+", text):
        ordinary = (
            bool(WORD.fullmatch(token)) and len(token) >= 2 and not token.isupper() and token.lower() not in _names()
        )
        run = [*run, token] if ordinary else []
        if len(run) >= 3:
            return " ".join(run)
    return None


def _prose(lang: str) -> list[tuple[str, str]]:
    """(question, text) for every string a reader reads in prose; sources and credits left out."""
    out = []
    for question, answer in answers():
        doc = compose(answer, lang)  # type: ignore[arg-type]
        texts = [doc.title, doc.headline, doc.question, doc.footer, *(label for _, label in doc.choices)]
        for block in doc.blocks:
            texts += [block.title, block.text]
            if block.role != "sources":
                texts += list(block.lines)
            if block.table is not None:
                texts += [*block.table.headers, *(cell for row in block.table.rows for cell in row)]
        out += [(question, _cited_away(text)) for text in texts if text]
    return out


def _cited_away(text: str) -> str:
    """The text before a citation ("来源 …" / "來源 …"): a source's title stays as written."""
    return text.split("来源")[0].split("來源")[0]


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_chinese_answers_carry_no_english_sentence_and_no_raw_key(lang):
    keys = set(catalog())
    leaks = [(q, text, run) for q, text in _prose(lang) if (run := english_run(text))]
    assert not leaks[:10], f"{len(leaks)} leaks"
    raw = [
        (q, text)
        for q, text in _prose(lang)
        if any(part in keys for part in re.findall(r"[\w.]+", text) if "." in part and not part[0].isdigit())
    ]
    assert not raw[:10]


def test_the_english_run_detector_catches_sentences_and_spares_names():
    assert english_run("显存不会合并：Memory does not pool") is not None
    assert english_run("RTX 4090 Laptop GPU 的显存") is None
    assert english_run("Llama 3 8B 用 Q4_K_M，约 25 tokens/s") is None
    assert english_run("you need at") == "you need at"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_in_every_language(lang):
    for _, answer in answers():
        for m in messages(answer):
            assert render(m, lang)


@pytest.mark.asyncio
async def test_every_slash_command_description_is_translated():
    """The command picker shows each command's description in the member's language."""
    import discord
    from discord import app_commands

    from bot.app import COGS
    from bot.i18n import Translator

    descriptions = set()
    for module in COGS:
        source = (ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        descriptions |= set(re.findall(r'description=_?\(?"([^"]+)"\)?', source))
    assert len(descriptions) >= 10
    translator = Translator()
    for text in descriptions:
        for locale, lang in ((discord.Locale.taiwan_chinese, "zh-Hant"), (discord.Locale.chinese, "zh-Hans")):
            words = await translator.translate(app_commands.locale_str(text), locale, None)  # type: ignore[arg-type]
            assert words and not english_run(words), (text, lang)


@pytest.mark.parametrize("lang", ["zh-Hant", "zh-Hans"])
def test_the_guides_citations_beside_rules_are_in_the_readers_language(lang):
    """Rule sources that cite the guide or the docs come from the citation catalog; only URLs,
    repositories and vendors' pages stay as written."""
    leaks = set()
    for _, answer in answers():
        for block in compose(answer, lang).blocks:  # type: ignore[arg-type]
            for source in block.sources:
                cited = source.split("http")[0].replace("docs/canrun.md", "")
                if (cited.startswith(("Guide", "guide")) or english_run(cited)) and not re.search(
                    r"repo |\.com", source
                ):
                    leaks.add(source)
    assert not sorted(leaks)[:10], f"{len(leaks)} citations untranslated"


def test_a_comparison_says_its_verdict_once():
    # Only 2× RTX 3090 holds a 70B model: that verdict is the headline, and no "Verdict" block repeats it.
    held = compose(respond(understand("4090 or 2x 3090 to run a 70B model?", None, "USD"), AdviceContext()))
    assert "verdict" not in [b.role for b in held.blocks]
    # Both hold it: the headline gives the ratio, the verdict block the pick.
    both = compose(respond(understand("4090 or 2x 3090 for training?", None, "USD"), AdviceContext()))
    assert "verdict" in [b.role for b in both.blocks]


def test_a_range_whose_ends_round_alike_is_said_as_one_figure() -> None:
    # "Llama 3.3 70B (FP8 …, ~3-3 tokens/s)" on a DGX Spark: the ends differ by less than the rounding shows
    one = msg("canrun.fit.with_speed", fit="Yes", low=2.8, high=3.4)
    assert render(one, "en") == "Yes, ~3 tokens/s" and render(one, "zh-Hans") == "Yes，约 3 token/s"
    two = msg("canrun.fit.with_speed", fit="Yes", low=2.8, high=3.6)
    assert render(two, "en") == "Yes, ~3-4 tokens/s"


def test_a_spec_source_in_chinese_is_its_links_not_english_prose() -> None:
    from bot.words import spec_source

    said = (
        "Required system power 650 W, NVIDIA's figure as reported by https://www.newegg.com/insider/x/ (Newegg Insider)"
    )
    assert spec_source(said, "zh-Hans") == "https://www.newegg.com/insider/x/"
    assert spec_source(said, "en") == said
    assert (
        spec_source("repo acarl005/GPU-specs: nvidia_gpu_specs.md", "zh-Hant")
        == "repo acarl005/GPU-specs: nvidia_gpu_specs.md"
    )
    # every source of every card reads so in Chinese: no "as reported by" left
    for gpu in load_catalog().gpus.values():
        assert not any("reported by" in spec_source(s, "zh-Hans") for s in gpu.sources), gpu.id
