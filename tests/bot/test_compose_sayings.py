"""The footer names where an answer's speeds come from; a verdict is said once."""

from __future__ import annotations

import pytest

from bot.compose import compose
from engine import advise
from engine.query import Query


@pytest.mark.parametrize(
    ("query", "source"),
    [
        # image generation ranks by 16-bit inference, which published Stable Diffusion runs correct
        (Query(kind="recommend", task="image_generation"), "corrected by published Stable Diffusion runs"),
        (
            Query(kind="compare", gpus=("rtx-3060-12gb", "rtx-4060-ti-16gb"), task="image_generation"),
            "Stable Diffusion",
        ),
        # local LLM chat ranks by decode speed, which published llama.cpp/MLX/ExLlama runs calibrate
        (Query(kind="recommend", task="llm_inference"), "published llama.cpp/MLX/ExLlama runs"),
        # training: the guide's bandwidth model
        (Query(kind="recommend", task="computer_vision"), "the guide's bandwidth model"),
    ],
)
def test_the_footer_says_where_the_ranked_speeds_come_from(query: Query, source: str) -> None:
    doc = compose(advise(query), "en")
    assert doc.footer.startswith("Prices as of") and source in doc.footer
    assert "Stable Diffusion" in compose(advise(Query(kind="recommend", task="image_generation")), "zh-Hans").footer


def test_a_verdict_that_leads_the_headline_is_not_said_again_below_it() -> None:
    # "3090和4090跑Qwen2.5 32B哪个好？": the pick leads the headline, then each fit; no "结论" block repeats it
    answer = advise(Query(kind="compare", gpus=("rtx-3090", "rtx-4090"), task="llm_inference", model="qwen2.5-32b"))
    assert answer.comparison is not None and answer.headline["items"][0] == answer.comparison.verdict
    assert "verdict" not in [b.role for b in compose(answer, "zh-Hans").blocks]
    # a headline of its own (the speed ratio): the verdict follows in its block
    sd = advise(Query(kind="compare", gpus=("rtx-4090", "rtx-3090"), task="image_generation"))
    assert "verdict" in [b.role for b in compose(sd, "en").blocks]
