"""data/measurements/published_requirements.yaml: tools' published GPU-memory figures are well formed,
name catalog models, cite an https source and have their settings worded in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.words import LANGS, catalog
from engine.datafiles import read_yaml
from engine.model_specs import load_model_catalog_from

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
REQUIREMENTS = DATA_DIR / "measurements" / "published_requirements.yaml"
MODES = {"inference", "lora", "full_finetune"}
FIELDS = {"id", "model", "mode", "min_gb", "recommended_gb", "condition", "tool", "source", "date"}
OPTIONAL = {"notes", "min_gb_no_tensor_cores"}


def _rows() -> list[dict]:
    return read_yaml(REQUIREMENTS)["requirements"]


ROWS = _rows()
IDS = [row["id"] for row in ROWS]


def test_there_are_rows_and_their_ids_are_unique():
    assert len(ROWS) >= 30
    assert len(set(IDS)) == len(IDS), sorted(i for i in IDS if IDS.count(i) > 1)


def test_one_row_per_model_mode_and_tool():
    keys = [(row["model"], row["mode"], row["tool"]) for row in ROWS]
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_row_fields(row):
    assert FIELDS <= set(row) <= FIELDS | OPTIONAL, set(row) ^ FIELDS
    assert re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9]+)*", row["id"])
    assert row["mode"] in MODES
    assert isinstance(row["condition"], str) and row["condition"].strip()
    assert isinstance(row["tool"], str) and row["tool"].strip()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(row["date"]))


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_gigabytes_are_ordered_and_plausible(row):
    low, high = row["min_gb"], row["recommended_gb"]
    assert isinstance(low, (int, float)) and isinstance(high, (int, float))
    assert 0 < low <= high <= 200


@pytest.mark.parametrize("row", ROWS, ids=IDS)
def test_source_is_an_https_url(row):
    assert re.fullmatch(r"https://[^\s\"']+", row["source"])


def test_every_model_is_in_the_catalog_and_resolves_to_itself():
    models = load_model_catalog_from(DATA_DIR)
    missing = sorted({row["model"] for row in ROWS} - set(models.ids()))
    assert not missing, missing
    for row in ROWS:
        assert models.resolve(row["model"]) == row["model"], row["id"]


def test_every_row_has_its_settings_in_every_language():
    known = catalog()
    for row_id in IDS:
        templates = known.get(f"canrun.published.settings.{row_id}")
        assert templates is not None, row_id
        for lang in LANGS:
            assert templates[lang].strip(), (row_id, lang)


def test_no_settings_message_is_left_without_its_row():
    keys = {k for k in catalog() if k.startswith("canrun.published.settings.")}
    rows = {f"canrun.published.settings.{i}" for i in IDS}
    # diffusion_training.yaml's rows keep their words in canrun.yaml
    training = {
        f"canrun.published.settings.{r['id']}"
        for r in read_yaml(DATA_DIR / "measurements" / "diffusion_training.yaml")["training"]
    }
    assert not sorted(keys - rows - training)


# Rows added on 2026-12-06 (second pass), with the figures read in their sources: id → (min, recommended).
SECOND_PASS = {
    "wan2.1-14b-infer": (69.1, 76.7),  # README efficiency table: 720P, one GPU, --offload_model True
    "skyreels-v2-14b-infer": (43.4, 51.2),  # 540P: T2V/I2V 14B, Diffusion Forcing 14B
    "skyreels-v2-1.3b-infer": (14.7, 14.7),
    "open-sora-2.0-infer": (52.5, 60.3),  # one H100: 256px with offload, 768px
    "allegro-t2v-infer": (9.3, 27.5),  # with and without --enable_cpu_offload
    "fantasytalking-infer": (5, 40),  # num_persistent_param_in_dit 0 … unlimited
    "hunyuan-dit-1.5b-infer": (11, 32),  # DiT alone on an A100 … with DialogGen
    "hunyuan-dit-1.5b-full": (20, 30),
    "cogview4-6b-infer": (13, 35),  # offload + 4-bit text encoder … no offload at 1024²
    "triposg-1.5b-infer": (8, 8),
    "musicgen-medium-infer": (16, 16),
    "ace-step-v1-3.5b-infer": (8, 8),
    "yue-7b-infer": (24, 80),  # 2 sessions … full songs
    "step-audio-tts-3b-infer": (8, 8),
    "moshi-7b-infer": (24, 24),
    "qwen-vl-chat-infer": (11.82, 22.60),  # Int4 … BF16, 2048 tokens with an image
    "qwen-vl-chat-lora": (17.0, 27.3),  # Q-LoRA at 384 tokens … chat LoRA at 2048
    "cogvlm2-19b-infer": (16, 42),  # Int4 … BF16
    "cogvlm2-19b-lora": (73, 73),
    "minigpt-4-infer": (11.5, 23),  # 8-bit 7B LLM … 8-bit Vicuna 13B
    "qwen2.5-omni-7b-infer": (31.11, 60.19),  # BF16, 15 s … 60 s of video
    "minicpm-llama3-v-2.5-infer": (8, 19),  # int4 … full model
    "minicpm-v-2.0-infer": (8, 8),
    "cogvlm-17b-infer": (11, 80),  # INT4 ~11GB … FP16 on one A100 80G
    "echomimic-v3-infer": (12, 12),
    "omniavatar-14b-infer": (8, 36),  # num_persistent_param_in_dit 0 … unlimited
    "magi-1-4.5b-infer": (12, 24),  # 4.5B-distill+fp8_quant … any 4.5B model
    "bagel-7b-mot-infer": (12, 32),  # NF4 … the default app
    "higgs-audio-v2-infer": (24, 24),
    "liveavatar-14b-infer": (48, 80),  # FP8 … single GPU
    "minicpm-v-4.6-infer": (3, 4),  # int4 quantized … full model
    "minicpm-o-4.5-infer": (10, 19),  # gguf … full model
}


@pytest.mark.parametrize(("row_id", "figures"), SECOND_PASS.items(), ids=list(SECOND_PASS))
def test_second_pass_rows_carry_their_sources_figures(row_id, figures):
    row = next(r for r in ROWS if r["id"] == row_id)
    assert (row["min_gb"], row["recommended_gb"]) == figures
    assert row["date"] >= "2023-04-01"  # every one of these projects published after April 2023


def _q(**fields):
    from engine.query import Query

    return Query(kind="can_run", **fields)


# Worked verdicts: a card fits from min_gb (its GiB against the published GB, as the box says "24 GB").
VERDICTS = [
    # Wan2.1 14B on one GPU peaks at 69.1 GB even with --offload_model True: a 4090 does not, an 80 GB A100 does.
    ("wan2.1-14b", ("rtx-4090", "a100-80gb-sxm"), (False, True)),
    # CogVLM2 Int4 takes 16 GB: a 3060 12GB no, a 4090 (24) yes though under BF16's 42 GB.
    ("cogvlm2-19b", ("rtx-3060-12gb", "rtx-4090"), (False, True)),
    # MiniGPT-4: 11.5 GB with a 7B LLM fits a 3060 12GB; an 8 GB 4060 does not.
    ("minigpt-4", ("rtx-4060", "rtx-3060-12gb"), (False, True)),
    # Qwen2.5-Omni-7B needs 31.11 GB at BF16 for 15 s of video: a 3090 (24) no, a 4090 48GB yes.
    ("qwen2.5-omni-7b", ("rtx-3090", "rtx-4090-48gb"), (False, True)),
    # MusicGen medium wants 16 GB: a 4060 Ti 16GB yes, a 3060 12GB no.
    ("musicgen-medium", ("rtx-3060-12gb", "rtx-4060-ti-16gb"), (False, True)),
    # SkyReels-V2 1.3B at 540P peaks at 14.7 GB: a 4060 Ti 16GB yes, a 3060 12GB no.
    ("skyreels-v2-1.3b", ("rtx-3060-12gb", "rtx-4060-ti-16gb"), (False, True)),
    # Hunyuan-DiT alone from 11 GB: a 3060 12GB yes, an 8 GB 4060 no.
    ("hunyuan-dit-1.5b", ("rtx-4060", "rtx-3060-12gb"), (False, True)),
    # MiniCPM-Llama3-V 2.5 int4 at 8 GB: an 8 GB 4060 yes (the minimum), a 6 GB 1060 no.
    ("minicpm-llama3-v-2.5", ("gtx-1060-6gb", "rtx-4060"), (False, True)),
]


@pytest.mark.parametrize(("model_id", "gpus", "fits"), VERDICTS, ids=[v[0] for v in VERDICTS])
def test_second_pass_models_are_answered_from_their_published_figures(model_id, gpus, fits):
    from engine.canrun import assess

    report = assess(_q(model=model_id, gpus=gpus, gpu_counts=(1,) * len(gpus)))
    assert report.model_id == model_id and report.mode == "inference"
    assert report.published_fits == fits
    assert "canrun.published.need" in report.headline.all_keys()


def test_qwen_vl_lora_reads_qlora_as_its_lora_row():
    from engine.canrun import assess

    # Q-LoRA 17.0 GB … chat LoRA 27.3 GB: a 3090 (24 GB) fits, tight; a 4060 Ti 16GB does not.
    report = assess(_q(model="qwen-vl-chat", gpus=("rtx-4060-ti-16gb", "rtx-3090"), gpu_counts=(1, 1)), mode="qlora")
    assert report.published_fits == (False, True)
    assert report.needs[0].gib == 17.0
