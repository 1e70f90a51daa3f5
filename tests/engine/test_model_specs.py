"""The model catalog: data/models.yaml loads, is consistent, and names resolve cautiously."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from engine import model_specs
from engine.datafiles import DataError
from engine.model_specs import (
    ModelCatalog,
    ModelSpec,
    load_model_catalog,
    load_model_catalog_from,
    normalize_model_name,
)

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
MODELS_YAML = DATA_DIR / "models.yaml"


@pytest.fixture(scope="module")
def catalog() -> ModelCatalog:
    return load_model_catalog_from(DATA_DIR)


def _entries() -> list[dict]:
    return yaml.safe_load(MODELS_YAML.read_text(encoding="utf-8"))


def _write(tmp_path: Path, entries: list[dict]) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump(entries, sort_keys=False), encoding="utf-8")
    return path


def _replace(entries: list[dict], model_id: str, **changes: object) -> list[dict]:
    out = []
    for entry in entries:
        if entry["id"] == model_id:
            entry = {**entry, **changes}
            entry = {k: v for k, v in entry.items() if v is not None}
        out.append(entry)
    return out


# --- loading -----------------------------------------------------------------------------------


def test_loads_at_least_fifty_models(catalog: ModelCatalog) -> None:
    assert len(catalog) >= 50
    assert len(catalog.ids()) == len(catalog)
    assert all(isinstance(catalog.get(i), ModelSpec) for i in catalog.ids())


def test_load_model_catalog_reads_the_data_dir_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPU_ADVISOR_DATA", str(DATA_DIR))
    model_specs.load_model_catalog.cache_clear()
    try:
        first = model_specs.load_model_catalog()
        assert first is model_specs.load_model_catalog()
        assert "llama-3.1-8b" in first.ids()
    finally:
        model_specs.load_model_catalog.cache_clear()


def test_loader_accepts_a_file_or_a_directory(tmp_path: Path) -> None:
    path = _write(tmp_path, _entries())
    assert load_model_catalog_from(path).ids() == load_model_catalog_from(tmp_path).ids()


def test_unknown_id_raises_keyerror(catalog: ModelCatalog) -> None:
    with pytest.raises(KeyError, match="no-such-model"):
        catalog.get("no-such-model")


def test_the_brief_s_models_are_all_there(catalog: ModelCatalog) -> None:
    wanted = {
        "llama-2-7b",
        "llama-2-13b",
        "llama-2-70b",
        "llama-3-8b",
        "llama-3-70b",
        "llama-3.1-8b",
        "llama-3.1-70b",
        "llama-3.1-405b",
        "llama-3.2-1b",
        "llama-3.2-3b",
        "llama-3.3-70b",
        "llama-4-scout",
        "llama-4-maverick",
        "mistral-7b",
        "mistral-nemo-12b",
        "mistral-small-3.1-24b",
        "mixtral-8x7b",
        "mixtral-8x22b",
        "qwen2.5-0.5b",
        "qwen2.5-1.5b",
        "qwen2.5-3b",
        "qwen2.5-7b",
        "qwen2.5-14b",
        "qwen2.5-32b",
        "qwen2.5-72b",
        "qwen3-0.6b",
        "qwen3-1.7b",
        "qwen3-4b",
        "qwen3-8b",
        "qwen3-14b",
        "qwen3-32b",
        "qwen3-30b-a3b",
        "qwen3-235b-a22b",
        "deepseek-v3",
        "deepseek-r1",
        "deepseek-r1-distill-qwen-1.5b",
        "deepseek-r1-distill-qwen-7b",
        "deepseek-r1-distill-qwen-14b",
        "deepseek-r1-distill-qwen-32b",
        "deepseek-r1-distill-llama-8b",
        "deepseek-r1-distill-llama-70b",
        "gemma-2-2b",
        "gemma-2-9b",
        "gemma-2-27b",
        "gemma-3-1b",
        "gemma-3-4b",
        "gemma-3-12b",
        "gemma-3-27b",
        "phi-3-mini",
        "phi-3-medium",
        "phi-4",
        "gpt-oss-20b",
        "gpt-oss-120b",
        "sd-1.5",
        "sdxl",
        "sd-3.5-large",
        "sd-3.5-medium",
        "flux-1-dev",
        "flux-1-schnell",
        "whisper-large-v3",
        "bert-base",
        "bert-large",
        "vit-b-16",
        "vit-l-16",
        "resnet-50",
        "generic-7b",
        "generic-13b",
        "generic-34b",
        "generic-70b",
        "generic-180b",
        "generic-405b",
    }
    assert wanted <= set(catalog.ids())


# --- consistency -------------------------------------------------------------------------------


def test_every_model_has_a_source(catalog: ModelCatalog) -> None:
    for spec in catalog.models.values():
        assert re.match(r"https?://", spec.source), spec.id


def test_moe_models_have_active_below_total(catalog: ModelCatalog) -> None:
    moe = [m for m in catalog.models.values() if m.is_moe]
    expected = {"mixtral-8x7b", "qwen3-30b-a3b", "deepseek-v3", "gpt-oss-120b", "llama-4-scout"}
    assert expected <= {m.id for m in moe}
    for spec in moe:
        assert spec.active_params_b is not None and spec.active_params_b < spec.params_b, spec.id
        assert spec.experts_per_token is not None and spec.experts is not None
        assert spec.experts_per_token <= spec.experts
    for spec in catalog.models.values():
        if not spec.is_moe:
            assert spec.active_params_b is None, spec.id


def test_gqa_heads_are_consistent(catalog: ModelCatalog) -> None:
    for spec in catalog.models.values():
        if spec.kv_heads is None:
            continue
        assert spec.attention_heads is not None
        assert spec.kv_heads <= spec.attention_heads, spec.id
        assert spec.attention_heads % spec.kv_heads == 0, spec.id


def test_llms_have_a_full_shape(catalog: ModelCatalog) -> None:
    for spec in catalog.models.values():
        if spec.kind != "llm":
            continue
        assert spec.kv_values_per_token_layer, spec.id
        assert spec.default_context is not None and spec.max_context is not None
        assert spec.default_context <= spec.max_context, spec.id


def test_known_shapes(catalog: ModelCatalog) -> None:
    llama = catalog.get("llama-3.1-8b")
    assert (llama.params_b, llama.layers, llama.kv_heads, llama.head_dim) == (8.03, 32, 8, 128)
    # 32 layers x 2 x 8 heads x 128 x 2 bytes = 128 KiB per token.
    assert llama.kv_cache_bytes(8192) == 8192 * 32 * 2 * 8 * 128 * 2
    mixtral = catalog.get("mixtral-8x7b")
    assert (mixtral.params_b, mixtral.active_params_b) == (46.7, 12.9)


def test_mla_cache_uses_the_latent_width(catalog: ModelCatalog) -> None:
    for model_id in ("deepseek-v3", "deepseek-r1"):
        spec = catalog.get(model_id)
        assert spec.uses_mla
        assert spec.kv_values_per_token_layer == 512 + 64
        assert spec.kv_cache_bytes(1000) == 1000 * 61 * 576 * 2


def test_sliding_window_layers_cap_the_cache(catalog: ModelCatalog) -> None:
    gemma = catalog.get("gemma-3-27b")
    assert (gemma.local_layers, gemma.global_layers, gemma.sliding_window) == (52, 10, 1024)
    per_token = gemma.kv_values_per_token_layer * 2
    assert gemma.kv_cache_bytes(32768) == (10 * 32768 + 52 * 1024) * per_token
    oss = catalog.get("gpt-oss-20b")
    assert (oss.local_layers, oss.global_layers, oss.sliding_window) == (12, 12, 128)
    for model_id in ("gemma-2-9b", "gemma-3-4b", "gpt-oss-120b", "llama-4-scout"):
        spec = catalog.get(model_id)
        assert 0 < spec.local_layers < spec.layers, model_id


def test_non_transformer_models_leave_shape_out(catalog: ModelCatalog) -> None:
    resnet = catalog.get("resnet-50")
    assert resnet.kind == "cnn" and resnet.layers is None and resnet.kv_cache_bytes(1) is None
    assert catalog.get("whisper-large-v3").layers == 32
    assert catalog.get("flux-1-dev").params_b == 12.0


# --- resolution --------------------------------------------------------------------------------


def test_every_alias_resolves_to_its_own_model(catalog: ModelCatalog) -> None:
    for spec in catalog.models.values():
        for text in (spec.id, spec.name, *spec.aliases):
            assert catalog.resolve(text) == spec.id, (text, spec.id)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("llama 3 8b", "llama-3-8b"),
        ("llama3-8b", "llama-3-8b"),
        ("Llama 3 8B", "llama-3-8b"),
        ("meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"),
        ("Llama-3.1-8B-Instruct", "llama-3.1-8b"),
        ("llama 8b", "llama-3.1-8b"),
        ("llama 70b", "llama-3.3-70b"),
        ("qwen 14b", "qwen3-14b"),
        ("qwen2.5 14b", "qwen2.5-14b"),
        ("Qwen/Qwen2.5-14B-Instruct", "qwen2.5-14b"),
        ("qwen 7b", "qwen2.5-7b"),
        ("Qwen3-30B-A3B", "qwen3-30b-a3b"),
        ("ds r1 distill 32b", "deepseek-r1-distill-qwen-32b"),
        ("deepseek r1 distill qwen 32b", "deepseek-r1-distill-qwen-32b"),
        ("DeepSeek-R1-Distill-Llama-70B", "deepseek-r1-distill-llama-70b"),
        ("deepseek r1", "deepseek-r1"),
        ("mixtral 8x7b", "mixtral-8x7b"),
        ("Mixtral 8×7B Instruct", "mixtral-8x7b"),
        ("gpt-oss 20b", "gpt-oss-20b"),
        ("gpt oss 120b", "gpt-oss-120b"),
        ("sdxl", "sdxl"),
        ("flux dev", "flux-1-dev"),
        ("FLUX.1 [schnell]", "flux-1-schnell"),
        ("gemma-3-27b-it", "gemma-3-27b"),
        ("gemma 2 9b it", "gemma-2-9b"),
        ("whisper large v3", "whisper-large-v3"),
        ("ViT-B/16", "vit-b-16"),
        ("resnet50", "resnet-50"),
        ("llama-3.1-8b-instruct-q4_k_m.gguf", "llama-3.1-8b"),
        ("Llama 3.1 70B FP8", "llama-3.1-70b"),
        ("70B", "generic-70b"),
        ("70b", "generic-70b"),
        ("a 70b model", "generic-70b"),
        ("70 billion", "generic-70b"),
        ("7B", "generic-7b"),
        ("405b", "generic-405b"),
    ],
)
def test_examples_resolve(catalog: ModelCatalog, text: str, expected: str) -> None:
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("lama 3.1 8b", "llama-3.1-8b"), ("mistrall 7b", "mistral-7b"), ("mixtrall 8x22b", "mixtral-8x22b")],
)
def test_fuzzy_fixes_spelling(catalog: ModelCatalog, text: str, expected: str) -> None:
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "llama 3 8b",
        "llama3 8b",
        "llama-3-8b-instruct",
        "Llama 3 8B chat",
        "llama 3.1 8b",
        "llama 8b",
        "lama 3 8b",
        "Meta Llama 3 8B",
    ],
)
def test_llama_3_8b_never_becomes_70b(catalog: ModelCatalog, text: str) -> None:
    resolved = catalog.resolve(text)
    assert resolved is not None
    spec = catalog.get(resolved)
    assert spec.family == "llama" and spec.params_b < 10


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "banana",
        "rtx 4090",
        "gpt-5",
        "llama 3 9b",
        "llama 3.2 8b",
        "qwen 13b",
        "8b",
        "72b",
        "llama 3 80b",
        "qwen3 30b a4b",
        "mixtral 8x8b",
        "!!!",
    ],
)
def test_nonsense_and_unknown_sizes_resolve_to_none(catalog: ModelCatalog, text: str) -> None:
    assert catalog.resolve(text) is None


def test_fuzzy_never_changes_a_number() -> None:
    assert normalize_model_name("Llama-3.1-8B-Instruct") == "llama31 8b"
    assert normalize_model_name("qwen3-30b-a3b") == "qwen3 30b a3b"
    assert normalize_model_name("a 70b model") == "70b"
    specs = [
        ModelSpec(id="alpha-8b", name="Alpha 8B", family="x", kind="cnn", params_b=8, source="paper"),
        ModelSpec(id="alpha-70b", name="Alpha 70B", family="x", kind="cnn", params_b=70, source="paper"),
    ]
    small = ModelCatalog(
        models={s.id: s for s in specs},
        alias_index={normalize_model_name(a): s.id for s in specs for a in (s.id, s.name)},
    )
    assert small.resolve("alpha 8b") == "alpha-8b"
    assert small.resolve("alpah 8b") == "alpha-8b"
    assert small.resolve("alpha 7b") is None
    assert small.resolve("alpha 80b") is None


def test_suggest_offers_close_names(catalog: ModelCatalog) -> None:
    assert "mixtral-8x7b" in catalog.suggest("mixtral")


# --- models users name in questions (Chinese GitHub issues especially) --------------------------


def test_the_models_users_ask_about_are_there(catalog: ModelCatalog) -> None:
    wanted = {
        "llama-1-7b",
        "llama-1-13b",
        "llama-1-33b",
        "llama-1-65b",
        "vicuna-7b",
        "vicuna-13b",
        "chatglm-6b",
        "chatglm2-6b",
        "chatglm3-6b",
        "glm-4-9b",
        "glm-4v-9b",
        "baichuan-7b",
        "baichuan-13b",
        "baichuan2-7b",
        "baichuan2-13b",
        "qwen1-7b",
        "qwen1-14b",
        "qwen1-72b",
        "qwen1.5-14b",
        "qwen1.5-32b",
        "qwen1.5-72b",
        "qwen2-72b",
        "qwen2-vl-2b",
        "qwen2-vl-7b",
        "qwen2-vl-72b",
        "internlm-7b",
        "internlm-20b",
        "internlm2-7b",
        "internlm2-20b",
        "yi-34b",
        "bloom-7b1",
        "grok-1",
        "polyglot-ko-5.8b",
        "polyglot-ko-12.8b",
        "codegen-16b",
        "llava-1.5-7b",
        "llava-1.5-13b",
        "minicpm-v-2.6",
        "whisper-large-v2",
        "sd-1.4",
        "sd-2",
        "wan2.1-14b",
        "wan2.1-1.3b",
        "hunyuanvideo-13b",
        "cogvideox-2b",
        "cogvideox-5b",
        "yolov8n",
        "yolov8x",
    }
    assert wanted <= set(catalog.ids())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ChatGLM2-6B", "chatglm2-6b"),
        ("chatglm2", "chatglm2-6b"),
        ("glm2", "chatglm2-6b"),
        ("THUDM/chatglm2-6b", "chatglm2-6b"),
        ("chatglm3-6b-base", "chatglm3-6b"),
        ("glm-4-9b-chat", "glm-4-9b"),
        ("GLM-4V-9B", "glm-4v-9b"),  # the vision model, not GLM-4-9B with a typo
        ("bigscience/bloom-7b1", "bloom-7b1"),
        ("Baichuan2-13B-Chat", "baichuan2-13b"),
        ("baichuan-inc/Baichuan-13B-Chat", "baichuan-13b"),
        ("Qwen1.5-14B-Chat", "qwen1.5-14b"),
        ("qwen 1.5 32b", "qwen1.5-32b"),
        ("Qwen2-72B-Instruct", "qwen2-72b"),
        ("Qwen2-VL-7B-Instruct", "qwen2-vl-7b"),
        ("qwen1 14b", "qwen1-14b"),
        ("internlm2-chat-20b", "internlm2-20b"),
        ("Yi-34B-Chat", "yi-34b"),
        ("vicuna-13b-v1.5", "vicuna-13b"),
        ("llava-v1.5-7b", "llava-1.5-7b"),
        ("huggyllama/llama-65b", "llama-1-65b"),
        ("llama-30b", "llama-1-33b"),
        ("grok-1", "grok-1"),
        ("EleutherAI/polyglot-ko-12.8b", "polyglot-ko-12.8b"),
        ("codegen-16B-mono", "codegen-16b"),
        ("MiniCPM-V-2_6", "minicpm-v-2.6"),
        ("stable-diffusion-v1-4", "sd-1.4"),
        ("stable diffusion 2.1", "sd-2"),
        ("SD2.1", "sd-2"),
        ("Wan2.1-T2V-14B", "wan2.1-14b"),
        ("HunyuanVideo", "hunyuanvideo-13b"),
        ("CogVideoX-5b", "cogvideox-5b"),
        ("yolov8n.pt", "yolov8n"),
        ("whisper large-v2", "whisper-large-v2"),
    ],
)
def test_names_users_type_resolve(catalog: ModelCatalog, text: str, expected: str) -> None:
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A published name is that model: the first generations whose successors carry a 2 or a 3...
        ("ChatGLM-6B", "chatglm-6b"),
        ("chatglm", "chatglm-6b"),
        ("Baichuan-7B", "baichuan-7b"),
        ("baichuan-13b-chat", "baichuan-13b"),
        ("internlm-chat-7b", "internlm-7b"),
        ("internlm-chat-20b", "internlm-20b"),
        # ... while Qwen and Llama keep the catalog's rule: no version means the newest generation,
        ("Qwen-14B", "qwen3-14b"),
        ("qwen 7b", "qwen2.5-7b"),
        ("llama 7b", "llama-2-7b"),
        ("llama 13b", "llama-2-13b"),
        ("llama 30b", "llama-1-33b"),  # only LLaMA 1 had this size
        # so their first generations answer to an explicit version.
        ("qwen1 14b", "qwen1-14b"),
        ("qwen 1.0 72b", "qwen1-72b"),
        ("llama1 7b", "llama-1-7b"),
        ("chatglm3 6b", "chatglm3-6b"),
        ("baichuan 2 13b", "baichuan2-13b"),
        ("internlm 2 20b", "internlm2-20b"),
    ],
)
def test_published_names_and_versions(catalog: ModelCatalog, text: str, expected: str) -> None:
    assert catalog.resolve(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("千问 14B", "qwen3-14b"),
        ("通义千问 7B", "qwen2.5-7b"),
        ("千问1.5 14b", "qwen1.5-14b"),
        ("百川 13B", "baichuan-13b"),
        ("百川2 7b", "baichuan2-7b"),
        ("书生浦语2 20b", "internlm2-20b"),
    ],
)
def test_chinese_family_names_resolve(catalog: ModelCatalog, text: str, expected: str) -> None:
    assert catalog.resolve(text) == expected


def test_figures_pinned_to_their_sources(catalog: ModelCatalog) -> None:
    # ChatGLM2-6B config.json: num_layers 28, hidden 4096, multi_query_group_num 2, kv_channels 128.
    glm2 = catalog.get("chatglm2-6b")
    assert (glm2.layers, glm2.hidden_size, glm2.attention_heads, glm2.kv_heads, glm2.head_dim) == (28, 4096, 32, 2, 128)
    assert (glm2.vocab_size, glm2.default_context) == (65024, 32768)
    assert glm2.kv_cache_bytes(32768) == 32768 * 28 * 2 * 2 * 128 * 2  # 14 KiB a token: multi-query
    # ChatGLM-6B (first generation) has full multi-head attention and a 2K context.
    glm1 = catalog.get("chatglm-6b")
    assert (glm1.layers, glm1.kv_heads, glm1.vocab_size, glm1.max_context) == (28, 32, 130528, 2048)
    # LLaMA paper Table 2: 65.2B, 80 layers of width 8192 with 64 heads; 33B is 60 x 6656 with 52 heads.
    llama65 = catalog.get("llama-1-65b")
    assert (llama65.params_b, llama65.layers, llama65.hidden_size, llama65.attention_heads) == (65.2, 80, 8192, 64)
    llama33 = catalog.get("llama-1-33b")
    assert (llama33.layers, llama33.hidden_size, llama33.attention_heads) == (60, 6656, 52)
    # Baichuan-13B README: 13,264,901,120 parameters, 40 layers, hidden 5,120, vocabulary 64,000.
    baichuan = catalog.get("baichuan-13b")
    assert (baichuan.params_b, baichuan.layers, baichuan.hidden_size, baichuan.vocab_size) == (13.26, 40, 5120, 64000)
    # Qwen1 halves config.json's intermediate_size (22016) for each MLP projection.
    assert catalog.get("qwen1-7b").intermediate_size == 22016 // 2
    # Grouped-query attention where the config says so, full multi-head attention where it does not.
    assert catalog.get("qwen1.5-32b").kv_heads == 8 and catalog.get("qwen1.5-72b").kv_heads == 64
    assert (catalog.get("internlm2-20b").kv_heads, catalog.get("yi-34b").kv_heads) == (8, 8)
    # Grok-1 README: 314B, 8 experts with 2 per token, 48 query and 8 KV heads, 8,192 context.
    grok = catalog.get("grok-1")
    assert (grok.params_b, grok.experts, grok.experts_per_token, grok.attention_heads, grok.kv_heads) == (
        314.0,
        8,
        2,
        48,
        8,
    )
    assert grok.active_params_b is not None and grok.active_params_b < grok.params_b
    # Diffusion, video and CNN entries carry a size and no transformer shape.
    assert catalog.get("hunyuanvideo-13b").params_b == 13.0 and catalog.get("hunyuanvideo-13b").layers is None
    yolo = catalog.get("yolov8n")
    assert (yolo.kind, yolo.params_b, yolo.layers) == ("cnn", 0.0032, None)


def test_every_source_is_a_page_not_a_guess(catalog: ModelCatalog) -> None:
    # Each new entry cites the exact page its figures come from (a config, model card, README or paper).
    for spec in catalog.models.values():
        assert " " not in spec.source and spec.source.startswith("https://"), spec.id


# --- broken data -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model_id", "changes", "field"),
    [
        ("llama-3.1-8b", {"params_b": -1}, "params_b"),
        ("llama-3.1-8b", {"kv_heads": 7}, "kv_heads"),
        ("llama-3.1-8b", {"layers": None}, "layers"),
        ("mixtral-8x7b", {"active_params_b": 50.0}, "active_params_b"),
        ("mixtral-8x7b", {"experts_per_token": None}, "experts_per_token"),
        ("deepseek-v3", {"qk_rope_head_dim": None}, "qk_rope_head_dim"),
        ("gemma-3-27b", {"sliding_window_layers": 99}, "sliding_window_layers"),
        ("qwen2.5-7b", {"default_context": 262144}, "default_context"),
        ("sdxl", {"kind": "image"}, "kind"),
        ("resnet-50", {"id": "ResNet 50"}, "id"),
        ("phi-4", {"colour": "blue"}, "colour"),
    ],
)
def test_broken_entry_names_path_entry_and_field(tmp_path: Path, model_id: str, changes: dict, field: str) -> None:
    path = _write(tmp_path, _replace(_entries(), model_id, **changes))
    with pytest.raises(DataError) as info:
        load_model_catalog_from(path)
    message = str(info.value)
    assert str(path) in message
    shown_id = changes.get("id", model_id)
    assert repr(shown_id) in message
    assert f"field '{field}'" in message


def test_duplicate_alias_across_models_is_a_load_error(tmp_path: Path) -> None:
    entries = _replace(_entries(), "qwen3-8b", aliases=["Llama 3.1 8B Instruct"])
    path = _write(tmp_path, entries)
    with pytest.raises(DataError, match=r"entry 'qwen3-8b'.*field 'aliases'.*'llama-3.1-8b'"):
        load_model_catalog_from(path)


def test_duplicate_id_is_a_load_error(tmp_path: Path) -> None:
    entries = _entries()
    path = _write(tmp_path, [*entries, entries[0]])
    with pytest.raises(DataError, match=rf"entry '{entries[0]['id']}'.*field 'id'"):
        load_model_catalog_from(path)


def test_missing_file_and_bad_yaml(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_model_catalog_from(tmp_path)
    (tmp_path / "models.yaml").write_text("- id: [unclosed\n", encoding="utf-8")
    with pytest.raises(DataError, match="not valid YAML"):
        load_model_catalog_from(tmp_path)


def test_a_close_name_that_adds_a_variant_word_is_another_model():
    # "Qwen2-7B" is Qwen2 7B, never the vision model Qwen2-VL 7B that a fuzzy match one letter pair away
    # would give; the variant named resolves as before.
    catalog = load_model_catalog()
    assert catalog.resolve("Qwen2-7B") == "qwen2-7b"
    assert catalog.resolve("Qwen2-VL-7B-Instruct") == "qwen2-vl-7b"
    assert catalog.resolve("qwen2.5 coder 7b instruct") == "qwen2.5-coder-7b"


def test_suggestions_are_remembered_per_name_and_bounded() -> None:
    """ "Did you mean …?" scores a name against every alias (most of a can-run answer's time): the same unknown
    name asked again is answered from a bounded memory, with the same suggestions, and a copy the caller may keep."""
    catalog = load_model_catalog()
    first = catalog.suggest("mixtrl")
    memo = model_specs.per_object(model_specs._SUGGESTED, catalog, dict)
    assert ("mixtrl", 3) in memo and list(memo["mixtrl", 3]) == first and first
    first.append("changed by the caller")
    assert catalog.suggest("mixtrl") == list(memo["mixtrl", 3])
    assert len(memo) <= model_specs.RESOLVE_REMEMBERED
