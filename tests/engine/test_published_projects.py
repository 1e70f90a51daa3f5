"""Tools people ask about by name ("can my card run Fooocus?"), answered from their own published GPU
memory (data/measurements/published_requirements.yaml, the rows added on 2026-12-07): each tool is a
models.yaml entry of its own, so a question naming it gets a yes/no with the tool's figure, in English
and in Chinese, and its names do not fire on ordinary words."""

from __future__ import annotations

import pytest

from bot.chat import respond, understand
from bot.render import answer_text
from engine.advisor import AdviceContext
from engine.catalog import load_catalog
from engine.datafiles import read_yaml
from engine.model_specs import load_model_catalog
from tests.engine.test_published_requirements import REQUIREMENTS

# Row id → (min_gb, recommended_gb) as read in the tool's own README, docs or author's issue reply.
TOOLS = {
    "fooocus-infer": (4, 4),  # README minimal requirement: 4 GB on NVIDIA RTX cards
    "invokeai-infer": (4, 4),  # requirements: SD1.5 4 GB (SDXL 8 GB, FLUX.1 10 GB in the settings)
    "facechain-infer": (19, 19),  # v3.0.0 README: "GPU: About 19G"
    "facechain-lora": (19, 19),
    "idm-vton-infer": (18, 18),  # the author in issue #43: ">18GB VRAM is required"
    "catvton-infer": (8, 8),  # README: "< 8G VRAM for 1024X768 resolution"
    "storydiffusion-infer": (20, 24),  # low-VRAM version: tested on 24 GB, expected to work above 20 GB
    "easydiffusion-infer": (2, 2),  # README: "minimum 2 GB RAM" on the graphics card
    "mineru-infer": (4, 8),  # README table: pipeline backend 4 GB, hybrid/vlm engine 8 GB
    "lhm-500m-infer": (16, 18),  # modelcard.md: 16G GPU with save_memory, 18G GPU
    "lhm-1b-infer": (18, 22),  # modelcard.md: 18G GPU with save_memory, 22G GPU
    "hunyuanvideo-avatar-infer": (24, 96),  # README requirements: minimum 24 GB (very slow), 96 GB recommended
    "instantid-infer": (24, 24),  # the author in issue #21: "24GB VRAM is suggested"
}


def _rows() -> dict[str, dict]:
    return {row["id"]: row for row in read_yaml(REQUIREMENTS)["requirements"]}


@pytest.mark.parametrize(("row_id", "figures"), TOOLS.items(), ids=list(TOOLS))
def test_tool_rows_carry_their_sources_figures(row_id, figures):
    row = _rows()[row_id]
    assert (row["min_gb"], row["recommended_gb"]) == figures
    assert row["source"].startswith("https://")


@pytest.fixture(scope="module", autouse=True)
def _catalog():
    load_catalog()


def _answer(text: str, lang: str = "en") -> tuple[str, str | None, str]:
    understood = understand(text, None, "USD")
    answer = respond(understood, AdviceContext())
    return answer.kind, understood.query.model if understood.query else None, answer_text(answer, lang)


# A question naming the tool, on a card above and one below its published figure: (question, model, fits, GB).
WORKED = [
    ("Can my RTX 3060 12GB run Fooocus?", "fooocus", True, 4),
    ("Is my PC not powerful enough for Fooocus? I have a GeForce GTX 960M 2GB", "fooocus", False, 4),
    ("Will InvokeAI work on a GTX 1050 Ti?", "invokeai", True, 4),
    ("Can I use FaceChain on my RTX 3070 8GB?", "facechain", False, 19),
    ("Can I train FaceChain on a 4090?", "facechain", True, 19),
    ("Can an RTX 3090 run IDM-VTON?", "idm-vton", True, 18),
    ("Is 16GB enough for IDM-VTON?", "idm-vton", False, 18),
    ("Can CatVTON run on an RTX 4060 8GB?", "catvton", True, 8),
    ("Can I run StoryDiffusion on RTX 4080 16GB?", "storydiffusion", False, 20),
    ("Can StoryDiffusion run on a 4090?", "storydiffusion", True, 20),
    ("Can my GTX 1050 run EasyDiffusion?", "easydiffusion", True, 2),
    ("I tried MinerU on my laptop with a GTX1050 2G and got CUDA out of memory", "mineru", False, 4),
    ("Can my RTX 3060 run MinerU?", "mineru", True, 4),
    ("Can my RTX 4090 run HunyuanVideo-Avatar?", "hunyuanvideo-avatar", True, 24),
    ("Can an RTX 4080 16GB run HunyuanVideo-Avatar?", "hunyuanvideo-avatar", False, 24),
    # typed in lower case, as people write them (a one-word name of a catalog model that is no LLM)
    ("can fooocus run on my 3060 12gb?", "fooocus", True, 4),
    ("is my gtx 960m 2gb enough for fooocus", "fooocus", False, 4),
    # the README's own figure for cards without Tensor Cores (GTX 10/9 series, AMD): 8 GB
    ("Is my GTX 1060 6GB enough for Fooocus?", "fooocus", False, 4),
    ("Is a GTX 1080 8GB enough for Fooocus?", "fooocus", True, 4),
    ("Can my RTX 4080 16GB run InstantID?", "instantid", False, 24),
    ("Will InstantID run on a 3090?", "instantid", True, 24),
    # LoRA trainers, whose figures are LoRA ones: naming them asks about LoRA training
    ("Can I run ai-toolkit on an RTX 4070 Ti Super with 16GB VRAM?", "ai-toolkit", False, 24),
    ("Can I use FluxGym on my 3060 12GB?", "fluxgym", True, 12),
]


