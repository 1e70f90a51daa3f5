"""Models added to data/models.yaml for the rows of data/measurements/published_requirements.yaml
(speech, video, image, OCR and detection models): each resolves from the names people type, the
names that resolved before still resolve to the same models, and whole questions reach a published
answer where the parser finds the model."""

from __future__ import annotations

import re

import pytest

from bot.words import english
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
    # second pass, 2026-12-06: VLMs, video, image, 3D, music and speech models with published figures
    ("Qwen-VL", "qwen-vl-chat"),
    ("Qwen-VL-Chat", "qwen-vl-chat"),
    ("Qwen/Qwen-VL-Chat-Int4", "qwen-vl-chat"),
    ("qwen vl chat", "qwen-vl-chat"),
    ("CogVLM2", "cogvlm2-19b"),
    ("cogvlm2-llama3-chat-19B", "cogvlm2-19b"),
    ("THUDM/cogvlm2-llama3-chinese-chat-19B", "cogvlm2-19b"),
    ("MiniGPT-4", "minigpt-4"),
    ("minigpt4", "minigpt-4"),
    ("Vision-CAIR/MiniGPT-4", "minigpt-4"),
    ("MusicGen", "musicgen-medium"),
    ("musicgen-melody", "musicgen-medium"),
    ("facebook/musicgen-medium", "musicgen-medium"),
    ("Qwen2.5-Omni-7B", "qwen2.5-omni-7b"),
    ("Qwen2.5-Omni", "qwen2.5-omni-7b"),
    ("qwen2.5 omni", "qwen2.5-omni-7b"),
    ("ACE-Step", "ace-step-v1-3.5b"),
    ("ace step", "ace-step-v1-3.5b"),
    ("ACE-Step/ACE-Step-v1-3.5B", "ace-step-v1-3.5b"),
    ("Step-Audio-TTS-3B", "step-audio-tts-3b"),
    ("step audio tts", "step-audio-tts-3b"),
    ("YuE", "yue-7b"),
    ("m-a-p/YuE-s1-7B-anneal-en-cot", "yue-7b"),
    ("HunyuanDiT", "hunyuan-dit-1.5b"),
    ("Hunyuan-DiT", "hunyuan-dit-1.5b"),
    ("hunyuan dit", "hunyuan-dit-1.5b"),
    ("混元DiT", "hunyuan-dit-1.5b"),
    ("CogView4", "cogview4-6b"),
    ("CogView4-6B", "cogview4-6b"),
    ("SkyReels-V2 14B", "skyreels-v2-14b"),
    ("Skywork/SkyReels-V2-DF-14B-540P", "skyreels-v2-14b"),
    ("SkyReels-V2-I2V-14B-720P", "skyreels-v2-14b"),
    ("SkyReels-V2 1.3B", "skyreels-v2-1.3b"),
    ("SkyReels-V2-DF-1.3B-540P", "skyreels-v2-1.3b"),
    ("Open-Sora 2.0", "open-sora-2.0"),
    ("open sora v2", "open-sora-2.0"),
    ("hpcai-tech/Open-Sora-v2", "open-sora-2.0"),
    ("TripoSG", "triposg-1.5b"),
    ("VAST-AI/TripoSG", "triposg-1.5b"),
    ("Moshi", "moshi-7b"),
    ("kyutai/moshiko-pytorch-bf16", "moshi-7b"),
    ("rhymes-ai/Allegro", "allegro-t2v"),
    ("Allegro T2V", "allegro-t2v"),
    ("FantasyTalking", "fantasytalking"),
    ("fantasy talking", "fantasytalking"),
    ("MiniCPM-Llama3-V 2.5", "minicpm-llama3-v-2.5"),
    ("MiniCPM-V 2.5", "minicpm-llama3-v-2.5"),
    ("openbmb/MiniCPM-Llama3-V-2_5-int4", "minicpm-llama3-v-2.5"),
    ("MiniCPM-V 2.0", "minicpm-v-2.0"),
    ("MiniCPM-V-2", "minicpm-v-2.0"),
    ("openbmb/MiniCPM-V-2", "minicpm-v-2.0"),
    ("CogVLM", "cogvlm-17b"),
    ("THUDM/cogvlm-chat-hf", "cogvlm-17b"),
    ("EchoMimicV3", "echomimic-v3"),
    ("echomimic v3", "echomimic-v3"),
    ("OmniAvatar", "omniavatar-14b"),
    ("OmniAvatar/OmniAvatar-14B", "omniavatar-14b"),
    ("MAGI-1 4.5B", "magi-1-4.5b"),
    ("MAGI-1-4.5B-distill", "magi-1-4.5b"),
    ("BAGEL-7B-MoT", "bagel-7b-mot"),
    ("ByteDance-Seed/BAGEL-7B-MoT", "bagel-7b-mot"),
    ("Higgs Audio v2", "higgs-audio-v2"),
    ("bosonai/higgs-audio-v2-generation-3B-base", "higgs-audio-v2"),
    ("LiveAvatar", "liveavatar-14b"),
    ("Quark-Vision/Live-Avatar", "liveavatar-14b"),
    ("MiniCPM-V 4.6", "minicpm-v-4.6"),
    ("openbmb/MiniCPM-V-4.6-Thinking", "minicpm-v-4.6"),
    ("MiniCPM-o 4.5", "minicpm-o-4.5"),
    ("openbmb/MiniCPM-o-4_5", "minicpm-o-4.5"),
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
    ("MiniCPM-V", "minicpm-v-2.6"),
    ("MiniCPM-V 2.6", "minicpm-v-2.6"),
    ("MiniCPM-V-4_5", "minicpm-v-4.5"),
    ("Qwen2-VL-2B-Instruct", "qwen2-vl-2b"),
    ("wan2.1 14b", "wan2.1-14b"),
]


