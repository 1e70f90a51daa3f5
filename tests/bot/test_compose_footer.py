"""The footer names where an answer's speeds come from: the guide's model, or the measurements that correct it."""

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
