"""Models added to data/models.yaml for the rows of data/measurements/published_requirements.yaml
(speech, video, image, OCR and detection models): each resolves from the names people type, the
names that resolved before still resolve to the same models, and whole questions reach a published
answer where the parser finds the model."""

from __future__ import annotations

import re

import pytest

from engine.canrun import assess, published_need
from engine.model_specs import load_model_catalog
from engine.parse import parse

# What people type → the catalog id it must resolve to.
NAMES = [
    ("whisper-tiny", "whisper-tiny"),
    ("whisper tiny", "whisper-tiny"),
    ("openai/whisper-tiny", "whisper-tiny"),
    ("whisper tiny.en", "whisper-tiny"),
    ("whisper-turbo", "whisper-turbo"),
    ("whisper turbo", "whisper-turbo"),
    ("large-v3-turbo", "whisper-turbo"),
    ("whisper-large-v3-turbo", "whisper-turbo"),
    ("openai/whisper-large-v3-turbo", "whisper-turbo"),
    ("Whisper large-v3 turbo", "whisper-turbo"),
    ("bark", "bark"),
    ("Bark", "bark"),
    ("suno/bark", "bark"),
    ("F5-TTS", "f5-tts"),
    ("f5 tts", "f5-tts"),
    ("F5TTS", "f5-tts"),
    ("SWivid/F5-TTS", "f5-tts"),
    ("F5TTS_v1_Base", "f5-tts"),
    ("Fish Speech", "fish-speech-s2-pro"),
    ("fish-speech", "fish-speech-s2-pro"),
    ("Fish Speech S2 Pro", "fish-speech-s2-pro"),
    ("fish speech s2", "fish-speech-s2-pro"),
    ("Wan2.2 5B", "wan2.2-ti2v-5b"),
    ("wan 2.2 5b", "wan2.2-ti2v-5b"),
    ("Wan2.2-TI2V-5B", "wan2.2-ti2v-5b"),
    ("Wan-AI/Wan2.2-TI2V-5B", "wan2.2-ti2v-5b"),
    ("Wan2.2 A14B", "wan2.2-a14b"),
    ("wan 2.2 14b", "wan2.2-a14b"),
    ("Wan2.2-T2V-A14B", "wan2.2-a14b"),
    ("Wan2.2-I2V-A14B", "wan2.2-a14b"),
    ("CogVideoX1.5-5B", "cogvideox1.5-5b"),
    ("cogvideox 1.5 5b", "cogvideox1.5-5b"),
    ("THUDM/CogVideoX1.5-5B-I2V", "cogvideox1.5-5b"),
    ("FramePack", "framepack"),
    ("framepack", "framepack"),
    ("frame pack", "framepack"),
    ("lllyasviel/FramePack", "framepack"),
    ("FramePackI2V_HY", "framepack"),
    ("Qwen-Image", "qwen-image"),
    ("qwen image", "qwen-image"),
    ("Qwen/Qwen-Image", "qwen-image"),
    ("GOT-OCR2.0", "got-ocr-2.0"),
    ("GOT-OCR 2.0", "got-ocr-2.0"),
    ("GOT-OCR2_0", "got-ocr-2.0"),
    ("stepfun-ai/GOT-OCR2_0", "got-ocr-2.0"),
    ("got ocr", "got-ocr-2.0"),
    ("Mask R-CNN", "mask-rcnn-r50-fpn"),
    ("mask rcnn", "mask-rcnn-r50-fpn"),
    ("maskrcnn_resnet50_fpn", "mask-rcnn-r50-fpn"),
    ("Mask R-CNN R50-FPN", "mask-rcnn-r50-fpn"),
]
ADDED = sorted({model_id for _, model_id in NAMES})