# Names that must not resolve: a bare word that is also an ordinary one, or a name another generation shares.
NOT_RESOLVED = ["Allegro", "CogAgent", "Bagel", "EchoMimic", "SkyReels-V2"]


@pytest.mark.parametrize("name", NOT_RESOLVED)
def test_ambiguous_names_do_not_resolve(name):
    assert load_model_catalog().resolve(name) is None


def test_bare_skyreels_v2_is_the_family_smallest_first():
    assert load_model_catalog().family("SkyReels-V2") == ["skyreels-v2-1.3b", "skyreels-v2-14b"]


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
    # second pass: names the parser reads through existing families (wan2.1, cogvlm, qwen, minicpm)
    ("Can my 3060 12GB run Wan2.1 14B?", "wan2.1-14b", (False,)),  # 69.1 GB at 720P with offload
    ("Can a 4090 run CogVLM2?", "cogvlm2-19b", (True,)),  # Int4 16 GB
    ("CogVLM 能在 3090 上跑吗", "cogvlm-17b", (True,)),  # INT4 ~11 GB
    ("Can my 3090 run Qwen2.5-Omni?", "qwen2.5-omni-7b", (False,)),  # 31.11 GB BF16
    ("Can a 3060 run Qwen-VL-Chat?", "qwen-vl-chat", (True,)),  # Int4 11.82 GB
    ("MiniCPM-V 2.0 能在 3060 上跑吗", "minicpm-v-2.0", (True,)),  # 8 GB
    ("can a 4060 run MiniCPM-Llama3-V 2.5?", "minicpm-llama3-v-2.5", (True,)),  # int4 8 GB
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