@pytest.mark.parametrize(("text", "model", "fits", "gb"), WORKED, ids=[w[0] for w in WORKED])
def test_a_question_naming_the_tool_gets_its_published_verdict(text, model, fits, gb):
    kind, got, words = _answer(text)
    assert kind == "can_run" and got == model
    assert (": Yes," in words) is fits and (": No," in words) is not fits
    assert f"takes from {gb} GB" in words and "as its tool documents (https://" in words


ZH = [
    ("我的3060 12G能跑Fooocus吗？", "fooocus", "可以", 4, "zh-Hans"),
    ("4060 8G能用FaceChain吗？", "facechain", "不行", 19, "zh-Hans"),
    ("FaceChain训练需要多大显存？我的3090可以吗", "facechain", "可以", 19, "zh-Hans"),
    ("IDM-VTON 4090能跑吗", "idm-vton", "可以", 18, "zh-Hans"),
    ("StoryDiffusion需要多少显存？4080 16G够吗", "storydiffusion", "不行", 20, "zh-Hans"),
    ("我的4060 Ti 8G能跑IDM-VTON嗎？", "idm-vton", "不行", 18, "zh-Hant"),
    ("MinerU 4060 8G能跑吗？", "mineru", "可以", 4, "zh-Hans"),
    ("LHM-500M 3080 10G能跑吗", "lhm-500m", "不行", 16, "zh-Hans"),
    ("4090D 48G显卡跑 ComfyUI HunyuanAvatar 够吗", "hunyuanvideo-avatar", "可以", 24, "zh-Hans"),
]


def test_lhm_named_without_a_size_is_its_family():
    # "LHM" alone: the family the catalog sizes (LHM-1B), the largest that fits a 24 GB 3090 (model card: 22G GPU)
    kind, model, words = _answer("How much memory is required for LHM inference? Can inference run on a 24G 3090 GPU?")
    assert kind == "can_run" and model == "LHM"
    assert "RTX 3090: Yes," in words and "LHM-1B inference takes from 18 GB (22 GB recommended)" in words


@pytest.mark.parametrize(("text", "model", "verdict", "gb", "lang"), ZH, ids=[z[0] for z in ZH])
def test_chinese_questions_get_the_same_figures(text, model, verdict, gb, lang):
    kind, got, words = _answer(text, lang)
    assert kind == "can_run" and got == model
    assert f"：{verdict}" in words and f"最少要 {gb} GB" in words


@pytest.mark.parametrize(
    "text",
    [
        "Can I run Stable Diffusion on a 3060?",  # still Stable Diffusion 1.5, not a tool built on it
        "Can my RTX 3090 run SDXL?",
        "Can my 3060 run HunyuanVideo?",  # HunyuanVideo itself, not the avatar model built on it
        "Can my 4090 run Whisper large-v2?",
        "I want to invoke a model on my RTX 3090, which one fits?",  # "invoke" is a word, not InvokeAI
        "Is it easy to run diffusion models on a 3060?",  # "easy … diffusion" is no Easy Diffusion
        "Can I chain two 3090s for Llama 3 70B?",
    ],
)
def test_tool_names_do_not_take_ordinary_questions(text):
    _, model, _ = _answer(text)
    assert model not in {"fooocus", "invokeai", "facechain", "idm-vton", "catvton", "storydiffusion"}
    assert model not in {"easydiffusion", "mineru", "lhm-500m", "lhm-1b", "hunyuanvideo-avatar"}


def test_tool_aliases_resolve_to_their_entries():
    catalog = load_model_catalog()
    for text, model in [
        ("Fooocus", "fooocus"),
        ("lllyasviel/Fooocus", "fooocus"),
        ("InvokeAI", "invokeai"),
        ("invoke-ai", "invokeai"),
        ("FaceChain", "facechain"),
        ("IDM-VTON", "idm-vton"),
        ("CatVTON", "catvton"),
        ("StoryDiffusion", "storydiffusion"),
        ("EasyDiffusion", "easydiffusion"),
        ("MinerU", "mineru"),
        ("LHM-500M", "lhm-500m"),
        ("LHM-1B-HF", "lhm-1b"),
        ("HunyuanVideo-Avatar", "hunyuanvideo-avatar"),
        ("HunyuanAvatar", "hunyuanvideo-avatar"),
    ]:
        assert catalog.resolve(text) == model, text
    for word in ("invoke", "easy", "chain", "story", "diffusion", "vton", "miner"):
        assert catalog.resolve(word) is None, word


def test_a_figure_for_cards_without_tensor_cores_is_the_one_they_are_held_to():
    # Fooocus's README: 4 GB on RTX 20/30/40 cards, 8 GB on GTX 10/9 series and AMD cards
    assert _rows()["fooocus-infer"]["min_gb_no_tensor_cores"] == 8
    _, _, pascal = _answer("Is my GTX 1060 6GB enough for Fooocus?")
    assert "6 GB is under the 8 GB minimum" in pascal
    _, _, turing = _answer("Is my RTX 2060 6GB enough for Fooocus?")
    assert "6 GB meets the 4 GB recommended" in turing