# Names that resolved before these entries, and must still resolve to the same models.
UNCHANGED = [
    ("whisper large-v3", "whisper-large-v3"),
    ("openai/whisper-large-v3", "whisper-large-v3"),
    ("whisper large-v2", "whisper-large-v2"),
    ("whisper small", "whisper-small"),
    ("cogvideox 5b", "cogvideox-5b"),
    ("cogvideox 2b", "cogvideox-2b"),
    ("wan 14b", "wan2.1-14b"),
    ("wan2.1 14b", "wan2.1-14b"),
    ("wan 1.3b", "wan2.1-1.3b"),
    ("hunyuan video", "hunyuanvideo-13b"),
    ("qwen 14b", "qwen3-14b"),
    ("Qwen2-VL-7B-Instruct", "qwen2-vl-7b"),
    ("stable diffusion", "sd-1.5"),
    ("resnet50", "resnet-50"),
]


@pytest.mark.parametrize(("name", "model_id"), NAMES)
def test_added_name_resolves(name, model_id):
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize(("name", "model_id"), UNCHANGED)
def test_existing_names_keep_their_models(name, model_id):
    assert load_model_catalog().resolve(name) == model_id


@pytest.mark.parametrize("model_id", ADDED)
def test_added_entry_is_sourced_and_has_a_published_answer(model_id):
    spec = load_model_catalog().get(model_id)
    assert spec.kind != "llm"  # published figures answer only non-LLM models
    assert spec.params_b > 0
    assert re.fullmatch(r"https://\S+", spec.source)
    assert spec.notes
    assert published_need(model_id, "inference") or published_need(model_id, "full_finetune")


def test_a_bare_wan22_is_the_family_smallest_first():
    catalog = load_model_catalog()
    assert catalog.resolve("Wan2.2") is None
    assert catalog.family("Wan2.2") == ["wan2.2-ti2v-5b", "wan2.2-a14b"]


def test_wan22_a14b_is_two_14b_experts():
    spec = load_model_catalog().get("wan2.2-a14b")
    assert (spec.params_b, spec.active_params_b, spec.experts, spec.experts_per_token) == (27.0, 14.0, 2, 1)


# Whole questions → the model the parser must find, and whether the named card fits the published need.
QUESTIONS = [
    ("will Wan2.2 5B run on a 4090?", "wan2.2-ti2v-5b", (True,)),  # 24 GB with offload
    ("can my 3060 run Wan2.2-T2V-A14B?", "wan2.2-a14b", (False,)),  # 80 GB
    ("can my 3060 run whisper turbo?", "whisper-turbo", (True,)),
    ("can a 4090 run whisper large-v3-turbo?", "whisper-turbo", (True,)),
    ("can a 4090 run Qwen-Image?", "qwen-image", (True,)),
    ("can a 3090 run CogVideoX1.5-5B?", "cogvideox1.5-5b", (True,)),
]


@pytest.mark.parametrize(("text", "model_id", "fits"), QUESTIONS)
def test_question_reaches_a_published_answer(text, model_id, fits):
    query = parse(text).query
    assert query is not None and query.model == model_id
    report = assess(query)
    assert report.model_id == model_id
    assert report.published_fits == fits


def test_a_bare_wan22_question_is_answered_from_the_family():
    query = parse("can a 4090 run Wan2.2?").query
    assert query is not None and query.model == "Wan2.2"
    report = assess(query)
    assert report.model_id == "wan2.2-ti2v-5b"
    assert report.published_fits == (True,)


# Questions that reach these models by their family and name words (data/locales/parse.yaml:
# models.other_families "f5 tts", "framepack", "got ocr"; name_words "tiny", "a14b").
NAMED_QUESTIONS = [
    ("can an 8GB card run F5-TTS?", "f5-tts"),
    ("can my 3060 run FramePack?", "framepack"),
    ("will GOT-OCR2.0 run on a 3060?", "got-ocr-2.0"),
    ("can a 1060 run whisper tiny?", "whisper-tiny"),
    ("Wan2.2 A14B 在 4090 上能跑吗", "wan2.2-a14b"),
]


@pytest.mark.parametrize(("text", "model_id"), NAMED_QUESTIONS)
def test_questions_reach_the_model_and_its_published_need(text, model_id):
    query = parse(text).query
    assert query is not None and query.model == model_id
    assert assess(query).published_fits or not query.gpus