# Project names typed as people write them ("MusicGen", "HunyuanDiT"), which the parser reads as the
# project asked about (engine.parse.project_name) and the catalog resolves.
PROJECT_QUESTIONS = [
    ("Can my 3060 run MusicGen?", "musicgen-medium", (False,)),  # 16 GB for the medium models
    ("HunyuanDiT 能在 3060 上跑吗", "hunyuan-dit-1.5b", (True,)),  # 11 GB without DialogGen
    ("Can my 3090 run CogView4?", "cogview4-6b", (True,)),  # 13 GB with offload and a 4-bit text encoder
    ("Can my 3060 run TripoSG?", "triposg-1.5b", (True,)),  # 8 GB
    ("Can a 4090 run MiniGPT-4?", "minigpt-4", (True,)),  # 23 GB with Vicuna 13B in 8 bit
    ("OmniAvatar能在4090上跑吗", "omniavatar-14b", (True,)),  # 8 GB with no persistent DiT parameters
    ("EchoMimicV3需要多少显存", "echomimic-v3", ()),  # 12 GB, no card named
    # c0185-like: Live Avatar on one 4090 (24 GB) is under the 48 GB FP8 minimum
    ("Can LiveAvatar run on a 4090?", "liveavatar-14b", (False,)),
]


@pytest.mark.parametrize(("text", "model_id", "fits"), PROJECT_QUESTIONS)
def test_project_names_reach_their_published_answer(text, model_id, fits):
    query = parse(text).query
    assert query is not None and query.model == model_id
    report = assess(query)
    assert report.model_id == model_id and report.published_fits == fits


@pytest.mark.parametrize(("text", "model_id"), NAMED_QUESTIONS)
def test_questions_reach_the_model_and_its_published_need(text, model_id):
    query = parse(text).query
    assert query is not None and query.model == model_id
    assert assess(query).published_fits or not query.gpus


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("Can a 4090 run SkyReels-V2 14B?", "skyreels-v2-14b"),  # its family, not a generic 14B LLM
        ("Step-Audio-TTS-3B需要多少显存", "step-audio-tts-3b"),
        ("MAGI-1 4.5B on a 3090?", "magi-1-4.5b"),
        ("BAGEL-7B-MoT VRAM?", "bagel-7b-mot"),
        ("Higgs Audio v2 on a 4090?", "higgs-audio-v2"),
        ("Open-Sora 2.0 需要多大显存", "open-sora-2.0"),
        ("can my 3060 run musicgen medium?", "musicgen-medium"),
    ],
)
def test_the_families_of_the_published_models_are_read_from_questions(text: str, model: str) -> None:
    assert parse(text, standalone=True).query.model == model


def test_fine_tuning_a_vision_language_model_reads_its_authors_lora_figure():
    # "fine-tune" with a known non-LLM trains it (no LLM's LoRA default); Qwen-VL's authors publish a LoRA
    # fine-tune only (17.0 GB Q-LoRA to 27.3 GB LoRA at 2,048 tokens), which answers, said as LoRA.
    query = parse("Can I fine-tune Qwen-VL on a 3090?", standalone=True).query
    assert query.model == "qwen-vl-chat" and query.mode == "full_finetune"
    report = assess(query, mode=query.mode)
    assert report.published_fits == (True,)
    assert "Qwen-VL-Chat LoRA training takes from 17 GB (27.3 GB recommended)" in english(report.headline)
    assert parse("CogVLM2微调需要多少显存", standalone=True).query.mode == "full_finetune"


def test_a_video_model_too_big_for_the_card_names_the_familys_model_that_fits():
    # Wan2.1 14B: 69.1 GB at 720P (its README's table) — no on 16 GB; Wan2.1 1.3B's published 8.19 GB fits
    report = assess(parse("Is 16GB enough for Wan 2.1 14B video generation?").query)
    assert report.published_fits == (False,)
    said, smaller = report.headline, None
    while said.key == "canrun.sentences":  # sentences chained first → then: find the sibling's
        if said["then"].key.startswith("canrun.published.smaller"):
            smaller = said["then"]
        said = said["first"]
    assert smaller is not None
    assert smaller["model"] == "Wan2.1 1.3B" and smaller["min_gb"] == 8.19  # a known model: its name
    # a card that holds the asked model gets no sibling
    assert "canrun.published.smaller.one" not in assess(parse("Can an H100 run Wan2.1 14B?").query).headline.all_keys()
